// `model-gateway serve --workers 2`: two worker processes share one port, /metrics answers the sum
// of both whichever worker is asked, a dead worker is replaced, SIGTERM drains and ends them all.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { get } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import t from 'tap';
import type { Test } from 'tap';
import { waitFor } from '../../helpers/wait.js';

const MAIN = join(import.meta.dirname, '../../../src/main.ts');
const tsLoader = process.execArgv.filter((arg) => arg.includes('@tapjs/typescript'));

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

function startCluster(t: Test): { child: ChildProcess; listening: Listening[]; exited: Promise<number | null> } {
  const dir = t.testdir();
  const child = spawn(process.execPath, [...tsLoader, MAIN, 'serve', '--workers', '2'], {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: `file:${join(dir, 'gateway.db')}`,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      GATEWAY_ADMIN_TOKEN: 'mgwadm_cluster_test_token_0123456789',
      GATEWAY_SHUTDOWN_GRACE_MS: '2000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const listening: Listening[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (!line.includes('model-gateway listening')) return;
    const entry = JSON.parse(line) as { pid: number; port: number };
    listening.push({ pid: entry.pid, port: entry.port });
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return { child, listening, exited };
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
