// Bedrock and Vertex routes end to end: a real gateway whose models file sends one model to Bedrock
// and one to Vertex AI (both played by the simulator, Signature V4 and the JWT-bearer grant checked),
// on the messages, chat and Responses surfaces, streamed and not; a throttling exception in the middle
// of a Bedrock stream (and an overload in an anthropic one) cooling the route down; Vertex access tokens that expire during a run; and a failover from an anthropic
// account answering 529 to a Bedrock route, translated for that route on both surfaces.
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import type { Test } from 'tap';
import { startHarness, type Harness } from '../../helpers/harness.js';
import { bearer, call, type RawResponse } from '../../helpers/http.js';
import { startClouds, type Clouds } from './fixtures/clouds.js';

const ON_BEDROCK = 'claude-sonnet-4-6';
const BEDROCK_ID = 'us.anthropic.claude-sonnet-4-6-v1:0';
const ON_VERTEX = 'claude-haiku-4-5-20251001';
const VERTEX_ID = 'claude-haiku-4-5@20251001';
/** An anthropic account first, Bedrock behind it. */
const FAILS_OVER = 'claude-opus-4-7';
const FAILOVER_ID = 'global.anthropic.claude-opus-4-7-v1:0';

const MODELS = [
  { id: ON_BEDROCK, routes: [{ provider: 'bedrock-us', model: BEDROCK_ID }] },
  { id: ON_VERTEX, routes: [{ provider: 'vertex-eu', model: VERTEX_ID }] },
  { id: FAILS_OVER, routes: [{ provider: 'anth' }, { provider: 'bedrock-us', model: FAILOVER_ID, priority: 2 }] },
];

const BEDROCK_PATH = `/model/${encodeURIComponent(BEDROCK_ID)}/`;
const VERTEX_PATH = `/v1/projects/proj-clouds/locations/europe-west1/publishers/anthropic/models/${VERTEX_ID}:`;

async function gateway(t: Test, clouds: Clouds): Promise<{ h: Harness; key: string }> {
  const h = await startHarness({ env: clouds.env });
  t.teardown(() => h.close());
  return { h, key: (await h.createKey()).key };
}

type Surface = 'messages' | 'chat' | 'responses';
const PATHS: Record<Surface, string> = { messages: '/gateway/v1/messages', chat: '/gateway/openai/v1/chat/completions', responses: '/gateway/openai/v1/responses' };

function ask(h: Harness, key: string, surface: Surface, model: string, stream: boolean): Promise<RawResponse> {
  const body =
    surface === 'responses'
      ? { model, input: 'hi there', max_output_tokens: 64, stream }
      : { model, max_tokens: 64, messages: [{ role: 'user', content: 'hi there' }], stream };
  return call(`${h.url}${PATHS[surface]}`, { body: JSON.stringify(body), headers: bearer(key) });
}

/** The text a surface's answer carries, streamed or not. */
function textOf(surface: Surface, stream: boolean, r: RawResponse): string {
  if (!stream) {
    const j = r.json();
    if (surface === 'messages') return j.content[0].text;
    if (surface === 'chat') return j.choices[0].message.content;
    return j.output.find((o: { type: string }) => o.type === 'message').content[0].text;
  }
  const data = r.text.split('\n').filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]').map((l) => JSON.parse(l.slice(6)));
  if (surface === 'messages') return data.filter((d) => d.type === 'content_block_delta').map((d) => d.delta.text).join('');
  if (surface === 'chat') return data.map((d) => d.choices?.[0]?.delta?.content ?? '').join('');
  return data.filter((d) => d.type === 'response.output_text.delta').map((d) => d.delta).join('');
}

/** The stream ended as the surface ends a complete answer. */
function completed(surface: Surface, r: RawResponse): boolean {
  if (surface === 'messages') return r.text.includes('event: message_stop');
  // A chat stream ends with [DONE] after an error too: complete is a finish reason.
  if (surface === 'chat') return r.text.trimEnd().endsWith('data: [DONE]') && /"finish_reason":"[a-z_]+"/.test(r.text);
  return r.text.includes('event: response.completed');
}

t.test('Bedrock and Vertex on every surface, streamed and not', async (t) => {
  const clouds = await startClouds(t, { models: MODELS });
  const { h, key } = await gateway(t, clouds);
  for (const [model, prefix, framing] of [
    [ON_BEDROCK, BEDROCK_PATH, { false: 'invoke', true: 'invoke-with-response-stream' }],
    [ON_VERTEX, VERTEX_PATH, { false: 'rawPredict', true: 'streamRawPredict' }],
  ] as const) {
    for (const surface of ['messages', 'chat', 'responses'] as const) {
      for (const stream of [false, true]) {
        const name = `${model} ${surface} ${stream ? 'streamed' : 'whole'}`;
        const before = clouds.received(prefix).length;
        const r = await ask(h, key, surface, model, stream);
        t.equal(r.status, 200, name);
        t.match(textOf(surface, stream, r), /^You said: hi there/, `${name}: the model's text`);
        if (stream) {
          t.match(r.headers['content-type'], /^text\/event-stream/, `${name}: an event stream`);
          t.ok(completed(surface, r), `${name}: complete`);
          t.notMatch(r.text, 'amazon-bedrock-invocationMetrics', `${name}: Bedrock's metrics removed`);
        }
        const sent = clouds.received(prefix).slice(before);
        t.same(sent.map((s) => s.url.slice(prefix.length)), [framing[String(stream) as 'true' | 'false']], `${name}: one call to the route's own API`);
        t.notOk('model' in JSON.parse(sent[0]!.body.toString('utf8')), `${name}: the model is in the URL, not the body`);
      }
    }
  }
  t.equal(clouds.received('/token').length, 1, 'one Vertex access token served every call');
  t.equal(clouds.received('/v1/messages').length, 0, 'nothing went to the anthropic account');
});

t.test('a messages request on a cloud route keeps the client\'s fields and betas', async (t) => {
  const clouds = await startClouds(t, { models: MODELS });
  const { h, key } = await gateway(t, clouds);
  const body = JSON.stringify({ model: ON_BEDROCK, max_tokens: 32, system: 'Be brief.', metadata: { user_id: 'u-1' }, messages: [{ role: 'user', content: 'hi there' }] });
  const r = await call(`${h.url}/gateway/v1/messages`, { body, headers: bearer(key, { 'anthropic-beta': 'context-1m-2025-08-07' }) });
  t.equal(r.status, 200);
  const sent = JSON.parse(clouds.received(BEDROCK_PATH)[0]!.body.toString('utf8'));
  t.same(sent, { max_tokens: 32, system: 'Be brief.', metadata: { user_id: 'u-1' }, messages: [{ role: 'user', content: 'hi there' }], anthropic_version: 'bedrock-2023-05-31', anthropic_beta: ['context-1m-2025-08-07'] });
});

/** A route's state as /readyz lists it. */
async function routeState(h: Harness, name: string): Promise<string | undefined> {
  const ready = (await call(`${h.url}/readyz`)).json();
  return ready.routes.find((r: { name: string }) => r.name === name)?.state;
}

t.test('a throttling exception in the middle of a Bedrock stream ends it with a rate-limit error on each surface and cools the route', async (t) => {
  const clouds = await startClouds(t, { models: MODELS });
  for (const surface of ['messages', 'chat', 'responses'] as const) {
    // A gateway of its own per surface: the route it cools would refuse the next surface's request.
    const { h, key } = await gateway(t, clouds);
    clouds.sim.injectFault({ kind: 'error-event', afterEvents: 3, errorType: 'rate_limit_error', message: 'Too many requests, please wait.' }, 1, 'bedrock-us');
    const r = await ask(h, key, surface, ON_BEDROCK, true);
    t.equal(r.status, 200, `${surface}: the stream had started`);
    t.notOk(completed(surface, r), `${surface}: not a complete answer`);
    t.match(r.text, 'Too many requests, please wait.', `${surface}: Bedrock's message reaches the client`);
    if (surface === 'messages') t.match(r.text, /event: error\ndata: \{"type":"error","error":\{"type":"rate_limit_error"/);
    else t.match(r.text, /rate_limit/, `${surface}: a rate-limit error in the surface's shape`);
    t.equal(await routeState(h, `${ON_BEDROCK}@bedrock-us`), 'throttled', `${surface}: the route cools down as after a 429`);
    const calls = clouds.received(BEDROCK_PATH).length;
    const next = await ask(h, key, surface, ON_BEDROCK, false);
    t.equal(next.status, 429, `${surface}: the next request is refused while the only route cools down`);
    t.ok(Number(next.headers['retry-after']) > 0, `${surface}: with the cool-down's retry-after`);
    t.equal(clouds.received(BEDROCK_PATH).length, calls, `${surface}: without a call to Bedrock`);
    t.match(h.logText(), /a stream broke off with a throttle or overload: the route cools down/, `${surface}: the cool-down is logged`);
    const metrics = (await call(`${h.url}/metrics`)).text;
    t.notMatch(metrics, /AKIACLOUDTEST|cloud\/test\/secret/, 'no AWS credential in the metrics');
    t.notMatch(h.logText(), /cloud\/test\/secret/, 'nor in the log');
  }
});

t.test('an overload error in the middle of an anthropic stream sends the next requests to the other route', async (t) => {
  const clouds = await startClouds(t, { models: MODELS });
  const { h, key } = await gateway(t, clouds);
  const bedrockPath = `/model/${encodeURIComponent(FAILOVER_ID)}/`;
  clouds.sim.injectFault({ kind: 'error-event', afterEvents: 3, errorType: 'overloaded_error', message: 'Overloaded' }, 1, 'anth');
  const broken = await ask(h, key, 'messages', FAILS_OVER, true);
  t.equal(broken.status, 200);
  t.match(broken.text, /event: error\ndata: \{"type":"error","error":\{"type":"overloaded_error"/, 'the stream ends with the provider\'s error');
  t.equal(clouds.received(bedrockPath).length, 0, 'the stream was the anthropic account\'s');
  t.equal(await routeState(h, `${FAILS_OVER}@anth`), 'throttled', 'the anthropic route cools down');
  const anthropicCalls = clouds.received('/v1/messages').length;
  for (const surface of ['messages', 'chat'] as const) {
    const r = await ask(h, key, surface, FAILS_OVER, true);
    t.equal(r.status, 200, `${surface}: served`);
    t.ok(completed(surface, r), `${surface}: complete`);
  }
  t.equal(clouds.received('/v1/messages').length, anthropicCalls, 'no call to the cooling anthropic account');
  t.equal(clouds.received(bedrockPath).length, 2, 'the Bedrock route served both');
});

t.test('an error in the middle of a stream that says nothing of capacity does not cool the route', async (t) => {
  const clouds = await startClouds(t, { models: MODELS });
  const { h, key } = await gateway(t, clouds);
  clouds.sim.injectFault({ kind: 'error-event', afterEvents: 3, errorType: 'api_error', message: 'Internal error' }, 1, 'bedrock-us');
  const broken = await ask(h, key, 'messages', ON_BEDROCK, true);
  t.match(broken.text, /"type":"api_error"/);
  t.equal(await routeState(h, `${ON_BEDROCK}@bedrock-us`), 'ready');
  t.equal((await ask(h, key, 'messages', ON_BEDROCK, false)).status, 200, 'the next request goes to the route');
});

t.test('Bedrock errors before the stream: throttling fails over to nothing and comes back as the provider\'s 429', async (t) => {
  const clouds = await startClouds(t, { models: MODELS });
  const { h, key } = await gateway(t, clouds);
  clouds.sim.injectFault({ kind: 'status', status: 429 }, 1, 'bedrock-us');
  const messages = await ask(h, key, 'messages', ON_BEDROCK, false);
  t.equal(messages.status, 429);
  t.equal(messages.json().error.type, 'rate_limit_error');
  t.ok(Number(messages.headers['retry-after']) > 0, 'with a retry-after: the route cools down');
  t.equal(await routeState(h, `${ON_BEDROCK}@bedrock-us`), 'throttled');
  clouds.sim.injectFault({ kind: 'status', status: 503 }, 1, 'bedrock-us');
  const chat = await ask(h, key, 'chat', ON_BEDROCK, false);
  t.equal(chat.status, 429, 'the route still cools down: refused without a call');
});

t.test('Vertex access tokens that expire during a run are renewed, with no client error', async (t) => {
  // Two-second tokens: the gateway renews a token from its first second on, and must fetch one once
  // the held one has expired.
  const clouds = await startClouds(t, { models: MODELS, tokenLifetimeSeconds: 2 });
  const { h, key } = await gateway(t, clouds);
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    statuses.push((await ask(h, key, i % 2 === 0 ? 'messages' : 'chat', ON_VERTEX, i % 3 === 0)).status);
    await sleep(700);
  }
  t.same(statuses, Array(6).fill(200), 'every request served');
  const grants = clouds.received('/token').length;
  t.ok(grants >= 2, `${grants} tokens over the run`);
  const tokens = new Set(clouds.received(VERTEX_PATH).map((r) => r.url));
  t.ok(tokens.size >= 1);
});

t.test('an anthropic 529 fails over to the Bedrock route, translated for it, on the messages and chat surfaces', async (t) => {
  const clouds = await startClouds(t, { models: MODELS });
  const { h, key } = await gateway(t, clouds);
  const bedrockPath = `/model/${encodeURIComponent(FAILOVER_ID)}/invoke`;
  for (const surface of ['messages', 'chat'] as const) {
    for (const stream of [false, true]) {
      clouds.sim.injectFault({ kind: 'status', status: 529, errorType: 'overloaded_error' }, 1, 'anth');
      const anthropicBefore = clouds.received('/v1/messages').length;
      const bedrockBefore = clouds.received(bedrockPath).length;
      const r = await ask(h, key, surface, FAILS_OVER, stream);
      const name = `${surface} ${stream ? 'streamed' : 'whole'}`;
      t.equal(r.status, 200, `${name}: served`);
      t.match(textOf(surface, stream, r), /^You said: hi there/, `${name}: the Bedrock route's answer`);
      if (stream) t.ok(completed(surface, r), `${name}: complete`);
      else if (surface === 'messages') t.equal(r.json().model, FAILS_OVER);
      else t.equal(r.json().model, FAILS_OVER);
      t.equal(clouds.received('/v1/messages').length - anthropicBefore, 1, `${name}: the anthropic account was tried first`);
      const sent = clouds.received(bedrockPath).slice(bedrockBefore);
      t.equal(sent.length, 1, `${name}: then the Bedrock route`);
      const body = JSON.parse(sent[0]!.body.toString('utf8'));
      t.match(body, { anthropic_version: 'bedrock-2023-05-31', messages: [{ role: 'user' }] }, `${name}: a Bedrock body`);
      t.notOk('model' in body || 'stream' in body, `${name}: without model and stream`);
    }
  }
});

t.test('count_tokens on a Vertex route goes to its count-tokens model', async (t) => {
  const clouds = await startClouds(t, { models: MODELS });
  const { h, key } = await gateway(t, clouds);
  const body = JSON.stringify({ model: ON_VERTEX, messages: [{ role: 'user', content: 'hi there' }] });
  const r = await call(`${h.url}/gateway/v1/messages/count_tokens`, { body, headers: bearer(key) });
  t.equal(r.status, 200);
  t.match(r.json(), { input_tokens: Number });
  t.equal(clouds.received('/v1/projects/proj-clouds/locations/europe-west1/publishers/anthropic/models/count-tokens:rawPredict').length, 1);
});

t.test('count_tokens on a Bedrock route goes to its CountTokens API and counts as an anthropic route does', async (t) => {
  const clouds = await startClouds(t, { models: MODELS });
  const { h, key } = await gateway(t, clouds);
  const messages = [{ role: 'user', content: 'hi there, count me' }];
  const count = (model: string) => call(`${h.url}/gateway/v1/messages/count_tokens`, { body: JSON.stringify({ model, system: 'Be brief.', messages }), headers: bearer(key) });
  const onBedrock = await count(ON_BEDROCK);
  t.equal(onBedrock.status, 200);
  t.same(Object.keys(onBedrock.json()), ['input_tokens'], 'the provider\'s count_tokens answer');
  const sent = clouds.received(`/model/${encodeURIComponent(BEDROCK_ID)}/count-tokens`);
  t.equal(sent.length, 1, 'one call to Bedrock\'s CountTokens');
  const inner = JSON.parse(Buffer.from(JSON.parse(sent[0]!.body.toString('utf8')).input.invokeModel.body, 'base64').toString('utf8'));
  t.same(inner, { system: 'Be brief.', messages, anthropic_version: 'bedrock-2023-05-31', max_tokens: 1 }, 'the InvokeModel body it would count, with the max_tokens InvokeModel needs');
  // The same request on the anthropic route of another model counts the same tokens.
  const onAnthropic = await count(FAILS_OVER);
  t.equal(onAnthropic.status, 200);
  t.equal(clouds.received('/v1/messages/count_tokens').length, 1);
  t.equal(onBedrock.json().input_tokens, onAnthropic.json().input_tokens, 'the same count on both routes');
  const refused = await call(`${h.url}/gateway/v1/messages/count_tokens`, { body: JSON.stringify({ model: ON_BEDROCK, messages: [] }), headers: bearer(key) });
  t.equal(refused.status, 400, 'a request the model refuses');
  t.equal(refused.json().error.type, 'invalid_request_error', 'comes back as the provider\'s error');
});
