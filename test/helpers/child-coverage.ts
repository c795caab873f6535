// Coverage for the node processes the tests start, without tap's module loader in each of them.
//
// tap's process tracker (@tapjs/processinfo) puts its preload into every child process a test starts,
// through the environment (NODE_OPTIONS). That preload registers a module loader, which on Node 20
// runs on a thread of its own and sees every module the process loads, for a list of loaded files the
// suite never reads (tap's `--changed`): a `serve` started by a test cost 0.4 CPU-s more with it (1.4
// against 1.0, the 52 of a run 73 CPU-s against 51). What the suite needs from a child is its coverage,
// which the tracker takes from V8 through the inspector and writes when the process exits: the
// tracker's own `getProcessInfo()`, without the loader. (The test processes tap starts itself keep the
// tracker's preload: there, leaving it out measured no difference.)
//
// tap loads this file into every test process (`"node-arg"` in package.json's `"tap"` block), and a
// child gets it in place of the tracker's preload. In each it starts the tracker's coverage and exit
// hooks (idempotent where the tracker's preload started them already), and adds a spawn hook after the
// tracker's: where the tracker put its preload into a child's NODE_OPTIONS, this file goes instead.
// Outside tap (no tracker in sight) it does nothing.
import { swapTrackerPreload, TRACKER_PRELOAD_ENV, trackerPreloadIn } from './tracker-preload.js';

/** This file, as the children's preload. */
const SELF = import.meta.url;

interface SpawnOptionsSeen {
  env: Record<string, string | undefined>;
}

/** process-on-spawn's shared state (the package keeps it on `global` so that every copy sees one list). */
interface SpawnHooks {
  listeners: ((options: SpawnOptionsSeen) => void)[];
}

async function startCoverage(tracker: string): Promise<void> {
  // The tracker's package exports only its preload; its coverage and exit hooks sit beside it.
  const { getProcessInfo } = (await import(new URL('./get-process-info.js', tracker).href)) as { getProcessInfo: () => unknown };
  getProcessInfo();
  const state = (globalThis as Record<symbol, SpawnHooks | undefined>)[Symbol.for('process-on-spawn@*:singletonId')];
  state?.listeners.push((options) => {
    const nodeOptions = options.env.NODE_OPTIONS;
    const swapped = nodeOptions === undefined ? nodeOptions : swapTrackerPreload(nodeOptions, tracker, SELF);
    if (swapped !== nodeOptions) options.env = { ...options.env, NODE_OPTIONS: swapped, [TRACKER_PRELOAD_ENV]: tracker };
  });
}

// From this process's own arguments (a test process) or from the environment (a child).
const tracker = trackerPreloadIn(process.execArgv) ?? process.env[TRACKER_PRELOAD_ENV];
if (tracker !== undefined) await startCoverage(tracker);
