// When and on what a bench tool ran: the fields and the first line of its section of bench/RESULTS.md,
// the same for every tool (a shared machine's load average says how much to trust the numbers).
import { cpus, loadavg } from 'node:os';
import { round } from './results.js';

export interface HostRun {
  startedAt: string;
  cores: number;
  node: string;
  /** 1, 5 and 15 min load averages at the start and at the end. */
  loadBefore: number[];
  loadAfter: number[];
}

const loadNow = () => loadavg().map((l) => round(l, 2));

/** Call when the run starts; the function it returns completes the record when the run ends. */
export function hostRun(): () => HostRun {
  const startedAt = new Date().toISOString();
  const loadBefore = loadNow();
  return () => ({ startedAt, cores: cpus().length, node: process.version, loadBefore, loadAfter: loadNow() });
}

/** `2026-01-01 12:00 UTC; 2 cores<coresNote>, load average … at the start and … at the end (1, 5, 15 min); Node v20.` */
export function describeHost(r: HostRun, coresNote = ''): string {
  return `${r.startedAt.slice(0, 16).replace('T', ' ')} UTC; ${r.cores} cores${coresNote}, load average ${r.loadBefore.join(' / ')} at the start and ${r.loadAfter.join(' / ')} at the end (1, 5, 15 min); Node ${r.node}.`;
}
