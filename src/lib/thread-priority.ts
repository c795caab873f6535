// Lowers the scheduling priority of the calling thread alone (Linux). A translation worker runs at a
// lower priority than the event loop it relieves: on a busy machine a large body then waits for a
// spare core instead of taking one from the thread that serves every other request.
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** How much nicer than the process a worker thread runs (Linux nice values, -20 … 19). */
export const WORKER_NICENESS = 10;
const LOWEST = 19;

/** The kernel's id of the calling thread: /proc/thread-self names `<pid>/task/<tid>`. */
export function currentThreadId(): number | null {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/**
 * On Linux, setpriority on a thread id changes that thread only. Returns the new nice value, or null
 * where threads cannot be told apart (no /proc) or the change is refused; the thread then runs as before.
 */
export function lowerThreadPriority(by = WORKER_NICENESS): number | null {
  const tid = currentThreadId();
  if (tid === null || tid === process.pid) return null;
  try {
    const nice = Math.min(LOWEST, getPriority(tid) + by);
    setPriority(tid, nice);
    return nice;
  } catch {
    return null;
  }
}
