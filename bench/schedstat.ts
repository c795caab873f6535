// What the Linux scheduler says of a process: how long its threads ran on a CPU and how long they
// waited, runnable, for one (/proc/<pid>/task/<tid>/schedstat: run ns, wait ns, timeslices). At one
// connection a request's latency is the CPU time of every process on its path plus such waits.
import { readdirSync, readFileSync } from 'node:fs';

export interface SchedTimes {
  /** All threads of the process, nanoseconds. */
  runNs: number;
  waitNs: number;
  /** Its main thread alone (the event loop). */
  mainRunNs: number;
  mainWaitNs: number;
}

/** One schedstat line: "<run ns> <wait ns> <timeslices>". */
export function parseSchedstat(line: string): { runNs: number; waitNs: number } {
  const [run, wait] = line.trim().split(/\s+/);
  const runNs = Number(run);
  const waitNs = Number(wait);
  if (!Number.isFinite(runNs) || !Number.isFinite(waitNs)) throw new Error(`not a schedstat line: "${line}"`);
  return { runNs, waitNs };
}

/** null where the kernel keeps no such numbers (not Linux, or schedstats not built in). */
export function readSchedTimes(pid: number): SchedTimes | null {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  const times: SchedTimes = { runNs: 0, waitNs: 0, mainRunNs: 0, mainWaitNs: 0 };
  let read = 0;
  for (const tid of tids) {
    let line: string;
    try {
      line = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile, or there is no schedstat
    }
    const t = parseSchedstat(line);
    times.runNs += t.runNs;
    times.waitNs += t.waitNs;
    if (tid === String(pid)) {
      times.mainRunNs = t.runNs;
      times.mainWaitNs = t.waitNs;
    }
    read++;
  }
  return read === 0 ? null : times;
}

export function schedDelta(after: SchedTimes, before: SchedTimes): SchedTimes {
  return {
    runNs: after.runNs - before.runNs,
    waitNs: after.waitNs - before.waitNs,
    mainRunNs: after.mainRunNs - before.mainRunNs,
    mainWaitNs: after.mainWaitNs - before.mainWaitNs,
  };
}

/**
 * How often the main thread (the event loop) gave up its CPU: voluntarily (it went to sleep with nothing
 * to do: each one is a wake-up when work comes) and involuntarily (preempted).
 */
export interface ContextSwitches {
  voluntary: number;
  involuntary: number;
}

/** The two counters of a /proc/<pid>/status text. */
export function parseContextSwitches(status: string): ContextSwitches {
  const voluntary = /^voluntary_ctxt_switches:\s+(\d+)$/m.exec(status)?.[1];
  const involuntary = /^nonvoluntary_ctxt_switches:\s+(\d+)$/m.exec(status)?.[1];
  if (voluntary === undefined || involuntary === undefined) throw new Error('no context switch counts in this status');
  return { voluntary: Number(voluntary), involuntary: Number(involuntary) };
}

/** The main thread's context switches, or null where the process is gone or the kernel keeps none. */
export function readContextSwitches(pid: number): ContextSwitches | null {
  try {
    return parseContextSwitches(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return null;
  }
}
