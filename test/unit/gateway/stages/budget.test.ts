// The budget stage alone: reads the principal's budgets, the prices the model's requests reserve at
// (the dearest of its routes and fallbacks) and the parsed body, asks the ledger to hold the request's
// maximum cost, writes the remaining-budget header, answers 429 (budget_exceeded, retry-after until the
// period resets) or 403 for a model without a price under a hard budget, flags soft budgets, and settles
// the hold with the served cost once the rest of the chain ends.
import t from 'tap';
import type { Logger } from 'pino';
import { budgetStage, BUDGET_REMAINING_HEADER } from '../../../../src/gateway/stages/budget.js';
import { GatewayError } from '../../../../src/dialects/errors/codes.js';
import { DEFAULT_MODELS, type CatalogModel } from '../../../../src/catalog/model.js';
import { dearestPrices, ReservationPrices } from '../../../../src/policy/budgets/reservation-prices.js';
import { reservedCost } from '../../../../src/policy/budgets/budget-rules.js';
import type { ModelPrices } from '../../../../src/metering/prices.js';
import type { BudgetCharge, BudgetDecision, BudgetHold, BudgetLedger } from '../../../../src/policy/budgets/budget-ledger.js';
import type { Budget } from '../../../../src/keys/budget.js';
import { formatUsd } from '../../../../src/metering/cost.js';
import { parsedBody, type RequestContext } from '../../../../src/gateway/context.js';
import { principal, recordingMetrics, recordingNext, runtimeWith, stageContext } from './stage-context.js';

const [model] = DEFAULT_MODELS as [CatalogModel];
/** 2026-11-28T12:00:00Z: a monthly budget resets 2 days 12 hours later. */
const NOW = Date.UTC(2026, 10, 28, 12);
const SECONDS_TO_DECEMBER = 2.5 * 86_400;
const HOLD: BudgetHold = { id: 'h-1' };
const USD = 1_000_000_000;
const hard = (usd: number): Budget => ({ amountNanoUsd: usd * USD, period: 'month', mode: 'hard' });
const soft = (usd: number): Budget => ({ ...hard(usd), mode: 'soft' });

/** Every model served only as itself, at its own prices (the price book's own cases: reservation-prices.test.ts). */
const ownPrices = new ReservationPrices({ list: () => [], resolve: () => null }, { servingPrices: (m) => [m.prices] });

/** A ledger answering `decide` and recording what it was asked to reserve and settle. */
function build(decide: (charges: readonly BudgetCharge[]) => BudgetDecision | Promise<BudgetDecision>, opts: { settleFails?: boolean; reservationPrices?: ReservationPrices } = {}) {
  const reserved: Array<{ scopes: string[]; hold: number; base: number | undefined }> = [];
  const settled: Array<[BudgetHold, number]> = [];
  const budgets: BudgetLedger = {
    reserve: (charges, hold, base) => (reserved.push({ scopes: charges.map((c) => c.scope), hold, base }), decide(charges)),
    settle: (hold, cost) => {
      settled.push([hold, cost]);
      if (opts.settleFails === true) throw new Error('store gone');
    },
  };
  const metrics = recordingMetrics();
  const warnings: string[] = [];
  const logger = { warn: (_fields: unknown, message: string) => warnings.push(message) } as unknown as Logger;
  const stage = budgetStage(runtimeWith({ budgets, reservationPrices: opts.reservationPrices ?? ownPrices, metrics, logger, wallClock: () => NOW }));
  return { stage, reserved, settled, metrics, warnings };
}

const allowedAt = (spentUsd: number) => (charges: readonly BudgetCharge[]): BudgetDecision => ({ allowed: true, hold: HOLD, spentBefore: charges.map(() => spentUsd * USD) });

function budgetedContext(budgets: { keyBudget?: Budget; customerBudget?: Budget }, m: CatalogModel = model): RequestContext {
  const ctx = stageContext();
  ctx.principal = principal(budgets);
  ctx.model = m;
  ctx.json = { max_tokens: 1000, messages: [{ role: 'user', content: 'hi' }] };
  ctx.body = Buffer.from(JSON.stringify(ctx.json));
  return ctx;
}

/** A `next` that answers with this usage, as call-upstream would. */
function answering(input: number, output: number) {
  const next = recordingNext();
  return Object.assign(async (ctx: RequestContext) => {
    await next(ctx);
    ctx.usage = { ...ctx.usage, input, output };
  }, { calls: next.calls });
}

t.test('passes straight through, asking nothing, without a budget, a model or a model surface', async (t) => {
  const cases: Array<[string, (ctx: RequestContext) => void]> = [
    ['no principal', (ctx) => (ctx.principal = null)],
    ['no budgets', (ctx) => (ctx.principal = principal())],
    ['no model', (ctx) => (ctx.model = null)],
    ['a route that calls no model', (ctx) => Object.assign(ctx, { route: { ...ctx.route, surface: 'models' } })],
  ];
  for (const [name, shape] of cases) {
    const { stage, reserved } = build(allowedAt(0));
    const ctx = budgetedContext({ keyBudget: hard(10) });
    shape(ctx);
    const next = recordingNext();
    await stage(ctx, next);
    t.same(next.calls, [ctx], `${name}: the chain runs`);
    t.same(reserved, [], `${name}: the ledger is not asked`);
    t.same(ctx.headers, {}, `${name}: no budget header`);
  }
});

t.test('allowed: holds the maximum in the key and customer budgets, says what is left, settles with the served cost', async (t) => {
  for (const decide of [allowedAt(1), async (c: readonly BudgetCharge[]) => allowedAt(1)(c)]) {
    const { stage, reserved, settled, metrics } = build(decide);
    const ctx = budgetedContext({ keyBudget: hard(10), customerBudget: hard(5) });
    const next = answering(100, 20);
    await stage(ctx, next);
    t.same(next.calls, [ctx]);
    t.equal(reserved.length, 1);
    t.same(reserved[0]?.scopes, ['key', 'customer'], 'the key first, then its customer');
    const { hold, base } = reserved[0] ?? { hold: 0, base: 0 };
    t.ok(base !== undefined && base > 0 && hold >= base, 'a positive maximum, the hold cushioned');
    const prices = model.prices ?? { input: 0, output: 0 };
    const cost = 100 * prices.input + 20 * prices.output;
    t.same(settled, [[HOLD, cost]], 'settled with what the usage costs');
    t.equal(ctx.cost?.nanoUsd, cost, 'the one cost, kept on the context for the observe stage');
    // The tightest budget (the customer's $5, $1 spent) less the request's estimated maximum.
    t.equal(ctx.headers[BUDGET_REMAINING_HEADER], formatUsd(4 * USD - (base ?? 0)));
    t.ok(metrics.calls.some((c) => c.startsWith('budgetUtilisation("acme", "month"')), 'the customer share reported');
  }
});

t.test('refused by a hard budget: 429 naming it, retry-after until the period resets, the chain not run', async (t) => {
  const { stage, settled, metrics } = build(() => ({ allowed: false, refusedBy: 1, spentBefore: [0, 5 * USD] }));
  const ctx = budgetedContext({ keyBudget: hard(10), customerBudget: hard(5) });
  const next = recordingNext();
  const err = await stage(ctx, next).then(() => null, (e: unknown) => e);
  t.ok(err instanceof GatewayError);
  t.match(err, { code: 'budget_exceeded', message: /customer "acme", 5\.00 USD per month/, headers: { 'retry-after': String(SECONDS_TO_DECEMBER) } });
  t.same(next.calls, []);
  t.equal(ctx.headers[BUDGET_REMAINING_HEADER], '0.00');
  t.ok(metrics.calls.includes('budgetExceeded("customer", "refused")'));
  t.same(settled, [], 'nothing held, nothing settled');
});

t.test('a soft budget past its amount lets the request through, counted each time and logged once', async (t) => {
  const { stage, metrics, warnings } = build(allowedAt(20));
  for (let i = 0; i < 2; i++) await stage(budgetedContext({ keyBudget: soft(10) }), answering(1, 1));
  t.equal(metrics.calls.filter((c) => c === 'budgetExceeded("key", "flagged")').length, 2);
  t.same(warnings, ['soft spend budget exceeded; requests are let through and counted']);
});

t.test('an unpriced model: refused before anything is held under a hard budget, flagged under a soft one', async (t) => {
  const unpriced: CatalogModel = { ...model, id: 'unpriced', prices: null };
  const refusing = build(allowedAt(0));
  await t.rejects(refusing.stage(budgetedContext({ keyBudget: hard(10) }, unpriced), recordingNext()), { code: 'model_not_priced', param: 'model' });
  t.same(refusing.reserved, []);

  const flagging = build(allowedAt(0));
  const next = recordingNext();
  await flagging.stage(budgetedContext({ customerBudget: soft(10) }, unpriced), next);
  t.equal(next.calls.length, 1);
  t.ok(flagging.metrics.calls.includes('budgetExceeded("customer", "flagged")'));
  t.same(flagging.settled, [[HOLD, 0]]);
});

t.test('a ledger that cannot answer: the request is served unbudgeted, logged; a settle failing is only logged', async (t) => {
  const down = build(() => Promise.reject(new Error('redis gone')));
  const next = recordingNext();
  await down.stage(budgetedContext({ keyBudget: hard(10) }), next);
  t.equal(next.calls.length, 1);
  t.same(down.warnings, ['budget spend could not be read; requests pass unbudgeted until it can']);

  const settleFails = build(allowedAt(0), { settleFails: true });
  await settleFails.stage(budgetedContext({ keyBudget: hard(10) }), answering(1, 1));
  t.same(settleFails.warnings, ['budget settle failed']);
});

t.test('a later stage failing still settles the hold', async (t) => {
  const { stage, settled } = build(allowedAt(0));
  await t.rejects(stage(budgetedContext({ keyBudget: hard(10) }), recordingNext(new Error('upstream broke'))), { message: 'upstream broke' });
  t.same(settled, [[HOLD, 0]]);
});


t.test('reserves at the dearest way the model may be served; a way without a price refuses under a hard budget (issue 34)', async (t) => {
  const dear: ModelPrices = { input: 30_000, output: 150_000, cacheWrite: 37_500, cacheRead: 3000 };
  const ctx = budgetedContext({ keyBudget: hard(10) });
  const dearer = build(allowedAt(0), { reservationPrices: new ReservationPrices({ list: () => [], resolve: () => null }, { servingPrices: (m) => [m.prices, dear] }) });
  await dearer.stage(ctx, recordingNext());
  const want = reservedCost(parsedBody(ctx), 'messages', model, dearestPrices([model.prices, dear]), ctx.body?.length ?? 0);
  t.strictSame(dearer.reserved.map((r) => [r.hold, r.base]), [[want.hold, want.base]], 'held at the dearer route');

  // The model is priced, but its fallback is not: a hard budget could not count what the fallback costs.
  const unpricedFallback: CatalogModel = { ...model, id: 'unpriced-fallback', prices: null };
  const withFallback: CatalogModel = { ...model, fallbacks: [unpricedFallback.id] };
  const book = new ReservationPrices({ list: () => [], resolve: (id) => (id === unpricedFallback.id ? unpricedFallback : null) }, { servingPrices: (m) => [m.prices] });
  const refusing = build(allowedAt(0), { reservationPrices: book });
  await t.rejects(refusing.stage(budgetedContext({ keyBudget: hard(10) }, withFallback), recordingNext()), { code: 'model_not_priced', param: 'model' });
  t.strictSame(refusing.reserved, [], 'nothing held');

  // count_tokens never falls back and reserves nothing: the model's own price is what counts.
  const counting = build(allowedAt(0), { reservationPrices: book });
  const countCtx = budgetedContext({ keyBudget: hard(10) }, withFallback);
  Object.assign(countCtx, { route: { ...countCtx.route, countsTokens: true } });
  const next = recordingNext();
  await counting.stage(countCtx, next);
  t.equal(next.calls.length, 1, 'count_tokens served');
  t.strictSame(counting.reserved.map((r) => [r.hold, r.base]), [[0, 0]]);
});
