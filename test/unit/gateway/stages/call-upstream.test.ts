// The call-upstream stage alone, through the real router to a scripted provider: a real node:http
// server on 127.0.0.1 answering per model. It reads the model, the translated call, the principal,
// the seed and the cancellation; writes the answer (ctx.upstreamResponse, its route and times), the
// served-model header, the model that served when a fallback did, ctx.retryAt on a 429, the outcome
// and the failure's error type; answers nothing itself on an answer (the respond stage does), and
// throws the error table's 502 / 503 / 429 when no answer came. A failure while a later stage reads
// the answer becomes the upstream's error; the answer's stream never stays open.
import t from 'tap';
import type { Test } from 'tap';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { callUpstreamStage, SERVED_MODEL_HEADER } from '../../../../src/gateway/stages/call-upstream.js';
import type { Next } from '../../../../src/gateway/compose.js';
import type { RequestContext } from '../../../../src/gateway/context.js';
import { DEFAULT_MODELS, type CatalogModel } from '../../../../src/catalog/model.js';
import type { BreakerSettings } from '../../../../src/config/config.js';
import { RetryPolicy } from '../../../../src/policy/resilience/retry-policy.js';
import { RouteTable } from '../../../../src/policy/routing/route-table.js';
import { Router, type DialectCall } from '../../../../src/policy/routing/router.js';
import { createAnthropicProvider } from '../../../../src/providers/anthropic/anthropic-provider.js';
import { CredentialError } from '../../../../src/providers/credential-error.js';
import type { Provider } from '../../../../src/providers/provider.js';
import { collectAnswer } from '../../../../src/upstream/answer-stream.js';
import { closedPort } from '../../../helpers/ports.js';
import { closeOf, gate, startServer } from '../../../helpers/http-server.js';
import { recordingMetrics, recordingNext, runtimeWith, stageContext } from './stage-context.js';

const sonnet = DEFAULT_MODELS.find((m) => m.id === 'claude-sonnet-4-6')!;
/** Opus, falling back to Sonnet as a models file may say. */
const opus: CatalogModel = { ...DEFAULT_MODELS.find((m) => m.id === 'claude-opus-4-7')!, fallbacks: [sonnet.id] };
const catalogue = { resolve: (name: string) => (name === opus.id ? opus : name === sonnet.id ? sonnet : null) };
const BREAKER: BreakerSettings = { minCalls: 100, failurePercent: 50, windowMs: 60_000, coolDownMs: 60_000 };
/** Upstream retry-after hints up to 1 s are waited for; longer ones go back to the client. */
const RETRY_AFTER_CAP_MS = 1000;

/** How the scripted provider answers a request for a model. */
type Script = (model: string, res: ServerResponse, req: IncomingMessage) => void;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => (res: ServerResponse) =>
  void res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
const answer = { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'hi' }], usage: { input_tokens: 3, output_tokens: 1 } };
const overloaded = { type: 'error', error: { type: 'overloaded_error', message: 'busy' } };

interface Rig {
  stage: ReturnType<typeof callUpstreamStage>;
  metrics: ReturnType<typeof recordingMetrics>;
  logged: string[];
  /** Models the provider was asked for, in order. */
  asked: string[];
}

async function rig(t: Test, script: Script | { baseUrl: string }, opts: { breaker?: Partial<BreakerSettings>; allowFallback?: boolean; provider?: (p: Provider) => Provider } = {}): Promise<Rig> {
  const asked: string[] = [];
  let baseUrl: string;
  if ('baseUrl' in script) baseUrl = script.baseUrl;
  else {
    const upstream = await startServer(t, async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const model = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string }).model;
      asked.push(model);
      script(model, res, req);
    });
    baseUrl = upstream.url;
  }
  const real = createAnthropicProvider('anthropic', { baseUrl, apiKey: 'sk-test' }, { connections: 4, connectTimeoutMs: 2000, headersTimeoutMs: 5000, bodyTimeoutMs: 5000 });
  t.teardown(() => real.client.destroy());
  const provider = opts.provider?.(real) ?? real;
  const metrics = recordingMetrics();
  const routes = new RouteTable({ providers: [provider], named: false, configured: new Map(), breaker: { ...BREAKER, ...opts.breaker } });
  const retry = { attempts: 1, baseDelayMs: 0, maxDelayMs: 0, retryAfterCapMs: RETRY_AFTER_CAP_MS, deadlineMs: 30_000 };
  const router = new Router(routes, new RetryPolicy(retry, () => 0), catalogue, { retry: () => {}, upstreamError: (kind) => metrics.upstreamError(kind) });
  const logged: string[] = [];
  const log = (level: string) => (_fields: unknown, message: string) => void logged.push(`${level}: ${message}`);
  const logger = { debug: log('debug'), warn: log('warn'), error: log('error') } as unknown as Logger;
  const stage = callUpstreamStage(runtimeWith({ metrics, logger, router, wallClock: Date.now }), { allowFallback: opts.allowFallback ?? true });
  return { stage, metrics, logged, asked };
}

/** A context as the translate stage leaves it: the model, and the client's request for any model. */
function translated(model: CatalogModel = sonnet, stream = false): RequestContext {
  const ctx = stageContext();
  ctx.model = model;
  ctx.requestedModel = model.id;
  ctx.stream = stream;
  ctx.callFor = (m): DialectCall => ({ operation: 'messages', body: JSON.stringify({ model: m.id, max_tokens: 8, stream, messages: [{ role: 'user', content: 'hi' }] }), forwarded: false, bodyModel: m.id, stream, query: '', incoming: {} });
  return ctx;
}

const failureOf = async (run: Promise<void>) => run.then(() => null, (e: unknown) => e);

t.test('an answer: written to the context with its route, times and the served-model header; the chain runs', async (t) => {
  const r = await rig(t, (_model, res) => json(200, answer)(res));
  const ctx = translated();
  const next = recordingNext();
  await r.stage(ctx, next);
  t.same(next.calls, [ctx]);
  const response = ctx.upstreamResponse;
  t.equal(response?.kind, 'buffered');
  t.equal(response?.statusCode, 200);
  t.same(response?.kind === 'buffered' ? JSON.parse(response.body.toString('utf8')) : null, answer);
  t.equal(ctx.servedRoute?.name, sonnet.id);
  t.equal(ctx.headers[SERVED_MODEL_HEADER], sonnet.id);
  t.equal(ctx.servedModel, null, 'no fallback served');
  t.ok(ctx.upstreamSentAt !== null && ctx.upstreamHeadersAt !== null && ctx.upstreamHeadersAt >= ctx.upstreamSentAt, 'dispatch and headers times');
  t.same([ctx.outcome, ctx.errorType, ctx.retryAt], [null, null, null]);
  t.same(r.asked, [sonnet.id]);
});

t.test('a fallback answers: the model that served is written and named in the header', async (t) => {
  const r = await rig(t, (model, res) => (model === opus.id ? json(529, overloaded)(res) : json(200, answer)(res)));
  const ctx = translated(opus);
  await r.stage(ctx, recordingNext());
  t.same(r.asked, [opus.id, sonnet.id]);
  t.equal(ctx.servedModel, sonnet);
  t.equal(ctx.headers[SERVED_MODEL_HEADER], sonnet.id);
  t.equal(ctx.upstreamResponse?.statusCode, 200);
});

t.test('the provider\'s own error answers go on to the respond stage, their outcome and error type written', async (t) => {
  const cases: Array<[string, Script, number, string, number | null]> = [
    ['a 400', (_m, res) => json(400, { type: 'error', error: { type: 'invalid_request_error', message: 'no' } })(res), 400, 'client_error', null],
    ['a 529 with no fallback allowed', (_m, res) => json(529, overloaded)(res), 529, 'upstream_error', null],
    ['a 429 longer than the cap', (_m, res) => json(429, { type: 'error', error: { type: 'rate_limit_error', message: 'slow' } }, { 'retry-after': '60' })(res), 429, 'upstream_error', 60_000],
  ];
  for (const [name, script, status, outcome, retryInMs] of cases) {
    const r = await rig(t, script, { allowFallback: false });
    const ctx = translated(opus);
    const next = recordingNext();
    const before = Date.now();
    await r.stage(ctx, next);
    t.same(next.calls, [ctx], `${name}: the chain runs`);
    t.equal(ctx.upstreamResponse?.statusCode, status, name);
    t.equal(ctx.outcome, outcome, `${name}: outcome`);
    t.equal(ctx.errorType, String(status), `${name}: the status is the error type`);
    t.same(r.asked, [opus.id], `${name}: no fallback`);
    if (retryInMs === null) t.equal(ctx.retryAt, null, `${name}: no retryAt`);
    else t.ok(ctx.retryAt !== null && ctx.retryAt >= before + retryInMs - 1000 && ctx.retryAt <= Date.now() + retryInMs + 1000, `${name}: retryAt from the provider's retry-after`);
  }
});

t.test('every route cooling down after a 429: 429 rate_limited with retry-after, nothing sent, counted', async (t) => {
  const r = await rig(t, (_m, res) => json(429, { type: 'error', error: { type: 'rate_limit_error', message: 'slow' } }, { 'retry-after': '30' })(res), { allowFallback: false });
  await r.stage(translated(), recordingNext());
  const ctx = translated();
  const next = recordingNext();
  const err = await failureOf(r.stage(ctx, next));
  t.match(err, { code: 'rate_limited', status: 429 });
  const retryAfter = Number((err as { headers: Record<string, string> }).headers['retry-after']);
  t.ok(retryAfter >= 28 && retryAfter <= 30, `retry-after ${retryAfter}: the route's cool-down`);
  t.same(r.asked, [sonnet.id], 'the second request was not sent');
  t.same(next.calls, []);
  t.equal(ctx.outcome, 'upstream_error');
  t.ok(r.metrics.calls.includes('rateLimited("messages", "upstream")'));
});

t.test('the provider refusing the gateway\'s credential: 502 upstream_auth_failed, never a 401, logged', async (t) => {
  for (const status of [401, 403]) {
    const r = await rig(t, (_m, res) => json(status, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } })(res), { allowFallback: false });
    const ctx = translated();
    const next = recordingNext();
    t.match(await failureOf(r.stage(ctx, next)), { code: 'upstream_auth_failed', status: 502, message: 'The gateway could not authenticate with the upstream provider.' }, String(status));
    t.same(next.calls, [], `${status}: the chain stops`);
    t.same([ctx.outcome, ctx.errorType], ['upstream_error', String(status)]);
    t.ok(r.metrics.calls.includes('upstreamError("status")'));
    t.same(r.logged, ['error: the upstream provider refused the gateway credential']);
  }
});

t.test('a provider that cannot make its credential: 502 upstream_auth_failed, nothing sent', async (t) => {
  const r = await rig(t, (_m, res) => json(200, answer)(res), {
    provider: (p) => ({ ...p, request: () => Promise.reject(new CredentialError('token endpoint refused')) }),
  });
  const ctx = translated();
  t.match(await failureOf(r.stage(ctx, recordingNext())), { code: 'upstream_auth_failed' });
  t.same([ctx.outcome, ctx.errorType], ['upstream_error', 'connection_error']);
  t.same(r.asked, []);
});

t.test('no provider to reach: 502 upstream_unreachable; once the circuit is open, 503 upstream_unavailable with retry-after', async (t) => {
  const r = await rig(t, { baseUrl: `http://127.0.0.1:${await closedPort()}` }, { breaker: { minCalls: 1, failurePercent: 50 }, allowFallback: false });
  const first = translated();
  t.match(await failureOf(r.stage(first, recordingNext())), { code: 'upstream_unreachable', status: 502 });
  t.same([first.outcome, first.errorType], ['upstream_error', 'connection_error']);
  t.ok(r.metrics.calls.some((c) => c.startsWith('upstreamError(')), 'counted');
  const second = translated();
  const err = await failureOf(r.stage(second, recordingNext()));
  t.match(err, { code: 'upstream_unavailable', status: 503, message: /Every recent call for the model "claude-sonnet-4-6" failed/ });
  const retryAfter = Number((err as { headers: Record<string, string> }).headers['retry-after']);
  t.ok(retryAfter > 0 && retryAfter <= 60, `retry-after ${retryAfter}: until the circuit lets a probe through`);
  t.equal(second.outcome, 'upstream_error');
});

t.test('a client already gone: nothing sent, nothing thrown, the outcome says so', async (t) => {
  const r = await rig(t, (_m, res) => json(200, answer)(res));
  const ctx = translated();
  ctx.cancellation.cancel();
  const next = recordingNext();
  await r.stage(ctx, next);
  t.equal(ctx.outcome, 'client_cancelled');
  t.same(next.calls, []);
  t.same(r.asked, []);
});

t.test('a stream broken off while the next stage reads it: the upstream\'s error, counted and logged', async (t) => {
  const r = await rig(t, (_m, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: message_start\ndata: {}\n\n');
    setImmediate(() => res.destroy());
  });
  const ctx = translated(sonnet, true);
  const reading: Next = async (ctx) => {
    const response = ctx.upstreamResponse;
    if (response?.kind !== 'stream') throw new Error('expected a stream');
    await collectAnswer(response.body, 1 << 20);
  };
  const err = await failureOf(r.stage(ctx, reading));
  t.match(err, { code: 'upstream_bad_response', status: 502, message: /broke before the response was complete/ });
  t.same([ctx.outcome, ctx.errorType], ['upstream_error', 'stream_interrupted']);
  t.ok(r.metrics.calls.some((c) => c.startsWith('upstreamError(')));
  t.same(r.logged, ['warn: the upstream answer failed while it was read']);
});

t.test('an answer that is not JSON, found by the next stage: 502 upstream_bad_response; other errors go on as they are', async (t) => {
  const r = await rig(t, (_m, res) => json(200, answer)(res));
  const ctx = translated();
  const err = await failureOf(r.stage(ctx, async () => void JSON.parse('{not json')));
  t.match(err, { code: 'upstream_bad_response', message: 'The upstream provider sent a response that is not valid JSON.' });
  t.same([ctx.outcome, ctx.errorType], ['upstream_error', null]);
  t.ok(r.metrics.calls.includes('upstreamError("protocol")'));

  const bug = new TypeError('a bug in a later stage');
  t.equal(await failureOf(r.stage(translated(), recordingNext(bug))), bug);
});

t.test('a streamed answer the next stage left unread is closed, not left open', async (t) => {
  const upstreamClosed = gate<{ finished: boolean }>();
  const r = await rig(t, (_m, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: ping\ndata: {}\n\n');
    void closeOf(res).then((c) => upstreamClosed.open(c));
  });
  const ctx = translated(sonnet, true);
  await r.stage(ctx, recordingNext());
  t.equal(ctx.upstreamResponse?.kind, 'stream');
  t.same(await upstreamClosed.promise, { finished: false }, 'the provider saw its connection closed mid-answer');
});

t.test('called with no translated request: a bug, said so', async (t) => {
  const r = await rig(t, (_m, res) => json(200, answer)(res));
  const ctx = stageContext();
  await t.rejects(r.stage(ctx, recordingNext()), /no request was translated/);
});
