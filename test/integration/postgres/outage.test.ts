// PostgreSQL cut off from a gateway while it takes traffic: a relay in front of the server drops every byte
// both ways (a partition: connections stay open, nothing answers). Keys the instance knows keep working; a
// key created meanwhile (straight in the database, past the relay) gets 503 with retry-after on both
// surfaces, not 401; /readyz stays 200 and says the database is down; the admin API answers 503; usage goes
// to the spill file and reaches the tables exactly once when the relay lets traffic through again; no
// request waits longer than the database timeout.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { generateKey } from '../../../src/keys/key-format.js';
import { PostgresKeyStore } from '../../../src/stores/postgres/postgres-key-store.js';
import { CuttableRelay } from '../../helpers/cuttable-relay.js';
import { ADMIN_TOKEN, startHarness } from '../../helpers/harness.js';
import { bearer, call, type RawResponse } from '../../helpers/http.js';
import { createTestDatabase, testPool } from '../../helpers/postgres.js';
import { waitFor } from '../../helpers/wait.js';

const DB_TIMEOUT_MS = 800;
/** What a request may wait beyond the database timeout: the gateway's own work and a loaded test host. */
const SLACK_MS = 700;

const url = await createTestDatabase(t);
const server = new URL(url);
const relay = new CuttableRelay(server.hostname, Number(server.port || 5432));
const relayPort = await relay.listen();
t.teardown(() => relay.close());
const throughRelay = new URL(url);
throughRelay.port = String(relayPort);

const dataDir = mkdtempSync(join(tmpdir(), 'mgw-outage-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
const h = await startHarness({
  env: {
    DATABASE_URL: throughRelay.toString(),
    GATEWAY_DATA_DIR: dataDir,
    GATEWAY_DB_TIMEOUT_MS: String(DB_TIMEOUT_MS),
    GATEWAY_KEY_REFRESH_MS: '200',
    GATEWAY_USAGE_SPILL_AFTER_MS: '300',
  },
});
t.teardown(() => h.close());
// Past the relay: what another instance, or an operator, does while this one is cut off.
const direct = testPool(t, url);

const messagesBody = JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
const chatBody = JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });

interface Timed extends RawResponse {
  ms: number;
}

async function timed(path: string, headers: Record<string, string>, body?: string): Promise<Timed> {
  const started = performance.now();
  const res = await call(`${h.url}${path}`, { headers, body });
  return { ...res, ms: performance.now() - started };
}

const messages = (key: string) => timed('/gateway/v1/messages', bearer(key), messagesBody);
const chat = (key: string) => timed('/gateway/openai/v1/chat/completions', bearer(key), chatBody);

async function metricValue(line: RegExp): Promise<number | null> {
  const { body } = await h.runtime.metrics.render();
  const match = line.exec(body);
  return match === null ? null : Number(match[1]);
}

const known = await h.createKey();
const served: string[] = [];
const slowest: number[] = [];
const serve = async (test: Pick<typeof t, 'equal'>, res: Timed, what: string) => {
  test.equal(res.status, 200, what);
  served.push(String(res.headers['x-request-id']));
  slowest.push(res.ms);
};
await serve(t, await messages(known.key), 'served before the cut');

relay.drop();
const cutAt = Date.now();

t.test('known keys are served from memory throughout the cut, on both surfaces', async (t) => {
  for (let i = 0; i < 5; i++) {
    await serve(t, await messages(known.key), `messages request ${i} during the cut`);
    await serve(t, await chat(known.key), `chat request ${i} during the cut`);
  }
  t.ok(Math.max(...slowest) < SLACK_MS, `no known-key request waited on the database (slowest ${Math.round(Math.max(...slowest))} ms)`);
});

t.test('a key the instance cannot verify gets 503 with retry-after in each surface\'s format, never 401', async (t) => {
  const created = await new PostgresKeyStore(direct).createKey({ customerName: 'acme', name: 'made during the cut', expiresAt: null, allowedModels: null, rpm: null, tpm: null });
  const m = await messages(created.key);
  t.equal(m.status, 503, 'messages: 503');
  t.ok(Number(m.headers['retry-after']) > 0, 'messages: retry-after');
  t.equal(m.json().error.type, 'overloaded_error');
  t.ok(m.ms < DB_TIMEOUT_MS + SLACK_MS, `messages: answered within the database timeout (${Math.round(m.ms)} ms)`);
  const c = await chat(created.key);
  t.equal(c.status, 503, 'chat: 503');
  t.ok(Number(c.headers['retry-after']) > 0, 'chat: retry-after');
  t.equal(c.json().error.code, 'server_overloaded');
  t.ok(c.ms < DB_TIMEOUT_MS + SLACK_MS, `chat: answered within the database timeout (${Math.round(c.ms)} ms)`);
  t.notMatch(m.text + c.text, created.key, 'the key is not echoed');
});

t.test('/readyz stays 200 and reports the database down', async (t) => {
  const res = await timed('/readyz', {});
  t.equal(res.status, 200);
  t.equal(res.json().database, 'unreachable');
  t.ok(res.ms < DB_TIMEOUT_MS + SLACK_MS, `answered in ${Math.round(res.ms)} ms`);
});

t.test('the admin API answers 503 with a JSON error', async (t) => {
  const res = await timed('/admin/api/customers', { authorization: `Bearer ${ADMIN_TOKEN}` });
  t.equal(res.status, 503);
  t.equal(res.json().error.code, 'server_overloaded');
  t.ok(Number(res.headers['retry-after']) > 0, 'retry-after');
  t.ok(res.ms < 2 * DB_TIMEOUT_MS + 1000 + SLACK_MS, `answered within the pool's deadlines (${Math.round(res.ms)} ms)`);
});

t.test('usage goes to the spill file; the metrics say the database is down', async (t) => {
  await waitFor(() => h.runtime.usage.spilledPending > 0, 15_000);
  t.ok(readdirSync(dataDir).some((n) => n.startsWith('usage-spill-')), 'a spill file in the data directory');
  t.equal(await metricValue(/^model_gateway_shared_store_up\{store="postgres"\} (\d+)$/m), 0, 'shared_store_up{store="postgres"} 0');
  t.ok((await metricValue(/^model_gateway_usage_spilled_rows (\d+)$/m))! > 0, 'spilled rows counted');
  t.ok((await metricValue(/^model_gateway_db_call_errors_total\{kind="unavailable"\} (\d+)$/m))! > 0, 'unavailable calls counted');
  t.ok(Date.now() - cutAt < 25_000, 'the cut stayed short');
});

t.test('once the relay lets traffic through, the outage\'s usage is in the tables exactly once', async (t) => {
  relay.restore();
  const stored = async () => (await direct.query<{ request_id: string; n: number }>('SELECT request_id, count(*)::int AS n FROM usage_records GROUP BY 1')).rows;
  const missing = async () => {
    const ids = new Set((await stored()).map((r) => r.request_id));
    return served.filter((id) => !ids.has(id));
  };
  await waitFor(async () => h.runtime.usage.spilledPending === 0 && h.runtime.usage.pending === 0 && (await missing()).length === 0, 20_000, 100).catch(() => {});
  t.same(await missing(), [], 'every served request is recorded');
  const rows = await stored();
  t.same(rows.filter((r) => r.n !== 1), [], 'none twice');
  const { rows: daily } = await direct.query<{ n: number }>('SELECT coalesce(sum(requests), 0)::int AS n FROM usage_daily');
  t.equal(daily[0].n, rows.length, 'the rollup counts each request once');
  t.same(readdirSync(dataDir).filter((n) => n.startsWith('usage-spill-')), [], 'the spill file is gone');
  await waitFor(async () => (await metricValue(/^model_gateway_shared_store_up\{store="postgres"\} (\d+)$/m)) === 1, 5000);
  t.pass('shared_store_up{store="postgres"} back to 1');
});

t.test('after the outage a new key works and an unknown one is 401 again', async (t) => {
  const created = await new PostgresKeyStore(direct).createKey({ customerName: 'acme', name: 'made after', expiresAt: null, allowedModels: null, rpm: null, tpm: null });
  t.equal((await messages(created.key)).status, 200);
  t.equal((await messages(generateKey().key)).status, 401, 'the store answered: no such key');
});
