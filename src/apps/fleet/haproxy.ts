// HAProxy, Debian's package, run in the foreground on a generated configuration; asked through its
// stats socket which instances it currently sends traffic to.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { haproxyConfig, type HaproxySettings } from './haproxy-config.js';

export const HAPROXY_MISSING = 'haproxy is not installed: `apt-get install haproxy` (Debian/Ubuntu) puts it on the PATH';

/** One server's line of `show stat`: HAProxy's own words ("UP", "DOWN", "UP 1/2" while going down, "MAINT"). */
export interface ServerStat {
  readonly name: string;
  readonly status: string;
  /** Sessions it has been given since HAProxy started. */
  readonly sessions: number;
  /** Connections to it that failed (refused: nothing listening), each retried elsewhere. */
  readonly connectionErrors: number;
  /** Requests retried after such a failure. */
  readonly retries: number;
}

export interface RunningHaproxy {
  readonly url: string;
  readonly configPath: string;
  servers(): Promise<ServerStat[]>;
  /** Resolves once HAProxy reports the server in this state (exactly: "UP" or "DOWN"); the time it took. */
  waitFor(server: string, status: 'UP' | 'DOWN', timeoutMs: number): Promise<number>;
  /** Its stderr so far (configuration warnings, alerts). */
  output(): string;
  stop(): Promise<void>;
}

/** Throws the install hint when there is no haproxy binary on the PATH. */
export function requireHaproxy(): void {
  const probe = spawnSync('haproxy', ['-v'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0) throw new Error(HAPROXY_MISSING);
}

export async function startHaproxy(dir: string, settings: HaproxySettings): Promise<RunningHaproxy> {
  requireHaproxy();
  const configPath = join(dir, 'haproxy.cfg');
  writeFileSync(configPath, haproxyConfig(settings), { mode: 0o600 });
  const checked = spawnSync('haproxy', ['-c', '-q', '-f', configPath], { encoding: 'utf8' });
  if (checked.status !== 0) throw new Error(`haproxy refused the generated ${configPath}:\n${checked.stderr}${checked.stdout}`);

  // -db: in the foreground, its life tied to this process's handle on it.
  const child = spawn('haproxy', ['-db', '-f', configPath], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let stderr = '';
  createInterface({ input: child.stderr! }).on('line', (line) => {
    stderr = `${stderr}${line}\n`.slice(-16 * 1024);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const running = new Haproxy(child, exited, configPath, settings, () => stderr);
  try {
    await running.untilListening(10_000);
  } catch (err) {
    await running.stop();
    throw err;
  }
  return running;
}

class Haproxy implements RunningHaproxy {
  readonly url: string;

  constructor(
    private readonly child: ChildProcess,
    private readonly exited: Promise<number | null>,
    readonly configPath: string,
    private readonly settings: HaproxySettings,
    readonly output: () => string,
  ) {
    const host = settings.bindHost.includes(':') ? `[${settings.bindHost}]` : settings.bindHost;
    this.url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${settings.bindPort}`;
  }

  async untilListening(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`haproxy exited (code ${this.child.exitCode}):\n${this.output()}`);
      try {
        await this.servers();
        return;
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`haproxy did not open its stats socket within ${timeoutMs} ms (${(err as Error).message}):\n${this.output()}`);
        await sleep(50);
      }
    }
  }

  async servers(): Promise<ServerStat[]> {
    return parseServerStats(await askSocket(this.settings.statsSocket, 'show stat -1 4 -1\n'));
  }

  async waitFor(server: string, status: 'UP' | 'DOWN', timeoutMs: number): Promise<number> {
    const started = performance.now();
    let last = '?';
    for (;;) {
      last = (await this.servers()).find((s) => s.name === server)?.status ?? 'absent';
      if (last === status) return performance.now() - started;
      if (performance.now() - started > timeoutMs) throw new Error(`haproxy still reports ${server} ${last} after ${timeoutMs} ms (waiting for ${status})`);
      await sleep(25);
    }
  }

  async stop(): Promise<void> {
    // SIGUSR1 is HAProxy's soft stop: listeners close, sessions under way finish; the instances
    // have drained by now, so there are none left to wait for.
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGUSR1');
    const hard = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await this.exited;
    clearTimeout(hard);
  }
}

function askSocket(path: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    let answer = '';
    socket.setEncoding('utf8');
    socket.setTimeout(2000, () => socket.destroy(new Error('no answer on the stats socket')));
    socket.on('connect', () => socket.write(command));
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

/** `show stat` is CSV with a "# pxname,svname,..." header; only the servers' rows are kept. */
export function parseServerStats(csv: string): ServerStat[] {
  const [header, ...rows] = csv.split('\n').filter((line) => line.trim() !== '');
  if (header === undefined || !header.startsWith('# ')) throw new Error('unexpected answer to show stat');
  const columns = header.slice(2).split(',');
  const col = (name: string) => {
    const i = columns.indexOf(name);
    if (i === -1) throw new Error(`show stat has no ${name} column`);
    return i;
  };
  const [type, svname, status, stot, econ, wretr] = [col('type'), col('svname'), col('status'), col('stot'), col('econ'), col('wretr')];
  return rows
    .map((row) => row.split(','))
    .filter((f) => f[type] === '2')
    .map((f) => ({ name: f[svname], status: f[status], sessions: Number(f[stot]), connectionErrors: Number(f[econ] || 0), retries: Number(f[wretr] || 0) }));
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
