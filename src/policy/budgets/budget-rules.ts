// The pure decisions of the budget stage: which budgets a request is measured against, what it reserves,
// what the client is told. No clock, store or network here: the stage passes the time in.
import type { CatalogModel } from '../../catalog/model.js';
import type { Principal } from '../../keys/principal.js';
import { reservedTokens, type ModelSurface } from '../ratelimit/request-limits.js';
import { periodAt } from './budget-period.js';
import type { BudgetCharge } from './budget-ledger.js';
import type { Budget } from '../../keys/budget.js';
import { formatUsd } from '../../metering/cost.js';
import type { ModelPrices } from '../../metering/prices.js';

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
 * How many times its input estimate a request is held at while others are in flight on the same hard
 * budget (docs/spend.md, "Why a hard budget holds"): a request whose real input passes its estimate by
 * up to this factor cannot make the budget overshoot while it runs beside others.
 */
export const INPUT_CUSHION = 16;

/** What a request reserves: `base` its maximum as estimated, `hold` the same with its input cushioned. */
export interface Reservation {
  readonly base: number;
  readonly hold: number;
}

/**
 * The most a request may cost, reserved before it goes upstream: its output budget (max_tokens, as the
 * token limits reserve it) at the output price, plus its input estimated conservatively (inputEstimate)
 * at the input price; `hold` cushions that input INPUT_CUSHION times. `prices` are the dearest of the
 * ways the model may be served (reservation-prices.ts); without them it reserves 0 (the budget stage
 * refuses such a model under a hard budget before this, docs/spend.md).
 */
export function reservedCost(body: Record<string, unknown>, surface: ModelSurface, model: CatalogModel, prices: ModelPrices | null, bodyBytes: number): Reservation {
  if (prices === null) return { base: 0, hold: 0 };
  // Declared web searches are billed per use on top of the tokens their results add.
  const output = reservedTokens(body, surface, model) * prices.output + declaredUses(body, /^web_search/) * (prices.webSearch ?? 0);
  const input = inputEstimate(body, bodyBytes) * prices.input;
  const cap = (n: number) => Math.min(n, Number.MAX_SAFE_INTEGER);
  return { base: cap(output + input), hold: cap(output + INPUT_CUSHION * input) };
}

/**
 * Input tokens the provider may count beyond the body's text for what the body only points at: an
 * image given by URL is up to about 1,600 tokens (the provider scales larger images down to that), a
 * document given by URL is taken as 25,000 tokens (some ten dense PDF pages), and each use of a declared
 * server tool (web search, web fetch, code execution) as 10,000 tokens of results, `max_uses` times (5
 * when not given). Conservative on purpose: this is a reservation, the settle uses the real count.
 */
export const URL_IMAGE_TOKENS = 1_600;
export const URL_DOCUMENT_TOKENS = 25_000;
export const SERVER_TOOL_USE_TOKENS = 10_000;
export const SERVER_TOOL_DEFAULT_USES = 5;

/** One token per 4 body bytes, plus what URL images and documents and declared server tools may add. */
export function inputEstimate(body: Record<string, unknown>, bodyBytes: number): number {
  let tokens = Math.ceil(bodyBytes / BODY_BYTES_PER_INPUT_TOKEN);
  walk(body.messages ?? body.input, (block) => {
    const type = block.type;
    const source = block.source as Record<string, unknown> | undefined;
    const byUrl = source?.type === 'url' || typeof block.image_url === 'string' || isRecord(block.image_url) || typeof block.file_url === 'string';
    if (!byUrl) return;
    if (type === 'document' || type === 'input_file') tokens += URL_DOCUMENT_TOKENS;
    else tokens += URL_IMAGE_TOKENS;
  });
  return tokens + declaredUses(body, SERVER_TOOL) * SERVER_TOOL_USE_TOKENS;
}

/** The uses the body allows of the server tools whose type matches: `max_uses` each, else the default. */
function declaredUses(body: Record<string, unknown>, type: RegExp): number {
  if (!Array.isArray(body.tools)) return 0;
  let uses = 0;
  for (const tool of body.tools) {
    if (!isRecord(tool) || typeof tool.type !== 'string' || !type.test(tool.type)) continue;
    uses += typeof tool.max_uses === 'number' && tool.max_uses > 0 ? Math.min(Math.floor(tool.max_uses), 1000) : SERVER_TOOL_DEFAULT_USES;
  }
  return uses;
}

/** Server tools the provider runs (and bills) itself, as declared in `tools` on any surface. */
const SERVER_TOOL = /^(web_search|web_fetch|code_execution)/;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Calls `visit` on every content block of the messages (or Responses input items), however nested. */
function walk(value: unknown, visit: (block: Record<string, unknown>) => void, depth = 0): void {
  if (depth > 8) return;
  if (Array.isArray(value)) {
    for (const v of value) walk(v, visit, depth + 1);
    return;
  }
  if (!isRecord(value)) return;
  if (typeof value.type === 'string') visit(value);
  if (Array.isArray(value.content)) walk(value.content, visit, depth + 1);
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
