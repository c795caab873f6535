// Hostile input and overload: the limits and statuses of docs/contract.md ("Timeouts and limits"), broken
// HTTP framing refused, nothing reflected, nothing polluted, load shed at the in-flight maximum.
import t from 'tap';
import type { Test } from 'tap';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';
import type { RawResponse } from '../../helpers/http.js';
import { rawExchange } from './fixtures/raw-http.js';

const MODEL = 'claude-sonnet-4-6';
const MESSAGES = '/gateway/v1/messages';
const CHAT = '/gateway/openai/v1/chat/completions';
const ok = (extra: Record<string, unknown> = {}) => JSON.stringify({ model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }], ...extra });

function assertShape(t: Test, res: { status: number; text: string; headers: Record<string, unknown> }, status: number, surface: 'messages' | 'chat') {
  t.equal(res.status, status, res.text);
  const body = JSON.parse(res.text);
  if (surface === 'messages') {
    t.equal(body.type, 'error');
    t.type(body.error.type, 'string');
  } else {
    t.type(body.error.type, 'string');
    t.ok('code' in body.error && 'param' in body.error, 'chat error shape');
  }
  t.ok(res.headers['request-id'], 'request id');
}

t.test('limits on both surfaces', async (t) => {
  const h = await startHarness({ env: { GATEWAY_MAX_BODY_BYTES: '4096', GATEWAY_MAX_MESSAGES: '3', GATEWAY_MAX_JSON_DEPTH: '16' } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const deep = (n: number) => `{"model":"${MODEL}","max_tokens":5,"messages":[{"role":"user","content":"x"}],"metadata":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}`;
  const many = (n: number) => JSON.stringify({ model: MODEL, max_tokens: 5, messages: Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: 'x' })) });
  for (const [surface, path] of [['messages', MESSAGES], ['chat', CHAT]] as const) {
    const post = (body: string, headers: Record<string, string> = {}) => call(`${h.url}${path}`, { body, headers: bearer(key, headers) });
    t.test(`${surface}: body over the limit → 413`, async (t) => {
      const res = await post(ok({ pad: 'x'.repeat(5000) }));
      assertShape(t, res, 413, surface);
      t.equal(res.json().error[surface === 'messages' ? 'type' : 'code'], 'request_too_large');
    });
    t.test(`${surface}: a chunked body over the limit → 413 too`, async (t) => {
      const res = await request(`${h.url}${path}`, { method: 'POST', headers: bearer(key), body: Readable.from(Array.from({ length: 10 }, () => Buffer.alloc(1000, 32))) });
      t.equal(res.statusCode, 413);
      await res.body.dump();
    });
    t.test(`${surface}: nesting deeper than the limit → 400`, async (t) => {
      const res = await post(deep(20));
      assertShape(t, res, 400, surface);
      t.match(res.json().error.message, /nested deeper than 16/);
    });
    t.test(`${surface}: more messages than the limit → 400`, async (t) => {
      const res = await post(many(4));
      assertShape(t, res, 400, surface);
      if (surface === 'chat') t.equal(res.json().error.param, 'messages');
      t.not((await post(many(3))).status, 400, 'at the limit the request goes on');
    });
    t.test(`${surface}: wrong content type → 415`, async (t) => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        assertShape(t, await post(ok(), { 'content-type': type }), 415, surface);
      }
      t.equal((await post(ok(), { 'content-type': 'application/json; charset=utf-8' })).status, 200);
    });
  }
});

t.test('__proto__ and constructor keys pollute nothing', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const hostile = `{"__proto__":{"polluted":"yes","isAdmin":true},"constructor":{"prototype":{"polluted":"yes"}},"model":"${MODEL}","max_tokens":5,"messages":[{"role":"user","content":"x","__proto__":{"polluted":"yes"}}],"metadata":{"__proto__":{"polluted":"yes"}}}`;
  const results: RawResponse[] = [];
  for (const path of [MESSAGES, CHAT, '/gateway/v1/messages/count_tokens']) {
    results.push(await call(`${h.url}${path}`, { body: hostile, headers: bearer(key, { constructor: 'x' }) }));
  }
  for (const res of results) t.ok(res.status === 200 || (res.status >= 400 && res.status < 500), `answered ${res.status}`);
  const probe: Record<string, unknown> = {};
  t.equal(probe.polluted, undefined, 'Object.prototype untouched');
  t.equal(probe.isAdmin, undefined);
  t.equal((h.runtime as unknown as Record<string, unknown>).polluted, undefined);
  const forwarded = h.simulator.received.filter((r) => r.method === 'POST').at(0);
  t.equal(forwarded?.body.toString('utf8'), hostile, 'the messages surface still forwards the bytes as they came');
});

t.test('broken HTTP framing is refused with a JSON 400 and the connection closed', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const head = (extra: string) => `POST ${MESSAGES} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${key}\r\ncontent-type: application/json\r\n${extra}\r\n`;
  const body = ok();
  const cases: Array<[string, string]> = [
    ['Content-Length and Transfer-Encoding together', head(`content-length: ${body.length}\r\ntransfer-encoding: chunked\r\n`) + `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`],
    ['two different Content-Length values', head(`content-length: ${body.length}\r\ncontent-length: 3\r\n`) + body],
    ['a chunk size that is not hex', head('transfer-encoding: chunked\r\n') + `zz\r\n${body}\r\n0\r\n\r\n`],
    ['a chunk without its CRLF', head('transfer-encoding: chunked\r\n') + `5\r\n${body.slice(0, 5)}XX0\r\n\r\n`],
    ['a bare CR in a header value', head('x-note: a\rb\r\n') + body],
    ['header folding (obs-fold)', head('x-note: a\r\n b\r\n') + body],
    ['an unknown transfer coding', head('transfer-encoding: identity\r\n') + body],
  ];
  for (const [name, bytes] of cases) {
    const res = await rawExchange(h.port, [bytes]);
    t.equal(res.status, 400, name);
    t.equal(JSON.parse(res.body).type, 'error', `${name}: the messages shape, from the path`);
    t.ok(res.headers['request-id'], `${name}: request id`);
    t.ok(res.closed, `${name}: connection closed`);
  }
  t.equal(h.simulator.received.filter((r) => r.method === 'POST').length, 0, 'none reached the upstream');
  const chat = await rawExchange(h.port, [`POST ${CHAT} HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\ncontent-length: 4\r\n\r\n0\r\n\r\n`]);
  t.equal(chat.status, 400);
  t.ok(JSON.parse(chat.body).error.code, 'the chat shape for a chat path');
});

t.test('request headers over 16 KiB → 431', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const res = await rawExchange(h.port, [`POST ${MESSAGES} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${key}\r\nx-big: ${'a'.repeat(17 * 1024)}\r\n\r\n`]);
  t.equal(res.status, 431);
  t.equal(JSON.parse(res.body).type, 'error');
  t.ok(res.closed);
  const fits = await call(`${h.url}${MESSAGES}`, { body: ok(), headers: bearer(key, { 'x-big': 'a'.repeat(12 * 1024) }) });
  t.equal(fits.status, 200, 'under the limit is fine');
});

t.test('values with CR/LF are never reflected into headers', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const injected = 'x\r\nset-cookie: pwned=1\r\nx-injected: 1';
  const notFound = await call(`${h.url}${MESSAGES}`, { body: JSON.stringify({ model: injected, max_tokens: 5, messages: [] }), headers: bearer(key) });
  t.equal(notFound.status, 404);
  t.equal(notFound.headers['set-cookie'], undefined);
  t.equal(notFound.headers['x-injected'], undefined);
  t.notMatch(notFound.text, /\r|\n/, 'the echoed name is on one line');
  const chat = await call(`${h.url}${CHAT}`, { body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'x' }], [injected]: 1, seed: 1 }), headers: bearer(key) });
  t.equal(chat.status, 200, chat.text);
  t.equal(chat.headers['set-cookie'], undefined);
  t.equal(chat.headers['x-injected'], undefined);
  t.notMatch(String(chat.headers['x-gateway-translation-warnings'] ?? ''), /[\r\n]/);
});

t.test('past the in-flight maximum: 503 at once in the surface’s shape, retry-after 1', async (t) => {
  const h = await startHarness({ env: { GATEWAY_MAX_IN_FLIGHT: '1' } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  h.simulator.injectFault({ kind: 'hang-before-headers' });
  const controller = new AbortController();
  const hanging = request(`${h.url}${MESSAGES}`, { method: 'POST', headers: bearer(key), body: ok(), signal: controller.signal }).catch(() => null);
  while (h.runtime.lifecycle.inFlight < 1) await new Promise((r) => setTimeout(r, 5));
  const messages = await call(`${h.url}${MESSAGES}`, { body: ok(), headers: bearer(key) });
  assertShape(t, messages, 503, 'messages');
  t.equal(messages.json().error.type, 'overloaded_error');
  t.equal(messages.headers['retry-after'], '1');
  const chat = await call(`${h.url}${CHAT}`, { body: ok(), headers: bearer(key) });
  assertShape(t, chat, 503, 'chat');
  t.equal(chat.json().error.code, 'server_overloaded');
  t.equal((await call(`${h.url}/healthz`)).status, 200, 'operations paths are never shed');
  t.match((await call(`${h.url}/metrics`)).text, /model_gateway_load_shed_requests_total\{surface="messages"\} 1/);
  controller.abort();
  await hanging;
});
