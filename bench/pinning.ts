// Cores for the processes of a measurement. On a 2-core machine the proxy being measured shares its
// cores with the load generator, the simulator and, for the store and Redis measurements, the database
// or Redis server; their CPU then comes out of the proxy's throughput and their cache traffic lands in
// its CPU per request. Pinned, the measured proxies (every thread) have the last core to themselves and
// everything else has the others: what a deployment with the database and Redis on hosts of their own
// sees. Servers of the machine (named by process name) are given back every core when released.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

export interface Pinning {
  /** The cores the measured proxies run on, and the others' (taskset lists). */
  readonly measured: string;
  readonly others: string;
  /** Gives the machine's servers every core again. */
  release(): void;
}

const taskset = (cpuList: string, pid: number): void => {
  execFileSync('taskset', ['-a', '-p', '-c', cpuList, String(pid)], { stdio: 'ignore' });
};

/** Pids of the machine's processes with this exact name (redis-server, postgres: its server and every backend). */
function pidsNamed(name: string): number[] {
  try {
    return execFileSync('pgrep', ['-x', name], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

export function pinMeasuredAlone(measuredPids: readonly number[], otherPids: readonly number[], serverNames: readonly string[] = []): Pinning {
  const count = cpus().length;
  if (count < 2) throw new Error('pinning needs at least two cores');
  const measured = String(count - 1);
  const others = count === 2 ? '0' : `0-${count - 2}`;
  for (const pid of measuredPids) taskset(measured, pid);
  for (const pid of otherPids) taskset(others, pid);
  // A backend PostgreSQL starts later is forked by its server process and inherits the server's cores.
  for (const name of serverNames) for (const pid of pidsNamed(name)) taskset(others, pid);
  return {
    measured,
    others,
    release() {
      for (const name of serverNames) for (const pid of pidsNamed(name)) taskset(`0-${count - 1}`, pid);
    },
  };
}

/**
 * A results section of a tool that runs pinned or not: the pinned run writes a section of its own beside
 * the unpinned one, titled and explained as such. `servers` names what shared the other cores, `server` the
 * service a deployment would run on a host of its own.
 */
export function pinnedVariant(section: string, tool: string, pinned: boolean, servers: string, server: string): { section: string; title: string; note: string[] } {
  if (!pinned) return { section, title: ` (\`${tool}\`)`, note: [] };
  return {
    section: `${section}-pinned`,
    title: `, the gateway on a core of its own (\`${tool} --pin\`)`,
    note: [`Pinned (\`--pin\`): the gateways and the pass-through on the last core, the load generator, the simulator and ${servers} on the other, as with ${server} on a host of its own.`],
  };
}

/** The cores a process may run on, as the kernel reports them. */
export function allowedCpus(pid: number): string {
  return /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 'unknown';
}
