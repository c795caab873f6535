// Spend budgets of the key and its customer: the request's maximum cost is reserved before it goes
// upstream and settled with its real cost once its response is over (streamed, cancelled and failed
// ones included), like the token limits. A hard budget without room refuses with 429; a soft one lets
// the request through, counts it and logs once per budget and period. A key whose principal carries no
// budget passes straight through, without an async frame.
import type { CatalogModel } from '../../catalog/model.js';
import { parsedBody, type RequestContext } from '../context.js';
import { GatewayError } from '../../dialects/errors/codes.js';
import type { Principal } from '../../keys/principal.js';
import type { Next, Stage } from '../compose.js';
import type { Runtime } from '../runtime.js';
import { counterName, type BudgetCharge, type BudgetDecision } from '../../policy/budgets/budget-ledger.js';
import { budgetCharges, refusalMessage, remainingNano, reservedCost, secondsToReset, unpricedMessage } from '../../policy/budgets/budget-rules.js';
import { formatUsd } from '../../metering/cost.js';
import { servedCost } from '../served-cost.js';
import { isModelSurface, type ModelSurface } from '../../policy/ratelimit/request-limits.js';
import { errorMessage } from '../../lib/error-message.js';

export const BUDGET_REMAINING_HEADER = 'x-gateway-budget-remaining';

const NOTHING = { hold: 0, base: 0 } as const;

/** Soft-budget warnings remembered (one per budget and period); the memory starts over past it. */
const MAX_WARNED = 10_000;
/** A ledger that cannot answer (the store down at a period's first use) is logged at most this often. */
const LEDGER_ERROR_LOG_MS = 60_000;

export function budgetStage(rt: Runtime): Stage {
  const { budgets, reservationPrices, metrics, logger, wallClock: now } = rt;
  const warned = new Set<string>();
  let ledgerErrorLoggedAt = -Infinity;

  return (ctx, next) => {
    const principal = ctx.principal;
    if (principal === null || (principal.keyBudget === null && principal.customerBudget === null)) return next(ctx);
    const surface = ctx.route.surface;
    // responses surface (issue 32): smallest change; the per-surface dialect facts will replace this switch.
    if (ctx.model === null || !isModelSurface(surface)) return next(ctx);
    return budgeted(ctx, next, principal, surface, ctx.model);
  };

  async function budgeted(ctx: RequestContext, next: Next, principal: Principal, surface: ModelSurface, model: CatalogModel): Promise<void> {
    const at = now();
    const charges = budgetCharges(principal, at);
    // Counting tokens costs nothing: it reserves nothing, so only a budget already past its amount
    // refuses it (and it never falls back: the model's own price decides whether it is priced).
    const countsTokens = ctx.route.countsTokens === true;
    // The dearest way the request may be served (a dearer route, a fallback), worked out at start.
    const prices = countsTokens ? model.prices : reservationPrices.pricesFor(model, principal);
    if (prices === null) refuseOrFlagUnpriced(ctx, principal, charges, model);
    const { hold: reserve, base } = countsTokens ? NOTHING : reservedCost(parsedBody(ctx), surface, model, prices, ctx.body?.length ?? 0);
    let decision: BudgetDecision;
    try {
      const pending = budgets.reserve(charges, reserve, base);
      decision = pending instanceof Promise ? await pending : pending;
    } catch (err) {
      // Nothing to count against (the usage store did not answer): the request is served, as keys are
      // while the database is down, and the next request tries again.
      if (at - ledgerErrorLoggedAt >= LEDGER_ERROR_LOG_MS) {
        ledgerErrorLoggedAt = at;
        logger.warn({ reqId: ctx.id, err: errorMessage(err) }, 'budget spend could not be read; requests pass unbudgeted until it can');
      }
      return next(ctx);
    }
    if (!decision.allowed) {
      const refusing = charges[decision.refusedBy];
      metrics.budgetExceeded(refusing.scope, 'refused');
      reportUtilisation(principal, charges, decision.spentBefore);
      ctx.headers[BUDGET_REMAINING_HEADER] = formatUsd(remainingNano(charges, decision.spentBefore));
      const retryAfter = secondsToReset(refusing, at);
      throw new GatewayError('budget_exceeded', refusalMessage(refusing, principal.customerName), {
        headers: retryAfter === null ? {} : { 'retry-after': String(retryAfter) },
      });
    }
    // What is left once the request's maximum as estimated (not the cushion held meanwhile) is counted.
    const spentAfter = decision.spentBefore.map((s) => s + base);
    ctx.headers[BUDGET_REMAINING_HEADER] = formatUsd(remainingNano(charges, spentAfter));
    charges.forEach((c, i) => {
      if (c.budget.mode === 'soft' && spentAfter[i] > c.budget.amountNanoUsd) flag(ctx, principal, c);
    });
    let cost = 0;
    try {
      await next(ctx);
    } finally {
      // The one cost of the request: the observe stage records this same number in the usage row.
      cost = servedCost(ctx, model).nanoUsd;
      try {
        await budgets.settle(decision.hold, cost);
      } catch (err) {
        logger.warn({ reqId: ctx.id, err: errorMessage(err) }, 'budget settle failed');
      }
      reportUtilisation(principal, charges, decision.spentBefore.map((s) => s + cost));
    }
  }

  /**
   * A model without a price costs 0, so no budget could stop it (finding N1): a hard budget refuses it
   * before anything is reserved, a soft one lets it through flagged. So is a model one of whose ways
   * (a route, a fallback) has no price. The operator's `unpricedModels` price gives such models a
   * price, and this never runs.
   */
  function refuseOrFlagUnpriced(ctx: RequestContext, principal: Principal, charges: readonly BudgetCharge[], model: CatalogModel): void {
    const hard = charges.find((c) => c.budget.mode === 'hard');
    if (hard !== undefined) {
      metrics.budgetExceeded(hard.scope, 'refused');
      throw new GatewayError('model_not_priced', unpricedMessage(hard, model.id), { param: 'model' });
    }
    for (const c of charges) flag(ctx, principal, c);
  }

  function flag(ctx: RequestContext, principal: Principal, c: BudgetCharge): void {
    metrics.budgetExceeded(c.scope, 'flagged');
    const name = counterName(c);
    if (warned.has(name)) return;
    if (warned.size >= MAX_WARNED) warned.clear();
    warned.add(name);
    logger.warn(
      { reqId: ctx.id, customer: principal.customerName, keyId: principal.keyId, scope: c.scope, budgetUsd: formatUsd(c.budget.amountNanoUsd), period: c.budget.period, periodName: c.window.name },
      'soft spend budget exceeded; requests are let through and counted',
    );
  }

  /** The customer budget's spent share, as Prometheus shows it. */
  function reportUtilisation(principal: Principal, charges: readonly BudgetCharge[], spent: readonly number[]): void {
    const i = charges.findIndex((c) => c.scope === 'customer');
    if (i < 0) return;
    const c = charges[i];
    metrics.budgetUtilisation(principal.customerName, c.budget.period, Math.max(0, spent[i]) / c.budget.amountNanoUsd);
  }
}
