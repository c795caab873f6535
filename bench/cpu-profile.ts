// The V8 CPU profile format (`node --cpu-prof`, a .cpuprofile file) as far as the bench's tools read it,
// and the two facts every reading needs: how much time each node was sampled on top of the stack, and
// a short name for the file a frame came from.

export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

export interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  /** Microseconds since the previous sample, one per sample. */
  timeDeltas: number[];
}

/** Microseconds each node was sampled on top of the stack (its self time), and the sum of them all. */
export function selfTimes(profile: CpuProfile): { byNode: Map<number, number>; totalUs: number } {
  const byNode = new Map<number, number>();
  let totalUs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    const id = profile.samples[i]!;
    byNode.set(id, (byNode.get(id) ?? 0) + dt);
    totalUs += dt;
  }
  return { byNode, totalUs };
}

/** `src/x.js` for the project's compiled files, `undici/lib/…` for a dependency, `(native)` for V8 and C++. */
export function shortUrl(url: string): string {
  if (url === '') return '(native)';
  const i = url.indexOf('/dist/');
  if (i !== -1) return url.slice(i + 6);
  const n = url.lastIndexOf('node_modules/');
  return n !== -1 ? url.slice(n + 13) : url.replace(/^node:/, '');
}

/** `name file:line`, the label both tools print for a frame. */
export function frameLabel(frame: CallFrame): string {
  return `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
}
