// The respond stage alone, on a real server, with the real translators and a real answer: the
// provider's (a scripted node:http server on 127.0.0.1) as the real connection pool hands it over. It
// reads the answer, the route that served it, the surface's dialect, the requested model and the
// client's body; writes the usage, the warnings, the first-token time, the outcome of a stream and the
// answer's facts for a kept span; answers the client in its surface's format: a whole body at once
// (the provider's error scrubbed of its credential, a 429's retry-after from the routes' cool-down),
// or a stream relayed event by event. A stream that breaks off with an overload cools its route down.
import t from 'tap';
import type { Test } from 'tap';
import { request } from 'undici';
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { respondStage } from '../../../../src/gateway/stages/respond.js';
import type { RequestContext, RouteInfo } from '../../../../src/gateway/context.js';
import { DEFAULT_MODELS } from '../../../../src/catalog/model.js';
import type { ClientDialect } from '../../../../src/dialects/translators/translator.js';
import { Translators } from '../../../../src/dialects/translators/registry.js';
import { messagesToAnthropic } from '../../../../src/dialects/translators/messages-to-anthropic/translator.js';
import { chatToAnthropic } from '../../../../src/dialects/translators/chat-to-anthropic/translator.js';
import { responsesToAnthropic } from '../../../../src/dialects/translators/responses-to-anthropic/translator.js';
import { RetryPolicy } from '../../../../src/policy/resilience/retry-policy.js';
import { RouteTable } from '../../../../src/policy/routing/route-table.js';
import { Router } from '../../../../src/policy/routing/router.js';
import type { RequestTrace } from '../../../../src/observability/tracing/request-trace.js';
import { createAnthropicProvider } from '../../../../src/providers/anthropic/anthropic-provider.js';
import type { UpstreamResponse } from '../../../../src/upstream/exchange.js';
import { Cancellation } from '../../../../src/upstream/cancellation.js';
import { startServer } from '../../../helpers/http-server.js';
import { PASSED_ON, recordingMetrics, runtimeWith, stageServer } from './stage-context.js';

const sonnet = DEFAULT_MODELS.find((m) => m.id === 'claude-sonnet-4-6')!;
const UPSTREAM_KEY = 'sk-ant-api03-respondTestKey0123456789';
const NOW = Date.UTC(2026, 10, 28, 12);
const ALIAS = 'sonnet';

/** How the scripted provider answers the next request. */
type Script = (res: ServerResponse) => void;

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Script => (res) =>
  void res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
const MESSAGE = { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6-20260217', content: [{ type: 'text', text: 'Hello there!' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 11, output_tokens: 6 } };

const sse = (events: ReadonlyArray<Record<string, unknown>>) => events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join('');
const START = [
  { type: 'message_start', message: { ...MESSAGE, content: [], stop_reason: null, usage: { input_tokens: 11, output_tokens: 1 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' there!' } },
];
const END = [
  { type: 'content_block_stop', index: 0 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 6 } },
  { type: 'message_stop' },
];
const streamed = (text: string, then: 'end' | 'cut' | 'hold' = 'end'): Script => (res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  if (then === 'end') res.end(text);
  else if (then === 'cut') res.write(text, () => res.destroy());
  else res.write(text);
};

async function rig(t: Test) {
  let script: Script = json(200, MESSAGE);
  const upstream = await startServer(t, async (req, res) => {
    for await (const chunk of req) void chunk;
    script(res);
  });
  const provider = createAnthropicProvider('anthropic', { baseUrl: upstream.url, apiKey: UPSTREAM_KEY }, { connections: 4, connectTimeoutMs: 2000, headersTimeoutMs: 5000, bodyTimeoutMs: 5000 });
  t.teardown(() => provider.client.destroy());
  const routes = new RouteTable({ providers: [provider], named: false, configured: new Map(), breaker: { minCalls: 100, failurePercent: 50, windowMs: 60_000, coolDownMs: 60_000 } });
  const router = new Router(routes, new RetryPolicy({ attempts: 1, baseDelayMs: 0, maxDelayMs: 0, retryAfterCapMs: 1000, deadlineMs: 30_000 }, () => 0), { resolve: () => null }, { retry: () => {}, upstreamError: () => {} });
  const metrics = recordingMetrics();
  const logged: string[] = [];
  const logger = { warn: (_fields: unknown, message: string) => void logged.push(message) } as unknown as Logger;
  const translators = new Translators([messagesToAnthropic, chatToAnthropic, responsesToAnthropic]);
  const rt = runtimeWith({ metrics, translators, wallClock: () => NOW, router, logger });
  const state = routes.routesOf(sonnet)[0]!;
  return {
    rt,
    state,
    metrics,
    logged,
    /**
     * The provider's answer to `next`, as the connection pool hands it to call-upstream; `cancellation`
     * stops it as the request's own would (call-upstream passes the context's).
     */
    async answer(next: Script, stream: boolean, cancellation?: Cancellation): Promise<UpstreamResponse> {
      script = next;
      const body = JSON.stringify({ model: sonnet.id, max_tokens: 64, stream, messages: [{ role: 'user', content: 'hi' }] });
      const request = await provider.request({ operation: 'messages', body, forwarded: false, bodyModel: sonnet.id, model: sonnet.id, modelNamed: false, stream, query: '', incoming: {} });
      return provider.client.exchange(request, cancellation);
    },
  };
}

const ROUTES: Record<ClientDialect, Partial<RouteInfo>> = {
  messages: { name: '/v1/messages', surface: 'messages', errorFormat: 'messages' },
  chat: { name: '/openai/v1/chat/completions', surface: 'chat', errorFormat: 'chat' },
  responses: { name: '/openai/v1/responses', surface: 'responses', errorFormat: 'chat' },
};

/** The context as call-upstream leaves it for this answer. */
const answered = (r: Awaited<ReturnType<typeof rig>>, upstream: UpstreamResponse, stream: boolean, more: (ctx: RequestContext) => void = () => {}) => (ctx: RequestContext) => {
  ctx.headers['x-request-id'] = ctx.id;
  ctx.upstreamResponse = upstream;
  ctx.servedRoute = r.state.route;
  ctx.requestedModel = ALIAS;
  ctx.model = sonnet;
  ctx.stream = stream;
  ctx.json = { model: ALIAS, max_tokens: 64, stream, messages: [{ role: 'user', content: 'hi' }], input: 'hi' };
  ctx.body = Buffer.from(JSON.stringify(ctx.json));
  more(ctx);
};

t.test('no answer on the context (the client left before one came): nothing is answered', async (t) => {
  const r = await rig(t);
  const server = await stageServer(t, respondStage(r.rt, 'messages'), ROUTES.messages);
  const { response, thrown } = await server.ask();
  t.equal(thrown, null);
  t.equal(response.status, PASSED_ON);
});

t.test('a whole answer, in each surface\'s format, with the collected headers; usage written', async (t) => {
  const r = await rig(t);
  const cases: Array<[ClientDialect, (body: Record<string, unknown>) => void]> = [
    ['messages', (body) => t.same(body, MESSAGE, 'messages: the provider\'s answer as it came')],
    ['chat', (body) => t.match(body, { object: 'chat.completion', model: ALIAS, choices: [{ index: 0, message: { role: 'assistant', content: 'Hello there!' }, finish_reason: 'stop' }], usage: { prompt_tokens: 11, completion_tokens: 6, total_tokens: 17 } }, 'chat: a chat completion under the name the client used')],
    ['responses', (body) => t.match(body, { object: 'response', status: 'completed', model: ALIAS, output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello there!' }] }], usage: { input_tokens: 11, output_tokens: 6 } }, 'responses: a response object')],
  ];
  for (const [dialect, check] of cases) {
    const server = await stageServer(t, respondStage(r.rt, dialect), ROUTES[dialect]);
    const upstream = await r.answer(json(200, MESSAGE), false);
    const { response, ctx, thrown } = await server.ask({}, answered(r, upstream, false));
    t.equal(thrown, null, dialect);
    t.equal(response.status, 200, dialect);
    t.equal(response.headers['x-request-id'], 'req-1', `${dialect}: the collected headers`);
    check(response.json());
    t.match(ctx.usage, { input: 11, output: 6 }, `${dialect}: usage`);
    t.equal(ctx.usageSeen, true);
    t.equal(ctx.answer, null, `${dialect}: no answer facts gathered for an unsampled request`);
  }
});

t.test('a kept span gets the answer\'s own facts', async (t) => {
  const r = await rig(t);
  const server = await stageServer(t, respondStage(r.rt, 'chat'), ROUTES.chat);
  const trace: RequestTrace = { recording: true, traceId: null, attempt: () => ({ inject() {}, end() {} }), end() {} };
  const upstream = await r.answer(json(200, MESSAGE), false);
  const { ctx } = await server.ask({}, answered(r, upstream, false, (ctx) => (ctx.trace = trace)));
  t.same(ctx.answer, { id: 'msg_1', model: 'claude-sonnet-4-6-20260217', finishReason: 'end_turn' });
});

t.test('the provider\'s error: its status, in the surface\'s error shape, its credential never echoed', async (t) => {
  const r = await rig(t);
  const error = { type: 'error', error: { type: 'invalid_request_error', message: `bad request for key ${UPSTREAM_KEY}` } };
  for (const dialect of ['messages', 'chat'] as const) {
    const server = await stageServer(t, respondStage(r.rt, dialect), ROUTES[dialect]);
    const upstream = await r.answer(json(400, error), false);
    const { response } = await server.ask({}, answered(r, upstream, false));
    t.equal(response.status, 400, dialect);
    t.notMatch(response.text, UPSTREAM_KEY, `${dialect}: the upstream key is scrubbed`);
    if (dialect === 'messages') t.match(response.json(), { type: 'error', error: { type: 'invalid_request_error' } });
    else t.match(response.json(), { error: { type: 'invalid_request_error', message: /bad request for key/ } });
  }
});

t.test('a 429 when every route was out of headroom: retry-after until the first is free, not the provider\'s', async (t) => {
  const r = await rig(t);
  const server = await stageServer(t, respondStage(r.rt, 'chat'), ROUTES.chat);
  const upstream = await r.answer(json(429, { type: 'error', error: { type: 'rate_limit_error', message: 'slow' } }, { 'retry-after': '3', 'retry-after-ms': '3000' }), false);
  const { response } = await server.ask({}, answered(r, upstream, false, (ctx) => (ctx.retryAt = NOW + 42_000)));
  t.equal(response.status, 429);
  t.equal(response.headers['retry-after'], '42');
  t.equal(response.headers['retry-after-ms'], undefined);
  t.match(response.json(), { error: { type: 'rate_limit_error' } });
});

t.test('a stream, relayed in each surface\'s format; usage and the first token written; counted open and closed', async (t) => {
  const r = await rig(t);
  const events = sse([...START, ...END]);
  const cases: Array<[ClientDialect, (text: string) => void]> = [
    ['messages', (text) => t.equal(text, events, 'messages: the provider\'s events as they came')],
    ['chat', (text) => {
      t.match(text, /^data: \{"id":"chatcmpl-[^"]*","object":"chat\.completion\.chunk"/);
      t.match(text, /"content":"Hello"/);
      t.match(text, /"finish_reason":"stop"/);
      t.match(text, /data: \[DONE\]\n\n$/);
    }],
    ['responses', (text) => {
      t.match(text, /^event: response\.created\n/);
      t.match(text, /event: response\.output_text\.delta\n/);
      t.match(text, /event: response\.completed\n/);
    }],
  ];
  for (const [dialect, check] of cases) {
    r.metrics.calls.length = 0;
    const server = await stageServer(t, respondStage(r.rt, dialect), ROUTES[dialect]);
    const upstream = await r.answer(streamed(events), true);
    t.equal(upstream.kind, 'stream');
    const { response, ctx } = await server.ask({}, answered(r, upstream, true));
    t.equal(response.status, 200, dialect);
    t.match(response.headers['content-type'], /^text\/event-stream/, dialect);
    t.equal(response.headers['x-request-id'], 'req-1');
    check(response.text);
    t.match(ctx.usage, { input: 11, output: 6 }, `${dialect}: usage`);
    t.ok(ctx.firstTokenAt !== null, `${dialect}: first token time`);
    t.equal(ctx.outcome, null, `${dialect}: complete`);
    t.same(r.metrics.calls, [`streamOpened("${dialect}")`, `streamClosed("${dialect}")`]);
  }
});

t.test('a stream broken off: closed with the surface\'s error, the outcome and error type written', async (t) => {
  const r = await rig(t);
  const server = await stageServer(t, respondStage(r.rt, 'messages'), ROUTES.messages);
  const upstream = await r.answer(streamed(sse(START), 'cut'), true);
  const { response, ctx } = await server.ask({}, answered(r, upstream, true));
  t.equal(response.status, 200, 'the head was already sent');
  t.match(response.text, /event: error\ndata: \{"type":"error","error":\{"type":"api_error"/);
  t.same([ctx.outcome, ctx.errorType], ['upstream_error', 'stream_interrupted']);
  t.equal(r.state.coolingAt(Date.now()), null, 'a cut says nothing of capacity: the route does not cool down');
});

t.test('a stream the provider ends with an overload: the route cools down for the next requests', async (t) => {
  const r = await rig(t);
  const server = await stageServer(t, respondStage(r.rt, 'chat'), ROUTES.chat);
  const upstream = await r.answer(streamed(sse([...START, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }])), true);
  const { ctx, response } = await server.ask({}, answered(r, upstream, true));
  t.match(response.text, /overloaded/i, 'the client is told');
  t.equal(ctx.outcome, 'upstream_error');
  t.ok(r.state.coolingAt(Date.now()) !== null, 'the route cools down');
  t.same(r.logged, ['a stream broke off with a throttle or overload: the route cools down']);
});

t.test('a client leaving mid-stream: the outcome says so, metered at least at what it received', async (t) => {
  const r = await rig(t);
  const server = await stageServer(t, respondStage(r.rt, 'messages'), ROUTES.messages);
  const exchange = new Cancellation();
  const upstream = await r.answer(streamed(sse(START), 'hold'), true, exchange);
  // The exchange was made before the request's context existed: the context's cancellation stops it.
  const run = server.expect(answered(r, upstream, true, (ctx) => ctx.cancellation.onCancel(exchange)));
  const controller = new AbortController();
  const res = await request(`${server.url}/v1/messages`, { signal: controller.signal });
  for await (const chunk of res.body) {
    if ((chunk as Buffer).toString('utf8').includes('there!')) break;
  }
  controller.abort();
  const { ctx, thrown } = await run;
  t.equal(thrown, null);
  t.equal(ctx.outcome, 'client_cancelled');
  t.ok(ctx.usage.output >= 1, `output metered: ${ctx.usage.output}`);
  t.equal(ctx.usage.input, 11, 'the input the provider reported');
  t.equal(ctx.usageSeen, true);
});
