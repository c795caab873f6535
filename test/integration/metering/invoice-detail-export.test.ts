// End to end, what an invoice prices apart: a provider whose usage reports 1-hour prompt-cache writes
// (`cache_creation.ephemeral_1h_input_tokens`) and web searches (`server_tool_use.web_search_requests`),
// a whole answer and a stream through a real gateway, then `model-gateway usage --format csv` on the
// gateway's database: the export carries `cache_write_1h_tokens` and `web_searches` per row, and the
// cost is the tokens and searches at the models file's prices, the 1-hour writes at their own price.
import type { ServerResponse } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { formatUsd } from '../../../src/metering/cost.js';
import { startHarness, UPSTREAM_KEY } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';
import { startServer } from '../../helpers/http-server.js';
import { waitFor } from '../../helpers/wait.js';
import { cliOn } from '../cli/fixtures/cli.js';

const MODEL = 'claude-sonnet-4-6';
// Prices with odd digits (USD per million tokens; web searches per 1,000), so a count priced at another
// kind's price shows. In nano-dollars per token (per search) below.
const PRICES_FILE = { input: '3.001', output: '15.007', cacheWrite: '3.753', cacheRead: '0.307', cacheWrite1h: '6.011', webSearch: '10.003' };
const NANO = { input: 3001, output: 15007, cacheWrite: 3753, cacheRead: 307, cacheWrite1h: 6011, webSearch: 10_003_000 };

interface Counts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cacheWrite1h: number;
  searches: number;
}

const WHOLE: Counts = { input: 100, output: 50, cacheRead: 200, cacheWrite: 3000, cacheWrite1h: 2000, searches: 3 };
const STREAMED: Counts = { input: 10, output: 20, cacheRead: 0, cacheWrite: 500, cacheWrite1h: 500, searches: 2 };

/** The counts as the provider writes its `usage` object. */
function providerUsage(c: Counts) {
  return {
    input_tokens: c.input,
    cache_creation_input_tokens: c.cacheWrite,
    cache_read_input_tokens: c.cacheRead,
    cache_creation: { ephemeral_5m_input_tokens: c.cacheWrite - c.cacheWrite1h, ephemeral_1h_input_tokens: c.cacheWrite1h },
    output_tokens: c.output,
    server_tool_use: { web_search_requests: c.searches },
  };
}

/** The cost by the price list, computed here: 5-minute writes are the cache writes less the 1-hour ones. */
function costOf(c: Counts): bigint {
  return (
    BigInt(c.input * NANO.input) +
    BigInt(c.output * NANO.output) +
    BigInt((c.cacheWrite - c.cacheWrite1h) * NANO.cacheWrite) +
    BigInt(c.cacheWrite1h * NANO.cacheWrite1h) +
    BigInt(c.cacheRead * NANO.cacheRead) +
    BigInt(c.searches * NANO.webSearch)
  );
}

function event(res: ServerResponse, payload: Record<string, unknown>): void {
  res.write(`event: ${String(payload.type)}\ndata: ${JSON.stringify(payload)}\n\n`);
}

const message = (usage: unknown) => ({ id: 'msg_1', type: 'message', role: 'assistant', model: MODEL, content: [], stop_reason: null, stop_sequence: null, usage });

t.test('the CSV export carries 1-hour cache writes and web searches, priced apart', async (t) => {
  const upstream = await startServer(t, async (req, res) => {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    if (req.url !== '/v1/messages') return void res.writeHead(404).end();
    if (JSON.parse(body).stream !== true) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ ...message(providerUsage(WHOLE)), content: [{ type: 'text', text: 'Found it.' }], stop_reason: 'end_turn' }));
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    // message_start: the input counts and a first output token; message_delta's counts are cumulative,
    // and the searches arrive there with the final output count.
    event(res, { type: 'message_start', message: message(providerUsage({ ...STREAMED, output: 1, searches: 0 })) });
    event(res, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    event(res, { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Found it.' } });
    event(res, { type: 'content_block_stop', index: 0 });
    event(res, { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: STREAMED.output, server_tool_use: { web_search_requests: STREAMED.searches } } });
    event(res, { type: 'message_stop' });
    res.end();
  });
  const modelsFile = join(t.testdir(), 'models.json');
  writeFileSync(modelsFile, JSON.stringify({ models: [{ id: MODEL, prices: PRICES_FILE }] }));
  const h = await startHarness({ env: { ANTHROPIC_BASE_URL: upstream.url, ANTHROPIC_API_KEY: UPSTREAM_KEY, GATEWAY_MODELS_FILE: modelsFile } });
  t.teardown(() => h.close());

  const whole = await h.createKey({ customer: 'whole-answers' });
  const streamed = await h.createKey({ customer: 'streamed-answers' });
  const ask = (key: string, stream: boolean) =>
    call(`${h.url}/gateway/v1/messages`, { headers: bearer(key), body: JSON.stringify({ model: MODEL, max_tokens: 64, stream, messages: [{ role: 'user', content: 'search the web' }] }) });
  t.equal((await ask(whole.key, false)).status, 200);
  const stream = await ask(streamed.key, true);
  t.equal(stream.status, 200);
  t.match(stream.text, /message_stop/, 'the stream ran to its end');
  await waitFor(async () => (await h.built.stores.usage.totals()).requests === 2, 10_000);

  const cli = cliOn(`file:${join(h.dataDir, 'gateway.db')}`);
  const run = await cli('usage', '--format', 'csv');
  t.equal(run.code, 0, run.stderr);
  const [header, ...lines] = run.stdout.trimEnd().split('\r\n');
  const columns = header.split(',');
  const rowOf = (customer: string): Record<string, string> => {
    const line = lines.find((l) => l.split(',')[columns.indexOf('customer')] === customer);
    if (line === undefined) throw new Error(`no row for ${customer} in:\n${run.stdout}`);
    const cells = line.split(',');
    return Object.fromEntries(columns.map((c, i) => [c, cells[i]]));
  };

  t.match(rowOf('whole-answers'), {
    model: MODEL,
    requests: '1',
    input_tokens: '100',
    output_tokens: '50',
    cache_read_tokens: '200',
    cache_write_tokens: '3000',
    cache_write_1h_tokens: '2000',
    web_searches: '3',
    cost_usd: formatUsd(costOf(WHOLE)),
  });
  t.equal(formatUsd(costOf(WHOLE)), '0.04689585', 'the sum written out: $0.04689585');

  t.match(rowOf('streamed-answers'), {
    output_tokens: '20',
    cache_write_tokens: '500',
    cache_write_1h_tokens: '500',
    web_searches: '2',
    cost_usd: formatUsd(costOf(STREAMED)),
  });
  // Were the 1-hour writes priced as 5-minute ones, or the searches left out, the cost would be another.
  const flat = costOf({ ...STREAMED, cacheWrite1h: 0, searches: 0 });
  t.not(rowOf('streamed-answers').cost_usd, formatUsd(flat), 'the 1-hour writes and the searches are in the cost');
});
