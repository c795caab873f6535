import type { Pause } from './gc-pauses.js';
import type { GcTally } from './gc-tally.js';

// The messages between the bench (parent) and the processes it starts (simulator, pass-through,
// gateway). Each child measures itself, so the load generator's own work never pollutes the numbers.

/** One process's resource use since the last `reset`. */
export interface ProcessStats {
  rssBytes: number;
  rssPeakBytes: number;
  heapUsedBytes: number;
  /** Event-loop delay over the window, beyond the sampling interval (event-loop-delay.ts), milliseconds. */
  eldP50Ms: number;
  eldP99Ms: number;
  eldMaxMs: number;
  /** CPU time (user + system) over the window, microseconds. */
  cpuUs: number;
  wallMs: number;
  /** Highest number of requests in flight seen over the window (the gateway reports it; else 0). */
  inFlightPeak: number;
  /** What the main thread's garbage collector did over the window (./gc-tally.ts). */
  gc: GcTally;
}

/** What the bench changes in its simulator between phases and scenarios (the simulator's own option names). */
export interface SimulatorSettings {
  tokensPerSecond?: number;
  /** null: the simulator's default (back-to-back 16 KiB writes). */
  streamChunkBytes?: number | null;
}

export type ChildCommand =
  | { id: number; op: 'reset' }
  | { id: number; op: 'stats' }
  /** Full GC (children run with --expose-gc), then stats: for the flat-memory check. */
  | { id: number; op: 'gc' }
  /** Simulator only: change pacing (tokens per second, the open-streams phase) or a scenario's stream write size. */
  | { id: number; op: 'configure'; settings: SimulatorSettings }
  /** The main thread's GC pauses since the last ask (children started with RECORD_GC_PAUSES_ENV=1). */
  | { id: number; op: 'gcPauses' };

/** Set to 1 in a child's environment to have it record its GC pauses (the tail-latency tool). */
export const RECORD_GC_PAUSES_ENV = 'MGW_BENCH_RECORD_GC_PAUSES';

export type ChildReply =
  | { type: 'ready'; url: string; key?: string }
  | { type: 'failed'; message: string }
  | { type: 'reply'; id: number; stats: ProcessStats | null; pauses?: Pause[] };
