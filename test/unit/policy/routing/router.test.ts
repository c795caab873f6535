// The router against the real simulator over real sockets, one route per model (a gateway without
// configured providers): retries, fallbacks, the circuit breaker, deadlines and cancellation. The
// failover between several routes has its own tests (failover.test.ts).
import t from 'tap';
import type { Test } from 'tap';
import type { CatalogModel } from '../../../../src/catalog/model.js';
import { DEFAULT_MODELS } from '../../../../src/catalog/model.js';
import type { BreakerSettings, RetrySettings } from '../../../../src/config/config.js';
import { RetryPolicy } from '../../../../src/policy/resilience/retry-policy.js';
import { RouteTable } from '../../../../src/policy/routing/route-table.js';
import type { RouteOutcome } from '../../../../src/policy/routing/router.js';
import { Router } from '../../../../src/policy/routing/router.js';
import { createAnthropicProvider } from '../../../../src/providers/anthropic/anthropic-provider.js';
import { startSimulator } from '../../../../src/apps/simulator/index.js';
import type { Simulator } from '../../../../src/apps/simulator/index.js';
import { Cancellation } from '../../../../src/upstream/cancellation.js';
import { ExchangeCancelled } from '../../../../src/upstream/exchange.js';
import { closedPort } from '../../../integration/resilience/fixtures/closed-port.js';
import type { RequestTrace } from '../../../../src/observability/tracing/request-trace.js';

const models = new Map<string, CatalogModel>(DEFAULT_MODELS.map((m) => [m.id, m]));
const catalogue = { resolve: (name: string) => models.get(name) ?? null };
const opus = models.get('claude-opus-4-7')!;
const sonnet = models.get('claude-sonnet-4-6')!;

const RETRY: RetrySettings = { attempts: 3, baseDelayMs: 0, maxDelayMs: 0, retryAfterCapMs: 5000, deadlineMs: 30_000 };

interface Rig {
  sim: Simulator;
  routes: RouteTable;
  events: string[];
  call(model?: CatalogModel, opts?: { cancellation?: Cancellation; allowFallback?: boolean; allowed?: Set<string>; trace?: RequestTrace }): Promise<RouteOutcome>;
}

async function rig(t: Test, retry: Partial<RetrySettings> = {}, breaker: Partial<BreakerSettings> = {}, baseUrl?: string): Promise<Rig> {
  const sim = await startSimulator({ port: 0, host: '127.0.0.1', record: true });
  const provider = createAnthropicProvider('anthropic', { baseUrl: baseUrl ?? sim.url, apiKey: 'sk-test' }, { connections: 4, connectTimeoutMs: 2000, headersTimeoutMs: 5000, bodyTimeoutMs: 5000 });
  t.teardown(async () => {
    await provider.client.destroy();
    await sim.close();
  });
  const events: string[] = [];
  const settings: BreakerSettings = { minCalls: 100, failurePercent: 50, windowMs: 60_000, coolDownMs: 60_000, ...breaker };
  const routes = new RouteTable({ providers: [provider], named: false, configured: new Map(), breaker: settings, onBreakerChange: (route, s) => events.push(`state:${route}:${s}`) });
  const router = new Router(routes, new RetryPolicy({ ...RETRY, ...retry }, () => 0), catalogue, {
    retry: (reason) => events.push(`retry:${reason}`),
    upstreamError: (kind) => events.push(`error:${kind}`),
    fallback: (from, to, status) => events.push(`fallback:${from}>${to}:${status}`),
  });
  return {
    sim,
    routes,
    events,
    call(model = sonnet, opts = {}) {
      const body = (m: CatalogModel) => JSON.stringify({ model: m.id, max_tokens: 8, messages: [{ role: 'user', content: 'hello' }] });
      const callOf = (m: CatalogModel) => ({ operation: 'messages' as const, body: body(m), forwarded: false, bodyModel: m.id, stream: false, query: '', incoming: {} });
      return router.call({
        model,
        principal: opts.allowed ? { keyId: 'k', customerId: 'c', customerName: 'c', allowedModels: opts.allowed, rpm: null, tpm: null, customerLimits: null, keyBudget: null, customerBudget: null } : null,
        seed: 0,
        session: false,
        cancellation: opts.cancellation ?? new Cancellation(),
        // The gateway translates the client's request again for a fallback; here the model is swapped in.
        callFor: (m) => callOf(m),
        fallbacks: opts.allowFallback !== false,
        trace: opts.trace,
      });
    },
  };
}

async function statusOf(outcome: RouteOutcome): Promise<number | string> {
  if (outcome.kind !== 'response') return outcome.kind;
  if (outcome.response.kind === 'stream') outcome.response.body.cancel(new ExchangeCancelled());
  return outcome.response.statusCode;
}

const modelsSent = (sim: Simulator) => sim.received.map((r) => JSON.parse(r.body.toString('utf8')).model as string);
const breakerOf = (r: Rig, m: CatalogModel) => r.routes.routesOf(m)[0]!.breaker;
const states = (r: Rig) => Object.fromEntries(r.routes.all().map((s) => [s.route.name, s.breaker.state]));

t.test('a transient status is retried, then the answer is the good one', async (t) => {
  const r = await rig(t);
  r.sim.injectFault({ kind: 'status', status: 529, errorType: 'overloaded_error', retryAfter: 0 });
  t.equal(await statusOf(await r.call()), 200);
  t.same(r.events.filter((e) => !e.startsWith('state')), ['error:status', 'retry:529']);
  t.equal(r.sim.received.length, 2);
});

/** A request trace that writes down what the attempt loop tells it, and marks each attempt's request. */
function recordingTrace(): { trace: RequestTrace; seen: string[] } {
  const seen: string[] = [];
  let n = 0;
  const trace: RequestTrace = {
    recording: true,
    traceId: null,
    attempt(route, provider, model) {
      const id = ++n;
      seen.push(`start ${id}: ${route} ${provider} ${model}`);
      return { inject: (headers) => void (headers.traceparent = `attempt-${id}`), end: (result) => void seen.push(`end ${id}: ${result}`) };
    },
    end() {},
  };
  return { trace, seen };
}

t.test('every attempt goes through the trace hook: route, provider, model, its result, and its context upstream', async (t) => {
  const r = await rig(t);
  const { trace, seen } = recordingTrace();
  r.sim.injectFault({ kind: 'status', status: 529, errorType: 'overloaded_error', retryAfter: 0 });
  t.equal(await statusOf(await r.call(sonnet, { trace })), 200);
  t.same(seen, ['start 1: anthropic anthropic claude-sonnet-4-6', 'end 1: 529', 'start 2: anthropic anthropic claude-sonnet-4-6', 'end 2: 200']);
  t.same(r.sim.received.map((q) => q.headers.traceparent), ['attempt-1', 'attempt-2'], "each attempt sent its own context");
});

t.test('an attempt that gets no answer ends with what kept it from one', async (t) => {
  const r = await rig(t, {}, {}, `http://127.0.0.1:${await closedPort()}`);
  const { trace, seen } = recordingTrace();
  t.equal(await statusOf(await r.call(sonnet, { trace })), 'failed');
  t.same(seen.filter((l) => l.startsWith('end')), ['end 1: connection_error', 'end 2: connection_error', 'end 3: connection_error'], 'three attempts, each a span');
});

t.test('every retryable status is retried; others are answered at once', async (t) => {
  const r = await rig(t);
  // 504 is the provider's own timeout: retried like every 5xx.
  for (const status of [429, 500, 502, 503, 504]) {
    r.sim.injectFault({ kind: 'status', status, retryAfter: 0 });
    t.equal(await statusOf(await r.call()), 200, `${status} then 200`);
  }
  for (const status of [400, 404, 413, 422]) {
    r.sim.injectFault({ kind: 'status', status });
    t.equal(await statusOf(await r.call()), status, `${status} is the answer`);
  }
  t.equal(r.sim.received.length, 14);
});

t.test('attempts run out: the last answer goes back', async (t) => {
  const r = await rig(t);
  r.sim.injectFault({ kind: 'status', status: 503, retryAfter: 0 }, 3);
  t.equal(await statusOf(await r.call()), 503);
  t.equal(r.sim.received.length, 3);
  t.equal(r.events.filter((e) => e.startsWith('retry')).length, 2);
});

t.test('a retry-after above the cap is not waited for', async (t) => {
  const r = await rig(t, { retryAfterCapMs: 1000 });
  r.sim.injectFault({ kind: 'status', status: 429, retryAfter: 2 });
  const outcome = await r.call();
  t.equal(outcome.kind === 'response' && outcome.response.headers['retry-after'], '2', "the provider's retry-after stays on the answer");
  t.equal(await statusOf(outcome), 429);
  t.equal(r.sim.received.length, 1);
});

t.test('the total deadline stops retries that would end after it', async (t) => {
  const r = await rig(t, { attempts: 5, deadlineMs: 500 });
  r.sim.injectFault({ kind: 'status', status: 529, retryAfter: 1 }, 5);
  t.equal(await statusOf(await r.call()), 529);
  t.equal(r.sim.received.length, 1);
});

t.test('a model that keeps failing falls back to the next in the catalogue', async (t) => {
  const r = await rig(t);
  r.sim.injectFault({ kind: 'status', status: 529, retryAfter: 0 }, 3);
  const outcome = await r.call(opus);
  t.equal(outcome.kind === 'response' && outcome.model.id, 'claude-sonnet-4-6');
  t.equal(await statusOf(outcome), 200);
  t.same(modelsSent(r.sim), ['claude-opus-4-7', 'claude-opus-4-7', 'claude-opus-4-7', 'claude-sonnet-4-6']);
  t.ok(r.events.includes('fallback:claude-opus-4-7>claude-sonnet-4-6:529'));
});

t.test('no fallback when not allowed: by the plan, by the key, or for a non-transient answer', async (t) => {
  const r = await rig(t, { attempts: 1 });
  r.sim.injectFault({ kind: 'status', status: 529, retryAfter: 0 });
  t.equal(await statusOf(await r.call(opus, { allowFallback: false })), 529);
  r.sim.injectFault({ kind: 'status', status: 529, retryAfter: 0 });
  t.equal(await statusOf(await r.call(opus, { allowed: new Set([opus.id]) })), 529);
  r.sim.injectFault({ kind: 'status', status: 400 });
  t.equal(await statusOf(await r.call(opus)), 400);
  t.same(modelsSent(r.sim), ['claude-opus-4-7', 'claude-opus-4-7', 'claude-opus-4-7']);
});

t.test('connection refused is retried, then reported as a connect failure', async (t) => {
  const port = await closedPort();
  const r = await rig(t, {}, {}, `http://127.0.0.1:${port}`);
  const outcome = await r.call();
  t.same(outcome.kind === 'failed' && outcome.failure, 'connect');
  t.same(r.events.filter((e) => !e.startsWith('state')), ['error:connect', 'retry:connect', 'error:connect', 'retry:connect', 'error:connect']);
});

t.test('a reset before headers is not retried: the provider may have the request', async (t) => {
  const r = await rig(t);
  r.sim.injectFault({ kind: 'reset-before-headers' });
  const outcome = await r.call();
  t.same(outcome.kind === 'failed' && outcome.failure, 'reset');
  t.equal(r.sim.received.length, 1);
});

t.test('a route whose every call failed fails fast without calling; other models are untouched', async (t) => {
  const r = await rig(t, { attempts: 1 }, { minCalls: 2 });
  r.sim.injectFault({ kind: 'status', status: 500 }, 2);
  t.equal(await statusOf(await r.call()), 500);
  t.equal(await statusOf(await r.call()), 500);
  t.equal(breakerOf(r, sonnet).state, 'open');
  const outcome = await r.call();
  t.equal(outcome.kind, 'circuit_open');
  t.ok(outcome.kind === 'circuit_open' && outcome.retryAfterMs > 0);
  t.equal(r.sim.received.length, 2, 'nothing sent while open');
  const haiku = models.get('claude-haiku-4-5-20251001')!;
  t.equal(await statusOf(await r.call(haiku)), 200, "another model's route is closed");
  t.same(states(r), { 'claude-sonnet-4-6': 'open', 'claude-haiku-4-5-20251001': 'closed' });
});

t.test('retries count once per request: a request its retries rescued is a success', async (t) => {
  const r = await rig(t, { attempts: 3 }, { minCalls: 2 });
  r.sim.injectFault({ kind: 'status', status: 529, retryAfter: 0 }, 2);
  t.equal(await statusOf(await r.call()), 200);
  t.equal(breakerOf(r, sonnet).state, 'closed', 'two failed attempts, one request served: one success');
  r.sim.injectFault({ kind: 'status', status: 529, retryAfter: 0 }, 3);
  t.equal(await statusOf(await r.call()), 529);
  t.equal(breakerOf(r, sonnet).state, 'open', '1 of 2 requests failed: 50%');
  t.equal(r.sim.received.length, 6);
});

t.test('an open route with a fallback the key may use: the fallback serves, the route is not called', async (t) => {
  const r = await rig(t, { attempts: 1 }, { minCalls: 2 });
  r.sim.injectFault({ kind: 'status', status: 529, retryAfter: 0 }, 2);
  await statusOf(await r.call(opus, { allowFallback: false }));
  await statusOf(await r.call(opus, { allowFallback: false }));
  t.equal(breakerOf(r, opus).state, 'open');
  const outcome = await r.call(opus);
  t.equal(outcome.kind === 'response' && outcome.model.id, 'claude-sonnet-4-6');
  t.equal(await statusOf(outcome), 200);
  t.same(modelsSent(r.sim), ['claude-opus-4-7', 'claude-opus-4-7', 'claude-sonnet-4-6']);
  t.equal(await statusOf(await r.call(opus, { allowed: new Set([opus.id]) })), 'circuit_open', 'a key without the fallback fails fast');
});

t.test('an open route that is busy, not down, still takes requests with nowhere else to go, without retries', async (t) => {
  const r = await rig(t, { attempts: 3 }, { minCalls: 2 });
  r.sim.injectFault({ kind: 'status', status: 503, retryAfter: 0 }, 3);
  t.equal(await statusOf(await r.call()), 503);
  t.equal(await statusOf(await r.call()), 200);
  t.equal(breakerOf(r, sonnet).state, 'open');
  r.sim.injectFault({ kind: 'status', status: 503, retryAfter: 0 }, 3);
  t.equal(await statusOf(await r.call()), 503, 'the upstream answer goes back');
  t.equal(r.sim.received.length, 5, 'one attempt: a route that is not closed gets no retries');
});

t.test('a dead route recovers through one probe after the cool-down', async (t) => {
  const r = await rig(t, { attempts: 1 }, { minCalls: 2, coolDownMs: 100 });
  r.sim.injectFault({ kind: 'status', status: 500 }, 2);
  await statusOf(await r.call());
  await statusOf(await r.call());
  t.equal(await statusOf(await r.call()), 'circuit_open');
  await new Promise((res) => setTimeout(res, 120));
  t.equal(await statusOf(await r.call()), 200, 'the probe');
  t.equal(breakerOf(r, sonnet).state, 'closed');
  t.same(r.events.filter((e) => e.startsWith('state')), [
    'state:claude-sonnet-4-6:closed',
    'state:claude-sonnet-4-6:open',
    'state:claude-sonnet-4-6:half_open',
    'state:claude-sonnet-4-6:closed',
  ]);
});

t.test('a client abort during the pause ends the call at once, with no timer left', async (t) => {
  const r = await rig(t, { retryAfterCapMs: 60_000 });
  r.sim.injectFault({ kind: 'status', status: 529, retryAfter: 20 });
  const ac = new Cancellation();
  const pending = r.call(sonnet, { cancellation: ac });
  while (r.sim.received.length === 0) await new Promise((res) => setImmediate(res));
  await new Promise((res) => setTimeout(res, 50));
  const timersBefore = process.getActiveResourcesInfo().filter((x) => x === 'Timeout').length;
  ac.cancel();
  t.same(await pending, { kind: 'cancelled' });
  const timersAfter = process.getActiveResourcesInfo().filter((x) => x === 'Timeout').length;
  t.ok(timersAfter < timersBefore, `the 20 s pause timer is gone (${timersBefore} → ${timersAfter})`);
});

t.test('a client abort while waiting for headers is a cancellation, not a failure', async (t) => {
  const r = await rig(t, {}, { minCalls: 1 });
  r.sim.injectFault({ kind: 'hang-before-headers' });
  const ac = new Cancellation();
  const pending = r.call(sonnet, { cancellation: ac });
  while (r.sim.received.length === 0) await new Promise((res) => setImmediate(res));
  ac.cancel();
  t.same(await pending, { kind: 'cancelled' });
  t.equal(breakerOf(r, sonnet).state, 'closed', 'the breaker learnt nothing from it');
});

t.test('the number of routes is bounded: past the cap, models without routes share one', async (t) => {
  const r = await rig(t);
  const { MAX_ROUTES, SHARED_ROUTE } = await import('../../../../src/policy/routing/route-table.js');
  for (let i = 0; i < MAX_ROUTES + 50; i++) r.routes.routesOf({ ...sonnet, id: `m-${i}` });
  t.equal(r.routes.all().length, MAX_ROUTES + 1, 'the cap, and the shared route');
  t.equal(r.routes.routesOf({ ...sonnet, id: 'one-more' })[0]!.route.name, SHARED_ROUTE);
});
