// The pure decisions of the budget stage: which budgets a request is measured against, what it reserves,
// what the client is told. No clock, store or network here: the stage passes the time in.
import type { CatalogModel } from '../../catalog/model.js';
import type { Principal } from '../../keys/principal.js';
import { reservedTokens, type ModelSurface } from '../ratelimit/request-limits.js';
import { periodAt } from './budget-period.js';
import type { BudgetCharge } from './budget-ledger.js';
import type { Budget } from '../../keys/budget.js';
import { formatUsd } from '../../metering/cost.js';

/** Roughly four bytes of request body per input token (English text and JSON both come near it). */
export const BODY_BYTES_PER_INPUT_TOKEN = 4;

/** The key's budget first, then its customer's: the one named when both refuse is the key's. */
export function budgetCharges(p: Principal, nowMs: number): BudgetCharge[] {
  const charges: BudgetCharge[] = [];
  const add = (scope: BudgetCharge['scope'], budget: Budget | null) => {
    if (budget !== null) charges.push({ scope, customerId: p.customerId, keyId: p.keyId, budget, window: periodAt(budget.period, nowMs) });
  };
  add('key', p.keyBudget);
  add('customer', p.customerBudget);
  return charges;
}

/**
 * The most a request may cost, reserved before it goes upstream: its output budget (max_tokens, as the
 * token limits reserve it) at the output price, plus its input estimated from the body size at the input
 * price. A model without a price reserves 0 (it is counted at zero, docs/spend.md).
 */
export function reservedCost(body: Record<string, unknown>, surface: ModelSurface, model: CatalogModel, bodyBytes: number): number {
  const prices = model.prices;
  if (prices === null) return 0;
  const inputTokens = Math.ceil(bodyBytes / BODY_BYTES_PER_INPUT_TOKEN);
  const cost = reservedTokens(body, surface, model) * prices.output + inputTokens * prices.input;
  return Math.min(cost, Number.MAX_SAFE_INTEGER);
}

/** What the tightest budget has left after `spent` (per charge), never below 0, in nano-dollars. */
export function remainingNano(charges: readonly BudgetCharge[], spent: readonly number[]): number {
  let least = Infinity;
  charges.forEach((c, i) => {
    least = Math.min(least, c.budget.amountNanoUsd - spent[i]);
  });
  return Math.max(0, least);
}

const PERIOD_TEXT = { day: 'per day (UTC)', month: 'per month (UTC)', total: 'in total' } as const;

/** The refusal's message: whose budget, how much, which period, and when it resets. */
export function refusalMessage(c: BudgetCharge, customerName: string): string {
  const whose = c.scope === 'key' ? `this API key (${c.keyId})` : `customer ${JSON.stringify(customerName)}`;
  const resets = c.window.resetsAt === null ? 'it does not reset; ask the operator to raise it' : `it resets at ${new Date(c.window.resetsAt).toISOString()}`;
  return `The spend budget of ${whose}, ${formatUsd(c.budget.amountNanoUsd)} USD ${PERIOD_TEXT[c.budget.period]}, is spent; ${resets}.`;
}

/** Why a model without a price is refused under a hard budget, and what the operator can do. */
export function unpricedMessage(c: BudgetCharge, modelId: string): string {
  const whose = c.scope === 'key' ? 'this API key' : "this API key's customer";
  return `The model "${modelId}" has no price, and ${whose} has a hard spend budget that could not count its cost; use a priced model, or ask the operator to give it a price (or a default price for unpriced models).`;
}

/** Whole seconds until the refusing budget's period resets (at least 1); null for a total budget. */
export function secondsToReset(c: BudgetCharge, nowMs: number): number | null {
  if (c.window.resetsAt === null) return null;
  return Math.max(1, Math.ceil((c.window.resetsAt - nowMs) / 1000));
}
