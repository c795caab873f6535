// The pool phase's verdict (bench/phases/pool.ts): what each variant measured and when the pool wins. In
// a module of its own, without the phase's load generator and processes, so its test loads only this.

export interface PoolVariant {
  smallRps: number;
  smallP50Ms: number;
  smallP99Ms: number;
  largeRps: number;
  largeP99Ms: number;
  eldP99Ms: number;
  eldMaxMs: number;
  cpuUsPerRequest: number;
  rssPeakMiB: number;
}

export function poolWins(inline: PoolVariant, pool: PoolVariant): boolean {
  return pool.eldP99Ms < inline.eldP99Ms && pool.smallP50Ms <= 1.1 * inline.smallP50Ms && pool.smallP99Ms <= 1.1 * inline.smallP99Ms;
}
