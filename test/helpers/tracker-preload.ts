// tap's process tracker (@tapjs/processinfo) and its preload, as child-coverage.ts finds and replaces
// it: pure functions, apart from the preload's side effects so that a test can check them without
// installing those.

/** The environment variable that tells a child where the tracker is (its preload is not in the child's execArgv). */
export const TRACKER_PRELOAD_ENV = 'CHILD_COVERAGE_TRACKER_PRELOAD';

/** The tracker's preload among node's arguments (`--import=<url of its import.mjs>`): its URL, or undefined. */
export function trackerPreloadIn(args: readonly string[]): string | undefined {
  for (const arg of args) {
    const url = /^--import=(.*@tapjs\/processinfo\/dist\/esm\/import\.mjs)$/.exec(arg)?.[1];
    if (url !== undefined) return url;
  }
  return undefined;
}

/** NODE_OPTIONS with the tracker's preload replaced by `self` (dropped where `self` is there already). */
export function swapTrackerPreload(nodeOptions: string, tracker: string, self: string): string {
  const trackerArg = `--import=${tracker}`;
  const selfArg = `--import=${self}`;
  if (!nodeOptions.includes(trackerArg)) return nodeOptions;
  if (!nodeOptions.includes(selfArg)) return nodeOptions.replace(trackerArg, selfArg);
  return nodeOptions
    .split(' ')
    .filter((arg) => arg !== trackerArg)
    .join(' ');
}
