// The circuit breakers per model route, through the real gateway against an upstream imitation that
// fails one model while the others answer.
import t from 'tap';
import type { Test } from 'tap';
import type { Harness } from '../../helpers/harness.js';
import { startHarness } from '../../helpers/harness.js';
import type { RawResponse } from '../../helpers/http.js';
import { bearer, call } from '../../helpers/http.js';
import { closedPort } from './fixtures/closed-port.js';
import type { ScriptedUpstream } from './fixtures/scripted-upstream.js';
import { startScriptedUpstream } from './fixtures/scripted-upstream.js';

const OPUS = 'claude-opus-4-7';
const SONNET = 'claude-sonnet-4-6';
const HAIKU = 'claude-haiku-4-5-20251001';

type Surface = 'messages' | 'chat';

async function rig(t: Test, env: Record<string, string>): Promise<{ h: Harness; up: ScriptedUpstream }> {
  const up = await startScriptedUpstream();
  const h = await startHarness({ env: { ANTHROPIC_BASE_URL: up.url, GATEWAY_RETRY_BASE_DELAY_MS: '1', ...env } });
  t.teardown(async () => {
    await h.close();
    await up.close();
  });
  return { h, up };
}

function send(h: Harness, key: string, model: string, surface: Surface = 'messages'): Promise<RawResponse> {
  const path = surface === 'messages' ? '/gateway/v1/messages' : '/gateway/openai/v1/chat/completions';
  const body = JSON.stringify({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
  return call(`${h.url}${path}`, { body, headers: bearer(key) });
}

async function circuits(h: Harness): Promise<{ status: number; circuits: Record<string, string> }> {
  const ready = await call(`${h.url}/readyz`);
  return { status: ready.status, circuits: ready.json().circuits };
}

const stateMetric = (route: string, state: string) => new RegExp(`model_gateway_circuit_breaker_state\\{route="${route}",state="${state}"\\} 1`);

t.test("one model overloaded at volume never fails another model's requests (default settings)", async (t) => {
  const { h, up } = await rig(t, { GATEWAY_RETRY_ATTEMPTS: '2' });
  const acme = (await h.createKey({ customer: 'acme' })).key;
  const globex = (await h.createKey({ customer: 'globex' })).key;
  up.failing.set(HAIKU, 529);

  // A burst of failures with no success in between: what opened the single breaker of old.
  const burst: number[] = [];
  for (let i = 0; i < 20; i++) burst.push((await send(h, acme, HAIKU, i % 2 === 0 ? 'messages' : 'chat')).status);
  t.same(burst, Array(20).fill(529), "below 20 calls the upstream's own answer goes back");
  t.equal(up.callsFor(HAIKU), 40, 'each request was retried');

  const haiku: number[] = [];
  const sonnet: number[] = [];
  for (let i = 0; i < 30; i++) {
    const surface: Surface = i % 2 === 0 ? 'messages' : 'chat';
    const [a, b] = await Promise.all([send(h, acme, HAIKU, surface), send(h, i % 3 === 0 ? acme : globex, SONNET, surface)]);
    haiku.push(a.status);
    sonnet.push(b.status);
  }
  t.ok(sonnet.every((s) => s === 200), `every request for the other model was served, for both customers: ${sonnet.join(',')}`);
  t.same(haiku, Array(30).fill(503), 'after 20 calls that all failed, the overloaded model fails fast');
  t.equal(up.callsFor(HAIKU), 40, 'none reached the upstream after the circuit opened');
  t.equal(up.callsFor(SONNET), 30);

  const ready = await circuits(h);
  t.equal(ready.status, 200, 'an open route does not make the instance unready');
  t.same(ready.circuits, { [HAIKU]: 'open', [SONNET]: 'closed' });
  const metrics = (await call(`${h.url}/metrics`)).text;
  t.match(metrics, stateMetric(HAIKU, 'open'));
  t.match(metrics, stateMetric(SONNET, 'closed'));
});

t.test('a handful of failures at low volume opens nothing', async (t) => {
  const { h, up } = await rig(t, { GATEWAY_RETRY_ATTEMPTS: '3' });
  const { key } = await h.createKey();
  up.failing.set(HAIKU, 529);
  for (let i = 0; i < 6; i++) t.equal((await send(h, key, HAIKU, 'chat')).status, 529, `chat request ${i} gets the upstream's answer`);
  t.equal(up.callsFor(HAIKU), 18, 'each was retried');
  t.equal((await send(h, key, SONNET, 'chat')).status, 200);

  up.failing.clear();
  t.equal((await send(h, key, HAIKU, 'chat')).status, 200, 'the model is served as soon as the upstream answers');
  t.same((await circuits(h)).circuits, { [HAIKU]: 'closed', [SONNET]: 'closed' });
});

t.test('a dead route fails fast in each surface’s shape, then recovers through the half-open probe', async (t) => {
  const { h, up } = await rig(t, { GATEWAY_RETRY_ATTEMPTS: '1', GATEWAY_BREAKER_MIN_CALLS: '4', GATEWAY_BREAKER_WINDOW_MS: '5000', GATEWAY_BREAKER_COOLDOWN_MS: '400' });
  const { key } = await h.createKey();
  up.failing.set(SONNET, 500);
  for (let i = 0; i < 4; i++) t.equal((await send(h, key, SONNET)).status, 500);

  const messages = await send(h, key, SONNET, 'messages');
  t.equal(messages.status, 503);
  t.equal(messages.json().error.type, 'overloaded_error');
  t.ok(Number(messages.headers['retry-after']) >= 1, 'retry-after');
  const chat = await send(h, key, SONNET, 'chat');
  t.equal(chat.status, 503);
  t.equal(chat.json().error.type, 'server_error');
  t.equal(chat.json().error.code, 'upstream_unavailable');
  t.ok(Number(chat.headers['retry-after']) >= 1, 'retry-after');
  t.equal(up.callsFor(SONNET), 4, 'nothing reached the upstream while the route was down');
  t.equal((await send(h, key, HAIKU)).status, 200, 'another model is not affected');
  t.same(await circuits(h), { status: 200, circuits: { [SONNET]: 'open', [HAIKU]: 'closed' } });

  up.failing.clear();
  await new Promise((r) => setTimeout(r, 450));
  t.equal((await send(h, key, SONNET)).status, 200, 'after the cool-down, the probe goes through and succeeds');
  t.equal(up.callsFor(SONNET), 5);
  t.same((await circuits(h)).circuits, { [SONNET]: 'closed', [HAIKU]: 'closed' });
  t.match((await call(`${h.url}/metrics`)).text, stateMetric(SONNET, 'closed'));
  t.match(h.logText(), /"route":"claude-sonnet-4-6","state":"open"/, 'the change is logged');
});

t.test('an upstream that refuses connections opens the route too', async (t) => {
  const port = await closedPort();
  const h = await startHarness({ env: { ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`, GATEWAY_RETRY_ATTEMPTS: '1', GATEWAY_BREAKER_MIN_CALLS: '3' } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  for (let i = 0; i < 3; i++) t.equal((await send(h, key, SONNET)).status, 502);
  const refused = await send(h, key, SONNET, 'chat');
  t.equal(refused.status, 503, 'fails fast');
  t.equal(refused.json().error.code, 'upstream_unavailable');
});

t.test('an open route goes to the fallback the key may use; with nowhere else to go, a busy route is still called', async (t) => {
  const { h, up } = await rig(t, { GATEWAY_RETRY_ATTEMPTS: '1', GATEWAY_BREAKER_MIN_CALLS: '4', GATEWAY_BREAKER_COOLDOWN_MS: '60000' });
  const any = (await h.createKey()).key;
  const opusOnly = (await h.createKey({ models: [OPUS] })).key;
  for (let i = 0; i < 2; i++) t.equal((await send(h, any, OPUS)).headers['x-gateway-model'], OPUS);
  up.failing.set(OPUS, 529);
  for (let i = 0; i < 2; i++) {
    const res = await send(h, any, OPUS);
    t.equal(res.status, 200, 'the overloaded answer is replaced by the fallback’s');
    t.equal(res.headers['x-gateway-model'], SONNET);
  }
  t.equal((await circuits(h)).circuits[OPUS], 'open', '2 of 4 calls failed');
  const opusCalls = up.callsFor(OPUS);

  const messages = await send(h, any, OPUS, 'messages');
  t.equal(messages.status, 200);
  t.equal(messages.headers['x-gateway-model'], SONNET);
  const chat = await send(h, any, OPUS, 'chat');
  t.equal(chat.status, 200);
  t.equal(chat.json().model, SONNET, 'the chat body names the model that served');
  t.equal(up.callsFor(OPUS), opusCalls, 'the open route was not called');

  const busy = await send(h, opusOnly, OPUS);
  t.equal(busy.status, 529, 'a key without the fallback still reaches the upstream: some calls of the window succeeded');
  t.equal(up.callsFor(OPUS), opusCalls + 1, 'once, without retries');
});
