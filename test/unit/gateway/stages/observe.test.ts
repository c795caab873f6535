// The observe stage alone, on a real server, around a `next` that answers as the later stages would
// (writing the principal, the model, the usage, the served route, the outcome onto the context). It
// reads all of that and the response's status once the response is over; writes the request's trace
// span (model surfaces, tracing on); answers nothing itself. What it produces: the metrics calls, one
// usage record for a model request of a known key, and one access line (the real access log).
import t from 'tap';
import type { Test } from 'tap';
import { PassThrough } from 'node:stream';
import { observeStage } from '../../../../src/gateway/stages/observe.js';
import type { Next } from '../../../../src/gateway/compose.js';
import type { RequestContext, RouteInfo } from '../../../../src/gateway/context.js';
import { DEFAULT_MODELS } from '../../../../src/catalog/model.js';
import { createLogging } from '../../../../src/observability/logger.js';
import type { RequestObservation } from '../../../../src/observability/request-observation.js';
import type { RequestFacts, RequestTrace, Tracing } from '../../../../src/observability/tracing/request-trace.js';
import type { UsageRecord } from '../../../../src/metering/usage-store.js';
import type { UsageWriter } from '../../../../src/metering/usage-writer.js';
import { requestCost } from '../../../../src/metering/cost.js';
import { makeRoute } from '../../../../src/policy/routing/route.js';
import { createAnthropicProvider } from '../../../../src/providers/anthropic/anthropic-provider.js';
import { closedPort } from '../../../helpers/ports.js';
import { principal, recordingMetrics, runtimeWith, stageServer } from './stage-context.js';

const opus = DEFAULT_MODELS.find((m) => m.id === 'claude-opus-4-7')!;
const sonnet = DEFAULT_MODELS.find((m) => m.id === 'claude-sonnet-4-6')!;
const USAGE = { input: 100, output: 20, cacheRead: 3, cacheWrite: 4 };

/** A trace that keeps the facts it was ended with. */
function recordingTracing(enabled: boolean) {
  const ended: RequestFacts[] = [];
  const started: string[] = [];
  const trace: RequestTrace = { recording: true, traceId: 'a'.repeat(32), attempt: () => ({ inject() {}, end() {} }), end: (facts) => void ended.push(facts) };
  const tracing: Tracing = {
    enabled,
    startRequest: (headers) => (started.push(String(headers.traceparent)), trace),
    shutdown: async () => {},
  };
  return { tracing, trace, started, ended };
}

async function observed(t: Test, route: Partial<RouteInfo>, tracingOn = false) {
  const metrics = recordingMetrics();
  const records: UsageRecord[] = [];
  const usage = { record: (r: UsageRecord) => void records.push(r) } as UsageWriter;
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const { access } = createLogging({ level: 'info', destination: out });
  const tracing = recordingTracing(tracingOn);
  const server = await stageServer(t, observeStage(runtimeWith({ metrics, usage, accessLog: access, tracing: tracing.tracing })), route);
  const accessLines = () => new Promise<Array<Record<string, unknown>>>((r) => setImmediate(() => r(text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>))));
  return { server, metrics, records, tracing, accessLines };
}

/** A `next` answering `status` after writing what the later stages of a served model request write. */
function answering(status: number, shape: (ctx: RequestContext) => void = () => {}): Next {
  return async (ctx) => {
    ctx.principal = principal();
    ctx.requestedModel = opus.id;
    ctx.model = opus;
    ctx.usage = { ...ctx.usage, ...USAGE };
    ctx.usageSeen = true;
    shape(ctx);
    ctx.res.writeHead(status).end();
  };
}

const finishedOf = (metrics: ReturnType<typeof recordingMetrics>) => metrics.received.filter((c) => c.name === 'requestFinished').map((c) => c.args[0] as RequestObservation);

t.test('a served model request: started and finished metrics, its cost, one usage record, one access line', async (t) => {
  const { server, metrics, records, accessLines } = await observed(t, { name: '/v1/messages', surface: 'messages' });
  const { thrown } = await server.ask({ method: 'POST', body: '{}' }, undefined, answering(200));
  t.equal(thrown, null);
  t.same(metrics.calls[0], 'requestStarted("messages")', 'counted as it starts');
  const [finished, ...more] = finishedOf(metrics);
  t.same(more, []);
  t.match(finished, { surface: 'messages', model: opus.id, customer: 'acme', status: 200, outcome: 'ok', usage: USAGE, streamed: false, upstreamHeadersSec: null, ttftSec: null, traceId: null });
  t.ok(finished !== undefined && finished.durationSec >= 0);
  const cost = requestCost({ ...USAGE, cacheWrite1h: 0, webSearches: 0 }, opus.prices);
  t.ok(metrics.calls.includes(`spent("${opus.id}", "acme", ${JSON.stringify(cost)})`), 'the cost at the model\'s prices');
  t.equal(records.length, 1);
  t.match(records[0], { requestId: 'req-1', customerId: 'cust-1', keyId: 'key-1', model: opus.id, provider: null, surface: 'messages', inputTokens: 100, outputTokens: 20, cacheReadTokens: 3, cacheWriteTokens: 4, costNanoUsd: cost.nanoUsd, status: 200, outcome: 'ok' });
  t.notOk('estimated' in (records[0] ?? {}), 'reported tokens are not marked estimated');
  const lines = await accessLines();
  t.equal(lines.length, 1);
  t.match(lines[0], { reqId: 'req-1', surface: 'messages', method: 'POST', path: '/v1/messages', model: opus.id, customer: 'acme', keyId: 'key-1', status: 200, outcome: 'ok', stream: false, tokens: USAGE });
});

t.test('a fallback through a route with its own prices: recorded as the model and the provider that served', async (t) => {
  const provider = createAnthropicProvider('anthropic-eu', { baseUrl: `http://127.0.0.1:${await closedPort()}`, apiKey: 'sk-test' }, { connections: 1, connectTimeoutMs: 1000, headersTimeoutMs: 1000, bodyTimeoutMs: 1000 });
  t.teardown(() => provider.client.destroy());
  const prices = { input: 7, output: 11, cacheRead: 1, cacheWrite: 2 };
  const route = makeRoute({ model: sonnet.id, provider, providerModel: null, weight: 1, priority: 0, prices }, `${sonnet.id}@anthropic-eu`);
  const { server, metrics, records } = await observed(t, { name: '/openai/v1/chat/completions', surface: 'chat', errorFormat: 'chat' });
  await server.ask({}, undefined, answering(200, (ctx) => ((ctx.servedModel = sonnet), (ctx.servedRoute = route), (ctx.usageEstimated = true))));
  const cost = requestCost({ ...USAGE, cacheWrite1h: 0, webSearches: 0 }, prices);
  t.ok(metrics.calls.includes(`spent("${sonnet.id}", "acme", ${JSON.stringify(cost)})`));
  t.match(records, [{ model: sonnet.id, provider: 'anthropic-eu', surface: 'chat', costNanoUsd: cost.nanoUsd, estimated: true }]);
  t.match(finishedOf(metrics), [{ model: opus.id }], 'the request metric keeps the model asked for');
});

t.test('the outcome: from the status, unless a stage set one, and a client that left wins', async (t) => {
  const { server, metrics, records } = await observed(t, { name: '/v1/messages', surface: 'messages' });
  const cases: Array<[string, number, (ctx: RequestContext) => void, string]> = [
    ['200', 200, () => {}, 'ok'],
    ['a 4xx', 400, () => {}, 'client_error'],
    ['a 5xx', 502, () => {}, 'upstream_error'],
    ['a 429 the upstream sent', 429, (ctx) => (ctx.outcome = 'upstream_error'), 'upstream_error'],
    ['the client left', 200, (ctx) => ctx.cancellation.cancel(), 'client_cancelled'],
  ];
  for (const [name, status, shape, outcome] of cases) {
    metrics.received.length = 0;
    records.length = 0;
    await server.ask({}, undefined, answering(status, shape));
    t.match(finishedOf(metrics), [{ status, outcome }], name);
    t.match(records, [{ status, outcome }], `${name}: the usage record agrees`);
  }
});

t.test('no usage record without a key or a model, or off the model surfaces; the access line always', async (t) => {
  const cases: Array<[string, Partial<RouteInfo>, Next]> = [
    ['a refused key', { surface: 'messages' }, async (ctx) => void ctx.res.writeHead(401).end()],
    ['no model resolved', { surface: 'chat' }, answering(400, (ctx) => (ctx.model = null))],
    ['the models list', { name: '/v1/models', surface: 'models' }, answering(200)],
  ];
  for (const [name, route, next] of cases) {
    const { server, metrics, records, accessLines } = await observed(t, route);
    await server.ask({}, undefined, next);
    t.same(records, [], `${name}: no usage record`);
    t.notOk(metrics.calls.some((c) => c.startsWith('spent(')), `${name}: nothing spent`);
    t.equal((await accessLines()).length, 1, `${name}: one access line`);
  }
  const { server, metrics, accessLines } = await observed(t, { surface: 'messages' });
  await server.ask({}, undefined, async (ctx) => void ctx.res.writeHead(401).end());
  t.match(finishedOf(metrics), [{ model: 'other', customer: 'none', status: 401, outcome: 'client_error' }]);
  const [line] = await accessLines();
  t.notOk(line !== undefined && ('customer' in line || 'tokens' in line), 'no customer and no tokens on the line');
});

t.test('a later stage throwing: the error goes on, the request is still counted and logged once', async (t) => {
  const { server, metrics, accessLines } = await observed(t, { surface: 'messages' });
  const failure = new Error('a bug below the error boundary');
  const { thrown } = await server.ask({}, undefined, async () => {
    throw failure;
  });
  t.equal(thrown, failure);
  t.equal(finishedOf(metrics).length, 1);
  t.equal((await accessLines()).length, 1);
});

t.test('translation warnings are counted by kind', async (t) => {
  const { server, metrics } = await observed(t, { surface: 'chat' });
  await server.ask({}, undefined, answering(200, (ctx) => (ctx.warnings = [{ kind: 'field_ignored', detail: 'seed' }, { kind: 'n_reduced', detail: 'n' }])));
  t.ok(metrics.calls.includes('translationWarning("field_ignored")'));
  t.ok(metrics.calls.includes('translationWarning("n_reduced")'));
});

t.test('tracing on: a span for every model request (messages, chat, responses), ended with what the request was; none for others', async (t) => {
  const asked = { messages: { max_tokens: 40 }, chat: { max_completion_tokens: 50, temperature: 0.5 }, responses: { max_output_tokens: 30 } };
  const maxTokens = { messages: 40, chat: 50, responses: 30 };
  for (const surface of ['messages', 'chat', 'responses'] as const) {
    const { server, metrics, tracing } = await observed(t, { surface, errorFormat: surface === 'messages' ? 'messages' : 'chat' }, true);
    const { ctx } = await server.ask({ headers: { traceparent: 'parent-1' } }, undefined, answering(200, (ctx) => {
      ctx.json = asked[surface];
      ctx.answer = { id: 'msg_1', model: 'claude-opus-4-7-20260416', finishReason: 'end_turn' };
    }));
    t.equal(ctx.trace, tracing.trace, `${surface}: the span is on the context for the later stages`);
    t.same(tracing.started, ['parent-1'], `${surface}: the client's trace context continued`);
    t.match(tracing.ended, [{ surface, requestModel: opus.id, responseModel: 'claude-opus-4-7-20260416', responseId: 'msg_1', finishReason: 'end_turn', maxTokens: maxTokens[surface], temperature: surface === 'chat' ? 0.5 : null, usage: USAGE, status: 200, errorType: null, customer: 'acme', keyId: 'key-1', route: null }], surface);
    t.match(finishedOf(metrics), [{ traceId: 'a'.repeat(32) }], `${surface}: the trace id for exemplars`);
  }
  for (const surface of ['models', 'other'] as const) {
    const { server, tracing } = await observed(t, { surface }, true);
    await server.ask({}, undefined, answering(200));
    t.same([tracing.started, tracing.ended], [[], []], `${surface}: not traced (docs/tracing.md)`);
  }
});

t.test('the span\'s error type: a client that left, else what a stage recorded, else a 5xx; a 4xx is no failure', async (t) => {
  const cases: Array<[string, number, (ctx: RequestContext) => void, string | null]> = [
    ['the client left', 200, (ctx) => ctx.cancellation.cancel(), 'client_cancelled'],
    ['a recorded upstream failure', 502, (ctx) => (ctx.errorType = 'timeout'), 'timeout'],
    ['a 5xx of the gateway', 500, () => {}, '500'],
    ['a 4xx', 400, () => {}, null],
  ];
  for (const [name, status, shape, errorType] of cases) {
    const { server, tracing } = await observed(t, { surface: 'messages' }, true);
    await server.ask({}, undefined, answering(status, shape));
    t.match(tracing.ended, [{ status, errorType }], name);
  }
});
