// Runs inside each child: answers the bench's stats commands over the IPC channel, sampling its own
// RSS peak and event-loop delay, and exits when the parent goes away.
import { GCProfiler } from 'node:v8';
import { startDelayMonitor } from '../event-loop-delay.js';
import { addGcProfile, emptyGcTally } from '../gc-tally.js';
import type { Pause } from '../gc-pauses.js';
import { recordGcPauses } from '../gc-pauses.js';
import type { ChildCommand, ChildReply, ProcessStats, SimulatorSettings } from '../ipc.js';
import { RECORD_GC_PAUSES_ENV } from '../ipc.js';

export interface StatsHooks {
  /** Current requests in flight, sampled with the RSS (the gateway passes its lifecycle counter). */
  inFlight?: () => number;
  configure?: (settings: SimulatorSettings) => void;
  close: () => Promise<void>;
}

const SAMPLE_MS = 50;

export function serveStats(hooks: StatsHooks): void {
  const eld = startDelayMonitor();
  // Off unless asked for: every other measurement runs without the observer.
  const gcPauses = process.env[RECORD_GC_PAUSES_ENV] === '1' ? recordGcPauses() : null;
  let rssPeak = 0;
  let inFlightPeak = 0;
  let cpu = process.cpuUsage();
  let since = performance.now();
  const sample = () => {
    const rss = process.memoryUsage.rss();
    if (rss > rssPeak) rssPeak = rss;
    const n = hooks.inFlight?.() ?? 0;
    if (n > inFlightPeak) inFlightPeak = n;
  };
  const sampler = setInterval(sample, SAMPLE_MS);
  sampler.unref();
  // V8's GC profile: kept by V8 per collection (no JavaScript runs for it), read out at each ask and
  // started again, so asks in the middle of a window (the streams phase polls) lose nothing.
  let gcProfiler = new GCProfiler();
  gcProfiler.start();
  let gc = emptyGcTally();
  /** The collections since the last call, the profiler started again. */
  const takeGcProfile = () => {
    const profile = gcProfiler.stop();
    gcProfiler = new GCProfiler();
    gcProfiler.start();
    return profile;
  };

  const reset = () => {
    eld.reset();
    rssPeak = 0;
    inFlightPeak = 0;
    sample();
    takeGcProfile();
    gc = emptyGcTally();
    cpu = process.cpuUsage();
    since = performance.now();
  };
  const stats = (): ProcessStats => {
    sample();
    addGcProfile(gc, takeGcProfile());
    const used = process.cpuUsage(cpu);
    return {
      rssBytes: process.memoryUsage.rss(),
      rssPeakBytes: rssPeak,
      heapUsedBytes: process.memoryUsage().heapUsed,
      eldP50Ms: eld.percentileMs(50),
      eldP99Ms: eld.percentileMs(99),
      eldMaxMs: eld.maxMs(),
      cpuUs: used.user + used.system,
      wallMs: performance.now() - since,
      inFlightPeak,
      gc: { ...gc },
    };
  };

  process.on('message', (raw: unknown) => {
    const cmd = raw as ChildCommand;
    let result: ProcessStats | null = null;
    let pauses: Pause[] | undefined;
    if (cmd.op === 'reset') reset();
    else if (cmd.op === 'stats') result = stats();
    else if (cmd.op === 'gc') {
      (globalThis as { gc?: () => void }).gc?.();
      result = stats();
    } else if (cmd.op === 'configure') hooks.configure?.(cmd.settings);
    else if (cmd.op === 'gcPauses') pauses = gcPauses?.take() ?? [];
    send({ type: 'reply', id: cmd.id, stats: result, pauses });
  });
  // The parent closing the channel (normally or by crashing) ends the child.
  process.once('disconnect', () => {
    clearInterval(sampler);
    void hooks.close().finally(() => process.exit(0));
  });
}

export function send(message: ChildReply): void {
  process.send?.(message);
}

/** Reports a start-up failure to the parent and exits. */
export function failStart(err: unknown): void {
  const message: ChildReply = { type: 'failed', message: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  if (process.send === undefined) {
    process.stderr.write(`${message.message}\n`);
    process.exit(1);
  }
  process.send(message, () => process.exit(1));
}
