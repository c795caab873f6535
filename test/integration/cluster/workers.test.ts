// `model-gateway serve --workers 2`: two worker processes share one port, /metrics answers the sum
// of both whichever worker is asked, a dead worker is replaced, SIGTERM drains and ends them all, and
// rate limits and the failed-authentication throttle count for the cluster as a whole.
import type { ChildProcess } from 'node:child_process';
import { get, request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import t from 'tap';
import type { Test } from 'tap';
import { waitFor } from '../../helpers/wait.js';
import { GATEWAY_MAIN, spawnNode, spawnNodeSync } from '../../helpers/child-node.js';

interface Listening {
  pid: number;
  port: number;
}

/** GET on a fresh connection each time, so the cluster spreads the calls over its workers. */
function fetchFresh(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

function modelsRequestsCounted(metrics: string): number {
  let total = 0;
  for (const line of metrics.split('\n')) {
    if (line.startsWith('model_gateway_requests_total{') && line.includes('surface="models"')) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

interface AccessLine {
  pid: number;
  path: string;
  status: number;
}

function clusterEnv(dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    DATABASE_URL: `file:${join(dir, 'gateway.db')}`,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    GATEWAY_ADMIN_TOKEN: 'mgwadm_cluster_test_token_0123456789',
    GATEWAY_SHUTDOWN_GRACE_MS: '2000',
    ...extra,
  };
}

function startCluster(
  t: Test,
  dir = t.testdir(),
  extraEnv: Record<string, string> = {},
): { child: ChildProcess; listening: Listening[]; access: AccessLine[]; exited: Promise<number | null> } {
  const child = spawnNode(GATEWAY_MAIN, ['serve', '--workers', '2'], {
    env: clusterEnv(dir, extraEnv),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const listening: Listening[] = [];
  const access: AccessLine[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line.includes('"msg":"request"')) access.push(JSON.parse(line) as AccessLine);
    if (!line.includes('model-gateway listening')) return;
    const entry = JSON.parse(line) as { pid: number; port: number };
    listening.push({ pid: entry.pid, port: entry.port });
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return { child, listening, access, exited };
}

/** POST on a fresh connection each time, so the cluster spreads the calls over its workers. */
function postFresh(port: number, path: string, headers: Record<string, string>, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', agent: false, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

t.test('two workers, one port, one set of metrics, replaced when dead, drained on SIGTERM', async (t) => {
  const { child, listening, exited } = startCluster(t);
  await waitFor(() => listening.length >= 2, 60_000);
  const [a, b] = listening;
  t.not(a!.pid, b!.pid, 'two worker processes');
  t.equal(a!.port, b!.port, 'sharing one port');
  const port = a!.port;

  const calls = 8;
  for (let i = 0; i < calls; i++) t.equal((await fetchFresh(port, '/gateway/openai/v1/models')).status, 401);
  for (let i = 0; i < 4; i++) {
    const scrape = await fetchFresh(port, '/metrics');
    t.equal(scrape.status, 200);
    t.equal(modelsRequestsCounted(scrape.body), calls, `scrape ${i + 1}: every worker's requests are counted`);
  }

  process.kill(a!.pid, 'SIGKILL');
  await waitFor(() => listening.length >= 3, 60_000);
  t.not(listening[2]!.pid, a!.pid, 'a new worker replaces the killed one');
  t.equal((await fetchFresh(port, '/healthz')).status, 200);

  child.kill('SIGTERM');
  t.equal(await exited, 0, 'the primary exits 0 once its workers have drained');
});

t.test('a key limit and the failed-authentication throttle hold for the cluster, not per worker', async (t) => {
  const dir = t.testdir();
  const created = spawnNodeSync(GATEWAY_MAIN, ['keys', 'create', '--customer', 'acme', '--rpm', '4'], { env: clusterEnv(dir), encoding: 'utf8' });
  t.equal(created.status, 0, created.stderr);
  const key = created.stdout.trim();
  const { child, listening, access, exited } = startCluster(t, dir, { GATEWAY_AUTH_FAILURES_PER_MINUTE: '3' });
  await waitFor(() => listening.length >= 2, 60_000);
  const port = listening[0]!.port;
  const ask = (apiKey: string) =>
    postFresh(port, '/gateway/v1/messages', { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' }, { model: 'claude-sonnet-4-6', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });

  const statuses: number[] = [];
  for (let i = 0; i < 8; i++) statuses.push(await ask(key));
  t.same(statuses, [200, 200, 200, 200, 429, 429, 429, 429], 'four requests a minute for the key across both workers');
  await waitFor(() => access.filter((l) => l.path.includes('/gateway/v1/messages')).length >= 8, 10_000);
  const pids = new Set(access.filter((l) => l.path.includes('/gateway/v1/messages')).map((l) => l.pid));
  t.equal(pids.size, 2, 'both workers served some of them');

  const wrong = `${key.slice(0, -4)}AAAA`;
  const failures: number[] = [];
  for (let i = 0; i < 3; i++) failures.push(await ask(wrong));
  t.same(failures, [401, 401, 401]);
  // The copies of each failure reach the other worker through the primary.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const throttled: number[] = [];
  for (let i = 0; i < 4; i++) throttled.push(await ask(wrong));
  t.same(throttled, [429, 429, 429, 429], 'three failures in all: this address waits, whichever worker it reaches');
  const failedPids = new Set(access.filter((l) => l.path.includes('/gateway/v1/messages') && (l.status === 401 || l.status === 429)).map((l) => l.pid));
  t.equal(failedPids.size, 2, 'both workers saw failed or throttled requests');

  child.kill('SIGTERM');
  t.equal(await exited, 0);
});
