// Large chat bodies through the translation pool answer exactly as they do inline: same provider
// request, same status and error, same warnings, same limits. Two gateways side by side, one with the
// pool (every body from 1 KiB goes to it), one without.
import t from 'tap';
import type { Test } from 'tap';
import { startHarness } from '../../helpers/harness.js';
import type { Harness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';

const MODEL = 'claude-sonnet-4-6';
const filler = 'x'.repeat(2048);
const big = (extra: Record<string, unknown> = {}, messages: unknown = [{ role: 'user', content: `hello ${filler}` }]) =>
  JSON.stringify({ model: MODEL, max_tokens: 20, messages, ...extra });

interface Gateway {
  h: Harness;
  key: string;
}

async function gateway(t: Test, env: Record<string, string>): Promise<Gateway> {
  const h = await startHarness({ env: { GATEWAY_MAX_MESSAGES: '50', ...env } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  return { h, key };
}

async function send(g: Gateway, body: string, headers: Record<string, string> = {}) {
  const before = g.h.simulator.received.length;
  const res = await call(`${g.h.url}/gateway/openai/v1/chat/completions`, { body, headers: bearer(g.key, headers) });
  const upstream = g.h.simulator.received.slice(before).map((r) => r.body.toString('utf8'));
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read the answers' nested fields they assert
  return { status: res.status, headers: res.headers, json: res.json() as Record<string, any>, upstream };
}

/** The answer without what differs on every call (ids, the creation time). */
const stable = (json: Record<string, unknown>): unknown => JSON.parse(JSON.stringify(json, (k, v: unknown) => (k === 'id' || k === 'created' ? undefined : v)));

t.test('pooled and inline translation answer alike', async (t) => {
  const pooled = await gateway(t, { GATEWAY_TRANSLATE_THREADS: '1', GATEWAY_TRANSLATE_MIN_BYTES: '1024' });
  const inline = await gateway(t, {});

  const cases: [string, string, Record<string, string>?][] = [
    ['a plain large request', big()],
    ['ignored fields and a system prompt', big({ seed: 1, n: 1, logprobs: true }, [{ role: 'system', content: 'Be short.' }, { role: 'user', content: filler }])],
    ['strict mode refuses a change', big({ seed: 1 }), { 'x-gateway-strict': 'true' }],
    ['not JSON', `{"model":"${MODEL}","messages":[${'1,'.repeat(700)}`],
    ['too many messages', big({}, Array.from({ length: 60 }, () => ({ role: 'user', content: filler.slice(0, 40) })))],
    ['unknown model', big({ model: 'no-such-model' })],
    ['invalid temperature', big({ temperature: 7 })],
    ['tools and a tool call', big({ tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } } }], tool_choice: 'required' })],
  ];
  const pool = pooled.h.runtime.translatePool!;
  t.equal(inline.h.runtime.translatePool, null, 'no pool unless asked for');
  for (const [name, body, headers] of cases) {
    const tasks = pool.completed;
    const [p, i] = [await send(pooled, body, headers), await send(inline, body, headers)];
    t.ok(pool.completed > tasks, `${name}: the pool did the work`);
    t.equal(p.status, i.status, `${name}: status ${i.status}`);
    t.same(stable(p.json), stable(i.json), `${name}: same body`);
    t.same(p.upstream, i.upstream, `${name}: same provider request`);
    t.equal(p.headers['x-gateway-translation-warnings'], i.headers['x-gateway-translation-warnings'], `${name}: same warnings`);
  }
});

t.test('a streamed large request through the pool', async (t) => {
  const pooled = await gateway(t, { GATEWAY_TRANSLATE_THREADS: '1', GATEWAY_TRANSLATE_MIN_BYTES: '1024' });
  const res = await call(`${pooled.h.url}/gateway/openai/v1/chat/completions`, { body: big({ stream: true }), headers: bearer(pooled.key) });
  t.equal(res.status, 200);
  t.match(res.headers['content-type'], /text\/event-stream/);
  t.ok(res.text.trimEnd().endsWith('data: [DONE]'), 'the stream ends with [DONE]');
  t.equal(pooled.h.runtime.translatePool!.completed, 2, 'head and translate ran on the pool');
});

t.test('small bodies stay inline', async (t) => {
  const pooled = await gateway(t, { GATEWAY_TRANSLATE_THREADS: '1', GATEWAY_TRANSLATE_MIN_BYTES: '100000' });
  const res = await send(pooled, big());
  t.equal(res.status, 200);
  t.equal(pooled.h.runtime.translatePool!.completed, 0);
});
