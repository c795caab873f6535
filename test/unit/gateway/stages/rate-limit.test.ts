// The rate-limit stage alone: reads the principal, the model and the parsed body, asks the limiter for
// a reservation, writes the limit headers in the surface's style, answers 429 with retry-after when
// refused, and settles the reservation with the tokens really used once the rest of the chain is over.
import t from 'tap';
import { rateLimitStage } from '../../../../src/gateway/stages/rate-limit.js';
import { GatewayError } from '../../../../src/dialects/errors/codes.js';
import { DEFAULT_MODELS, type CatalogModel } from '../../../../src/catalog/model.js';
import type { LimitDecision, LimitRequest, RateLimiter, Reservation } from '../../../../src/policy/ratelimit/limiter.js';
import type { RequestContext, RouteInfo } from '../../../../src/gateway/context.js';
import type { Logger } from 'pino';
import { principal, recordingMetrics, recordingNext, runtimeWith, stageContext } from './stage-context.js';

const [model] = DEFAULT_MODELS as [CatalogModel];
const STATUS = { requests: { limit: 10, remaining: 9, resetMs: 6000 }, tokens: null };
const RESERVATION: Reservation = { id: 'r-1' };

/** A limiter answering `decide` (synchronously or not) and recording what it was asked. */
function scriptedLimiter(decide: () => LimitDecision | Promise<LimitDecision>, settleFails = false) {
  const acquired: LimitRequest[] = [];
  const settled: Array<[Reservation, number]> = [];
  const limiter: RateLimiter = {
    acquire: (request) => (acquired.push(request), decide()),
    settle: (reservation, used) => {
      settled.push([reservation, used]);
      if (settleFails) throw new Error('store gone');
    },
  };
  return { limiter, acquired, settled };
}

function build(decide: () => LimitDecision | Promise<LimitDecision>, settleFails = false) {
  const metrics = recordingMetrics();
  const warnings: string[] = [];
  const logger = { warn: (_fields: unknown, message: string) => warnings.push(message) } as unknown as Logger;
  const scripted = scriptedLimiter(decide, settleFails);
  return { stage: rateLimitStage(runtimeWith({ limiter: scripted.limiter, metrics, logger })), metrics, warnings, ...scripted };
}

const allowed = (): LimitDecision => ({ allowed: true, reservation: RESERVATION, status: STATUS });

function limitedContext(route: Partial<RouteInfo> = {}, body: Record<string, unknown> = { max_tokens: 100 }): RequestContext {
  const ctx = stageContext({ route });
  ctx.principal = principal({ rpm: 10 });
  ctx.model = model;
  ctx.json = body;
  return ctx;
}

t.test('passes straight through, asking nothing, when there is nothing to limit', async (t) => {
  const cases: Array<[string, (ctx: RequestContext) => void]> = [
    ['no principal', (ctx) => (ctx.principal = null)],
    ['no model', (ctx) => (ctx.model = null)],
    ['a route that calls no model', (ctx) => Object.assign(ctx, { route: { ...ctx.route, surface: 'models' } })],
    ['a key and customer without limits', (ctx) => (ctx.principal = principal())],
  ];
  for (const [name, shape] of cases) {
    const { stage, acquired } = build(allowed);
    const ctx = limitedContext();
    shape(ctx);
    const next = recordingNext();
    await stage(ctx, next);
    t.same(next.calls, [ctx], `${name}: the chain runs`);
    t.same(acquired, [], `${name}: the limiter is not asked`);
    t.same(ctx.headers, {}, `${name}: no limit headers`);
  }
});

t.test('allowed: reserves max_tokens for the key and its customer, writes the headers, settles with the usage', async (t) => {
  for (const decide of [allowed, async () => allowed()]) {
    const customerLimits = { rpm: 100, tpm: null };
    const { stage, acquired, settled } = build(decide);
    const ctx = limitedContext();
    ctx.principal = principal({ rpm: 10, customerLimits });
    const next = recordingNext();
    await stage(ctx, async (c) => {
      await next(c);
      c.usage = { ...c.usage, input: 7, output: 5, cacheRead: 2, cacheWrite: 1 };
    });
    t.same(next.calls, [ctx]);
    t.match(acquired, [{ keyId: 'key-1', customerId: 'cust-1', customerLimits, tokens: 100 }]);
    t.equal(acquired[0]?.keyLimits, ctx.principal, 'the key limits are the principal own');
    t.equal(ctx.headers['anthropic-ratelimit-requests-limit'], '10');
    t.equal(ctx.headers['anthropic-ratelimit-requests-remaining'], '9');
    t.same(settled, [[RESERVATION, 15]], 'settled with input + cache + output');
  }
});

t.test('the chat surface writes the x-ratelimit-* style and reserves the model default when no max is given', async (t) => {
  const { stage, acquired } = build(allowed);
  const ctx = limitedContext({ surface: 'chat', errorFormat: 'chat' }, {});
  await stage(ctx, recordingNext());
  t.equal(acquired[0]?.tokens, Math.min(model.defaultMaxTokens, model.maxOutputTokens ?? Infinity));
  t.equal(ctx.headers['x-ratelimit-limit-requests'], '10');
  t.equal(ctx.headers['x-ratelimit-reset-requests'], '6s');
  t.equal(ctx.headers['anthropic-ratelimit-requests-limit'], undefined);
});

t.test('refused: 429 with retry-after in whole seconds, the chain not run, counted by scope, nothing settled', async (t) => {
  const cases: Array<['key' | 'customer', RegExp]> = [
    ['key', /this API key/],
    ['customer', /your organisation/],
  ];
  for (const [scope, message] of cases) {
    const { stage, metrics, settled } = build(() => ({ allowed: false, scope, retryAfterMs: 1500, status: STATUS }));
    const ctx = limitedContext();
    const next = recordingNext();
    const err = await stage(ctx, next).then(() => null, (e: unknown) => e);
    t.ok(err instanceof GatewayError, scope);
    t.match(err, { code: 'rate_limited', message, headers: { 'retry-after': '2' } }, scope);
    t.same(next.calls, [], `${scope}: the chain stops`);
    t.same(metrics.calls, [`rateLimited("messages", "${scope}")`], `${scope}: counted`);
    t.equal(ctx.headers['anthropic-ratelimit-requests-remaining'], '9', `${scope}: the headers still say where the key stands`);
    t.same(settled, [], `${scope}: nothing to settle`);
  }
});

t.test('a later stage failing still settles; a settle failing is logged, never the answer', async (t) => {
  const failing = build(allowed);
  await t.rejects(failing.stage(limitedContext(), recordingNext(new Error('upstream broke'))), { message: 'upstream broke' });
  t.same(failing.settled, [[RESERVATION, 0]]);

  const settleFails = build(allowed, true);
  const next = recordingNext();
  await settleFails.stage(limitedContext(), next);
  t.equal(next.calls.length, 1);
  t.same(settleFails.warnings, ['rate-limit settle failed']);
});
