// The cost of every metered request from real traffic: the reported tokens at the served model's
// prices (set in a models file), streamed, cancelled, fallen back and unpriced requests included,
// stored with the record, summed in the rollup and counted in Prometheus.
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { startHarness, type Harness } from '../../helpers/harness.js';
import { bearer, call, cancelMidStream } from '../../helpers/http.js';
import { waitFor } from '../../helpers/wait.js';

interface Row {
  request_id: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  cost_nano_usd: number;
  outcome: string;
}

// Prices with odd digits, so a cost computed from the wrong kind or the wrong model shows.
const SONNET = { input: 3000, output: 15001, cacheWrite: 3753, cacheRead: 307 };
const OPUS = { input: 5000, output: 25000, cacheWrite: 6250, cacheRead: 500 };
const costOf = (r: Row, p: typeof SONNET) =>
  r.input_tokens * p.input + r.output_tokens * p.output + r.cache_write_tokens * p.cacheWrite + r.cache_read_tokens * p.cacheRead;

async function pricedHarness(t: Test, env: Record<string, string> = {}, simulator = {}): Promise<Harness> {
  const modelsFile = join(t.testdir(), 'models.json');
  writeFileSync(
    modelsFile,
    JSON.stringify({
      models: [
        { id: 'claude-sonnet-4-6', prices: { input: '3', output: '15.001', cacheWrite: '3.753', cacheRead: '0.307' } },
        { id: 'claude-haiku-4-5-20251001', prices: null },
      ],
    }),
  );
  const h = await startHarness({ env: { GATEWAY_MODELS_FILE: modelsFile, ...env }, simulator });
  t.teardown(() => h.close());
  return h;
}

const rowsOf = (h: Harness): Row[] => {
  const db = new Database(join(h.dataDir, 'gateway.db'), { readonly: true });
  try {
    return db.prepare('SELECT * FROM usage_records ORDER BY id').all() as Row[];
  } finally {
    db.close();
  }
};

const metric = async (h: Harness, name: string, labels: string): Promise<number | null> => {
  const { body } = await h.runtime.metrics.render();
  const line = body.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line === undefined ? null : Number(line.slice(line.lastIndexOf(' ') + 1));
};

t.test('priced, streamed, fallen-back and unpriced requests each carry their exact cost', async (t) => {
  const h = await pricedHarness(t, { GATEWAY_RETRY_ATTEMPTS: '2', GATEWAY_RETRY_BASE_DELAY_MS: '1' });
  const { key } = await h.createKey({ customer: 'acme' });
  const messages = [{ role: 'user', content: [{ type: 'text', text: 'price my tokens', cache_control: { type: 'ephemeral' } }] }];
  const body = (model: string, stream: boolean) => JSON.stringify({ model, max_tokens: 64, stream, messages });
  for (const stream of [false, true]) t.equal((await call(`${h.url}/gateway/v1/messages`, { body: body('claude-sonnet-4-6', stream), headers: bearer(key) })).status, 200);
  const chat = JSON.stringify({ model: 'claude-sonnet-4-6', stream: true, messages: [{ role: 'user', content: 'and mine' }] });
  t.equal((await call(`${h.url}/gateway/openai/v1/chat/completions`, { body: chat, headers: bearer(key) })).status, 200);
  // Opus overloaded twice: Sonnet answers, and its prices apply.
  h.simulator.injectFault({ kind: 'status', status: 529, errorType: 'overloaded_error', retryAfter: 0 }, 2);
  const fallen = await call(`${h.url}/gateway/v1/messages`, { body: body('claude-opus-4-7', false), headers: bearer(key) });
  t.equal(fallen.headers['x-gateway-model'], 'claude-sonnet-4-6');
  t.equal((await call(`${h.url}/gateway/v1/messages`, { body: body('claude-opus-4-7', false), headers: bearer(key) })).status, 200);
  t.equal((await call(`${h.url}/gateway/v1/messages`, { body: body('claude-haiku-4-5', false), headers: bearer(key) })).status, 200);

  await waitFor(() => rowsOf(h).length === 6, 90_000);
  const rows = rowsOf(h);
  const [plain, streamed, chatRow, fallback, opus, haiku] = rows as [Row, Row, Row, Row, Row, Row];
  t.ok(plain.cache_write_tokens + plain.cache_read_tokens > 0 && plain.output_tokens > 0, 'every kind of token is in play');
  for (const r of [plain, streamed, chatRow, fallback]) t.equal(r.cost_nano_usd, costOf(r, SONNET), `${r.model} ${r.request_id}`);
  t.equal(fallback.model, 'claude-sonnet-4-6');
  t.equal(opus.cost_nano_usd, costOf(opus, OPUS), 'the default list prices where the file sets none');
  t.ok(haiku.input_tokens > 0);
  t.equal(haiku.cost_nano_usd, 0, 'a model priced null costs zero');

  const totals = await h.built.stores.usage.totals();
  t.equal(totals.costNanoUsd, BigInt(rows.reduce((n, r) => n + r.cost_nano_usd, 0)), 'the rollup sums the records');

  const sonnetMicro = [plain, streamed, chatRow, fallback].reduce((n, r) => n + r.cost_nano_usd, 0) / 1000;
  // A Prometheus sample is a double: the sum of increments may be off in its last bits.
  t.ok(Math.abs((await metric(h, 'model_gateway_spend_microdollars_total', 'model="claude-sonnet-4-6",customer="acme"'))! - sonnetMicro) < 1e-6);
  t.equal(await metric(h, 'model_gateway_spend_microdollars_total', 'model="claude-opus-4-7",customer="acme"'), opus.cost_nano_usd / 1000);
  t.equal(await metric(h, 'model_gateway_unpriced_requests_total', 'model="claude-haiku-4-5-20251001"'), 1);
  t.equal(await metric(h, 'model_gateway_spend_microdollars_total', 'model="claude-haiku-4-5-20251001",customer="acme"'), null);
});

t.test('a cancelled stream is charged for the tokens reported before it ended', async (t) => {
  const h = await pricedHarness(t, {}, { replyTokens: 50000, tokensPerSecond: 400 });
  const { key } = await h.createKey();
  await cancelMidStream(`${h.url}/gateway/v1/messages`, key, { model: 'claude-sonnet-4-6', max_tokens: 60000, stream: true, messages: [{ role: 'user', content: 'go on and on' }] });
  await waitFor(() => rowsOf(h).length === 1, 90_000);
  const [row] = rowsOf(h) as [Row];
  t.equal(row.outcome, 'client_cancelled');
  t.ok(row.cost_nano_usd > 0);
  t.equal(row.cost_nano_usd, costOf(row, SONNET));
});
