// The Responses surface as the other surfaces are: bad input refused before the upstream in the chat
// error shape, keys only as Bearer, the key's limits (chat-style headers, max_output_tokens reserved)
// and budget, usage rows with surface `responses` (same tokens streamed or not), metrics labels,
// strict mode, the warnings header, a failure mid-stream as response.failed.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import t from 'tap';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';
import { waitFor } from '../../helpers/wait.js';

const PATH = '/gateway/openai/v1/responses';
const MODEL = 'claude-sonnet-4-6';

t.test('Responses surface', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const post = (body: unknown, headers: Record<string, string> = {}) => call(`${h.url}${PATH}`, { body: JSON.stringify(body), headers: bearer(key, headers) });

  t.test('malformed items and tools: 400 in the chat shape naming the param; nothing reaches the upstream', async (t) => {
    const before = h.simulator.received.length;
    const cases: Array<[unknown, string, string]> = [
      [{ model: MODEL }, 'input', 'invalid_value'],
      [{ model: MODEL, input: [{ type: 'function_call_output', call_id: 'x', output: 'y' }] }, 'input[0].call_id', 'invalid_value'],
      [{ model: MODEL, input: 'x', tools: [{ type: 'function', name: 'has space' }] }, 'tools[0].name', 'invalid_value'],
      [{ model: MODEL, input: 'x', previous_response_id: 'resp_1' }, 'previous_response_id', 'unsupported_parameter'],
      [{ model: MODEL, input: 'x', conversation: 'conv_1' }, 'conversation', 'unsupported_parameter'],
      [{ model: MODEL, input: 'x', stream: 'yes' }, 'stream', 'invalid_value'],
    ];
    for (const [body, param, code] of cases) {
      const res = await post(body);
      t.equal(res.status, 400, param);
      t.match(res.json(), { error: { type: 'invalid_request_error', param, code, message: String } });
    }
    t.equal(h.simulator.received.length, before, 'no request went upstream');
  });

  t.test('keys only as Bearer; unknown model 404', async (t) => {
    const res = await call(`${h.url}${PATH}`, { body: JSON.stringify({ model: MODEL, input: 'x' }), headers: { 'x-api-key': key, 'content-type': 'application/json' } });
    t.equal(res.status, 401);
    t.match(res.json(), { error: { code: 'invalid_api_key' } });
    const missing = await post({ model: 'no-such-model', input: 'x' });
    t.equal(missing.status, 404);
    t.match(missing.json(), { error: { code: 'model_not_found', param: 'model' } });
  });

  t.test('warnings header, strict mode', async (t) => {
    const res = await post({ model: MODEL, input: 'x', store: true, tools: [{ type: 'web_search' }], max_output_tokens: 50 });
    t.equal(res.status, 200);
    t.equal(res.headers['x-gateway-translation-warnings'], 'field_ignored:store, tool_dropped:web_search');
    const strict = await post({ model: MODEL, input: 'x', store: true, max_output_tokens: 50 }, { 'x-gateway-strict': 'true' });
    t.equal(strict.status, 400);
    t.match(strict.json(), { error: { param: 'store', message: /strict mode/ } });
  });

  t.test('a failure after the stream started is a response.failed event', async (t) => {
    h.simulator.injectFault({ kind: 'reset-mid-stream', afterEvents: 4 });
    const res = await post({ model: MODEL, input: 'break please', stream: true, max_output_tokens: 50 });
    t.equal(res.status, 200);
    const blocks = res.text.split('\n\n').filter((b) => b.startsWith('event: '));
    const last = blocks.at(-1)!;
    t.match(last, /^event: response\.failed\n/);
    t.match(JSON.parse(last.split('\n')[1]!.slice(6)), { type: 'response.failed', response: { status: 'failed', error: { code: 'upstream_stream_interrupted' } } });
  });
});

t.test('limits, budget and usage rows of the Responses surface', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key, id } = await h.createKey({ rpm: 100, tpm: 100000, budget: { amountNanoUsd: 5_000_000_000, period: 'month', mode: 'hard' } });
  const body = (stream: boolean) => JSON.stringify({ model: MODEL, stream, max_output_tokens: 300, input: [{ role: 'user', content: [{ type: 'input_text', text: 'count my tokens please' }] }] });
  const plain = await call(`${h.url}${PATH}`, { body: body(false), headers: bearer(key) });
  t.equal(plain.status, 200);
  t.equal(plain.headers['x-ratelimit-limit-requests'], '100', 'chat-style limit headers');
  t.equal(plain.headers['x-ratelimit-limit-tokens'], '100000');
  t.equal(plain.headers['x-ratelimit-remaining-tokens'], String(100000 - 300), 'max_output_tokens reserved');
  t.match(plain.headers['x-gateway-budget-remaining'], /^\d+\.\d+$/);
  const streamed = await call(`${h.url}${PATH}`, { body: body(true), headers: bearer(key) });
  t.equal(streamed.status, 200);
  const dbFile = join(h.dataDir, 'gateway.db');
  const rowsOf = () => {
    const db = new Database(dbFile, { readonly: true });
    try {
      return db.prepare('SELECT * FROM usage_records ORDER BY id').all() as Array<Record<string, number | string>>;
    } finally {
      db.close();
    }
  };
  await waitFor(() => rowsOf().length === 2, 30_000);
  const rows = rowsOf();
  t.same(rows.map((r) => r.surface), ['responses', 'responses']);
  t.ok(rows.every((r) => r.key_id === id && r.status === 200 && r.outcome === 'ok'));
  const tokens = (r: Record<string, number | string>) => [r.input_tokens, r.output_tokens, r.cache_read_tokens, r.cache_write_tokens];
  t.same(tokens(rows[1]!), tokens(rows[0]!), 'same tokens streamed and not');
  const metrics = (await call(`${h.url}/metrics`)).text;
  t.match(metrics, /model_gateway_requests_total\{[^}]*surface="responses"[^}]*\} 2/);
});
