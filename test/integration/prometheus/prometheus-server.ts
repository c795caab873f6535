// Runs a real Prometheus (Debian's `prometheus` package) against one scrape target, with a temp
// config and storage, on a free loopback port; answers instant queries through its HTTP API.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** The prometheus binary, or null when it is not installed. */
export function findPrometheus(): string | null {
  const dirs = ['/usr/bin', ...(process.env.PATH ?? '').split(delimiter)];
  for (const dir of dirs) {
    const candidate = join(dir, 'prometheus');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export interface QueryResult {
  status: string;
  error?: string;
  data?: { resultType: string; result: unknown[] | [number, string] };
}

export interface PrometheusServer {
  readonly url: string;
  query(expr: string): Promise<QueryResult>;
  labelValues(label: string, match: string): Promise<string[]>;
  /** Timestamp (s) of the target's latest scrape, or null before the first. */
  lastScrape(): Promise<number | null>;
  /** Resolves once `count` further scrapes have happened. */
  waitForScrapes(count: number, timeoutMs?: number): Promise<void>;
  /** What Prometheus logged, for failure messages. */
  log(): string;
  stop(): Promise<void>;
}

const JOB = 'model-gateway';

export interface ScrapeOptions {
  /** Sent as `Authorization: Bearer <token>` through the scrape config's `authorization` block. */
  bearerToken?: string;
  /** More command-line flags, e.g. `--enable-feature=exemplar-storage`. */
  flags?: string[];
}

export async function startPrometheus(binary: string, target: URL, options: ScrapeOptions = {}): Promise<PrometheusServer> {
  const dir = mkdtempSync(join(tmpdir(), 'mgw-prometheus-'));
  const config = join(dir, 'prometheus.yml');
  writeFileSync(
    config,
    [
      'global:',
      '  scrape_interval: 1s',
      '  scrape_timeout: 1s',
      '  evaluation_interval: 1s',
      'scrape_configs:',
      `  - job_name: ${JOB}`,
      `    metrics_path: ${target.pathname}`,
      ...(options.bearerToken === undefined ? [] : ['    authorization:', '      type: Bearer', `      credentials: '${options.bearerToken}'`]),
      '    static_configs:',
      `      - targets: ['${target.host}']`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    binary,
    [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn', ...(options.flags ?? [])],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const api = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${url}${path}`);
    return (await res.json()) as T;
  };
  const server: PrometheusServer = {
    url,
    query: (expr) => api<QueryResult>(`/api/v1/query?query=${encodeURIComponent(expr)}`),
    labelValues: async (label, match) =>
      (await api<{ data: string[] }>(`/api/v1/label/${label}/values?match[]=${encodeURIComponent(match)}`)).data,
    lastScrape: async () => {
      // timestamp() of a plain selector is the sample's own time (after an operator it would be "now").
      const r = await server.query(`timestamp(up{job="${JOB}"})`);
      const first = (r.data?.result as { value: [number, string] }[] | undefined)?.[0];
      return first === undefined ? null : Number(first.value[1]);
    },
    waitForScrapes: async (count, timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      let last = await server.lastScrape();
      let seen = 0;
      while (seen < count) {
        if (Date.now() > deadline) throw new Error(`fewer than ${count} scrapes in ${timeoutMs} ms\n${output}`);
        await sleep(200);
        const now = await server.lastScrape();
        if (now !== null && now !== last) {
          seen++;
          last = now;
        }
      }
    },
    log: () => output,
    stop: async () => {
      stopChild(child);
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await waitReady(url, child, () => output);
  } catch (err) {
    await server.stop();
    throw err;
  }
  return server;
}

function stopChild(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
}

async function waitReady(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`prometheus exited with ${child.exitCode}\n${log()}`);
    try {
      if ((await fetch(`${url}/-/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`prometheus not ready within 30 s\n${log()}`);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
