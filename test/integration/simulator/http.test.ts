// The simulator's HTTP surface over real sockets: headers, auth, routing, limits, recording.
import t from 'tap';
import { startSimulator, type Simulator } from '../../../src/apps/simulator/index.js';
import { API_HEADERS, call, open, STREAM_REQUEST, TEXT_REQUEST } from './raw-http.js';

let sim: Simulator;
t.before(async () => {
  sim = await startSimulator({ record: true });
});
t.teardown(() => sim.close());

function errorOf(body: string): { type: string; error: { type: string; message: string }; request_id: string } {
  return JSON.parse(body) as { type: string; error: { type: string; message: string }; request_id: string };
}

t.test('a JSON reply carries request-id, rate-limit headers and content-type', async (t) => {
  const r = await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST);
  t.equal(r.status, 200);
  t.match(r.headers['request-id'], /^req_01[0-9A-Za-z]{22}$/);
  t.equal(r.headers['content-type'], 'application/json');
  t.equal(r.headers['anthropic-ratelimit-requests-limit'], '4000');
  t.equal(r.headers['anthropic-ratelimit-requests-remaining'], '3999');
  t.match(r.headers['anthropic-ratelimit-requests-reset'], /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  t.match(JSON.parse(r.body), { type: 'message', role: 'assistant' });
});

t.test('a stream has the SSE content type and no-cache', async (t) => {
  const r = await call(sim.url, 'POST', '/v1/messages?beta=true', STREAM_REQUEST);
  t.equal(r.status, 200);
  t.equal(r.headers['content-type'], 'text/event-stream; charset=utf-8');
  t.equal(r.headers['cache-control'], 'no-cache');
  t.match(r.headers['request-id'], /^req_/);
  t.match(r.body, /^event: message_start\ndata: \{/);
  t.match(r.body, /event: message_stop\ndata: \{"type":"message_stop"\}\n\n$/);
});

// [name, method, path, body, headers, status, error type, message]
const ERRORS: Array<[string, string, string, unknown, Record<string, string>, number, string, string]> = [
  ['no credential', 'POST', '/v1/messages', TEXT_REQUEST, { 'anthropic-version': '2023-06-01' }, 401, 'authentication_error', 'x-api-key header is required'],
  ['no version header', 'POST', '/v1/messages', TEXT_REQUEST, { 'x-api-key': 'k' }, 400, 'invalid_request_error', 'anthropic-version: header is required'],
  ['a version that is not a date', 'POST', '/v1/messages', TEXT_REQUEST, { 'x-api-key': 'k', 'anthropic-version': 'latest' }, 400, 'invalid_request_error', 'anthropic-version: "latest" is not a valid version'],
  ['body not JSON', 'POST', '/v1/messages', '{"model":', API_HEADERS, 400, 'invalid_request_error', 'There was an error parsing the body: the body is not valid JSON'],
  ['unknown path', 'POST', '/v1/complete', TEXT_REQUEST, API_HEADERS, 404, 'not_found_error', 'Not Found'],
  ['wrong method', 'GET', '/v1/messages', undefined, API_HEADERS, 404, 'not_found_error', 'Not Found'],
  ['chat-completions path', 'POST', '/v1/chat/completions', TEXT_REQUEST, API_HEADERS, 404, 'not_found_error', 'Not Found'],
  ['unknown model', 'GET', '/v1/models/claude-nope', undefined, API_HEADERS, 404, 'not_found_error', 'model: claude-nope'],
  ['invalid request', 'POST', '/v1/messages', { ...TEXT_REQUEST, max_tokens: undefined }, API_HEADERS, 400, 'invalid_request_error', 'max_tokens: Field required'],
];

for (const [name, method, path, body, headers, status, type, message] of ERRORS) {
  t.test(`error: ${name}`, async (t) => {
    const r = await call(sim.url, method, path, body, headers);
    t.equal(r.status, status);
    t.equal(r.headers['content-type'], 'application/json');
    const e = errorOf(r.body);
    t.same(e, { type: 'error', error: { type, message }, request_id: r.headers['request-id'] });
  });
}

t.test('an apiKey option makes the credential exact; Bearer works too', async (t) => {
  const strict = await startSimulator({ apiKey: 'sk-right' });
  t.teardown(() => strict.close());
  const headers = (auth: Record<string, string>) => ({ 'anthropic-version': '2023-06-01', ...auth });
  t.equal((await call(strict.url, 'POST', '/v1/messages', TEXT_REQUEST, headers({ 'x-api-key': 'sk-right' }))).status, 200);
  t.equal((await call(strict.url, 'POST', '/v1/messages', TEXT_REQUEST, headers({ authorization: 'Bearer sk-right' }))).status, 200);
  const wrong = await call(strict.url, 'POST', '/v1/messages', TEXT_REQUEST, headers({ 'x-api-key': 'sk-wrong' }));
  t.equal(wrong.status, 401);
  t.equal(errorOf(wrong.body).error.message, 'invalid x-api-key');
  strict.setOptions({ apiKey: undefined });
  t.equal((await call(strict.url, 'POST', '/v1/messages', TEXT_REQUEST, headers({ 'x-api-key': 'anything' }))).status, 200);
});

t.test('a body over 32 MiB is a 413 request_too_large', async (t) => {
  const big = JSON.stringify({ ...TEXT_REQUEST, messages: [{ role: 'user', content: 'x'.repeat(32 * 1024 * 1024) }] });
  const r = await call(sim.url, 'POST', '/v1/messages', big);
  t.equal(r.status, 413);
  t.equal(errorOf(r.body).error.type, 'request_too_large');
});

t.test('count_tokens and the models endpoints', async (t) => {
  const { max_tokens: _omit, ...countBody } = TEXT_REQUEST;
  const counted = await call(sim.url, 'POST', '/v1/messages/count_tokens?beta=true', countBody);
  t.equal(counted.status, 200);
  t.same(JSON.parse(counted.body), { input_tokens: 4 });
  const list = await call(sim.url, 'GET', '/v1/models?limit=2', undefined, API_HEADERS);
  t.match(JSON.parse(list.body), { has_more: true, first_id: 'claude-opus-4-7', last_id: 'claude-sonnet-4-6' });
  const one = await call(sim.url, 'GET', '/v1/models/claude-opus-4-7', undefined, API_HEADERS);
  t.match(JSON.parse(one.body), { type: 'model', id: 'claude-opus-4-7', display_name: 'Claude Opus 4.7' });
  const badLimit = await call(sim.url, 'GET', '/v1/models?limit=0', undefined, API_HEADERS);
  t.equal(badLimit.status, 400);
});

t.test('a models option replaces the served list', async (t) => {
  const custom = await startSimulator({ models: [{ type: 'model', id: 'claude-test-1', display_name: 'Test', created_at: '2026-01-01T00:00:00Z' }] });
  t.teardown(() => custom.close());
  const list = JSON.parse((await call(custom.url, 'GET', '/v1/models', undefined, API_HEADERS)).body) as { data: Array<{ id: string }> };
  t.same(list.data.map((m) => m.id), ['claude-test-1']);
  t.equal((await call(custom.url, 'POST', '/v1/messages', { ...TEXT_REQUEST, model: 'claude-test-1' })).status, 200);
  t.equal((await call(custom.url, 'POST', '/v1/messages', TEXT_REQUEST)).status, 404);
});

t.test('record keeps method, url, headers and body of API requests', async (t) => {
  sim.received.length = 0;
  await call(sim.url, 'POST', '/v1/messages?beta=true', TEXT_REQUEST, { ...API_HEADERS, 'anthropic-beta': 'x-2025' });
  t.equal(sim.received.length, 1);
  const rec = sim.received[0];
  t.equal(rec.method, 'POST');
  t.equal(rec.url, '/v1/messages?beta=true');
  t.equal(rec.headers['anthropic-beta'], 'x-2025');
  t.same(JSON.parse(rec.body.toString('utf8')), TEXT_REQUEST);
  sim.setOptions({ record: false });
  await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST);
  t.equal(sim.received.length, 1);
  sim.setOptions({ record: true });
});

t.test('pacing options still give the same reply', async (t) => {
  const paced = await startSimulator({ ttftMs: 5, tokensPerSecond: 2000, replyTokens: 20 });
  t.teardown(() => paced.close());
  const streamed = await call(paced.url, 'POST', '/v1/messages', STREAM_REQUEST);
  const plain = JSON.parse((await call(paced.url, 'POST', '/v1/messages', TEXT_REQUEST)).body) as { content: Array<{ text: string }>; usage: { output_tokens: number } };
  t.equal(plain.usage.output_tokens, 20);
  const text = streamed.body
    .split('\n')
    .filter((l) => l.includes('"text_delta"'))
    .map((l) => (JSON.parse(l.slice(6)) as { delta: { text: string } }).delta.text)
    .join('');
  t.equal(text, plain.content[0].text);
});

t.test('bytesWritten counts what went to clients, closed sockets included', async (t) => {
  const before = sim.bytesWritten();
  const r = await call(sim.url, 'POST', '/v1/messages', STREAM_REQUEST);
  await new Promise((resolve) => setImmediate(resolve));
  t.ok(sim.bytesWritten() - before >= Buffer.byteLength(r.body), 'at least the body bytes');
});

t.test('streamChunkBytes sends an unpaced stream in chunks of whole events of about that size; unset, in 16 KiB writes', async (t) => {
  const chunky = await startSimulator({ replyTokens: 200, streamChunkBytes: 1024 });
  t.teardown(() => chunky.close());
  const chunksOf = async (): Promise<string[]> => {
    const res = await open(chunky.url, 'POST', '/v1/messages', { ...STREAM_REQUEST, max_tokens: 400 });
    const chunks: string[] = [];
    res.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
    await new Promise((resolve) => res.on('end', resolve));
    return chunks;
  };
  const chunked = await chunksOf();
  const bytes = chunked.join('').length;
  t.ok(chunked.length >= Math.floor(bytes / 2048), `${chunked.length} chunks for ${bytes} bytes`);
  t.ok(chunked.every((c) => c.endsWith('\n\n')), 'each chunk ends with a whole event');
  t.ok(chunked.slice(0, -1).every((c) => c.length >= 1024 && c.length < 1024 + 512), 'each but the last holds about 1 KiB');
  t.match(chunked.join(''), /event: message_stop\ndata: \{"type":"message_stop"\}\n\n$/);

  chunky.setOptions({ streamChunkBytes: undefined });
  const batched = await chunksOf();
  t.ok(batched.length <= Math.ceil(bytes / (16 * 1024)), `back to 16 KiB writes: ${batched.length} chunks`);
});
