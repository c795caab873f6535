// A spend budget of a key or a customer: an amount in nano-dollars (the unit of every cost, cost.ts)
// per UTC day, UTC month or for the whole life of the key or customer, and what happens past it (hard:
// refuse; soft: allow, flag and log). Amounts are read from decimal USD by their digits, never through
// a binary fraction, like prices.
export const BUDGET_PERIODS = ['day', 'month', 'total'] as const;
export type BudgetPeriod = (typeof BUDGET_PERIODS)[number];
export const BUDGET_MODES = ['hard', 'soft'] as const;
export type BudgetMode = (typeof BUDGET_MODES)[number];

export interface Budget {
  /** Integer nano-dollars (1e-9 USD), positive. */
  readonly amountNanoUsd: number;
  readonly period: BudgetPeriod;
  readonly mode: BudgetMode;
}

export const DEFAULT_BUDGET_PERIOD: BudgetPeriod = 'month';
export const DEFAULT_BUDGET_MODE: BudgetMode = 'hard';
/** The dashboard warns from this share of a budget spent. */
export const BUDGET_WARNING_RATIO = 0.8;

/** $9,000,000: spent-so-far stays an exact integer in a double (and in Redis' Lua) below 2^53 nano-dollars. */
export const MAX_BUDGET_WHOLE_USD = 9_000_000;
const USD_AMOUNT = /^(\d{1,7})(?:\.(\d{1,9}))?$/;

export class BudgetError extends Error {
  override name = 'BudgetError';
}

/** "12.50" or 12.5 (USD) → 12_500_000_000 nano-dollars, by the digits; more than 9 decimals, zero or too much: BudgetError. */
export function parseUsdAmount(value: unknown, what = 'budget'): number {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : null;
  const m = text === null ? null : USD_AMOUNT.exec(text);
  if (m === null) throw new BudgetError(`${what} must be an amount in USD with at most 9 decimals (e.g. "250" or "12.50"), got ${JSON.stringify(value)}`);
  const whole = Number(m[1]);
  const nano = whole * 1e9 + Number((m[2] ?? '').padEnd(9, '0'));
  if (nano <= 0) throw new BudgetError(`${what} must be more than 0 USD`);
  if (whole > MAX_BUDGET_WHOLE_USD || (whole === MAX_BUDGET_WHOLE_USD && nano > MAX_BUDGET_WHOLE_USD * 1e9)) {
    throw new BudgetError(`${what} must be at most ${MAX_BUDGET_WHOLE_USD} USD, got ${text}`);
  }
  return nano;
}

export function parseBudgetPeriod(value: unknown): BudgetPeriod {
  if ((BUDGET_PERIODS as readonly unknown[]).includes(value)) return value as BudgetPeriod;
  throw new BudgetError(`budget period must be one of ${BUDGET_PERIODS.join(', ')}, got ${JSON.stringify(value)}`);
}

export function parseBudgetMode(value: unknown): BudgetMode {
  if ((BUDGET_MODES as readonly unknown[]).includes(value)) return value as BudgetMode;
  throw new BudgetError(`budget mode must be one of ${BUDGET_MODES.join(', ')}, got ${JSON.stringify(value)}`);
}

/** A budget as given by a caller of a store (already in nano-dollars): checked, frozen; null stays null. */
export function validBudget(b: Budget | null | undefined): Budget | null {
  if (b === null || b === undefined) return null;
  if (!Number.isSafeInteger(b.amountNanoUsd) || b.amountNanoUsd <= 0 || b.amountNanoUsd > MAX_BUDGET_WHOLE_USD * 1e9) {
    throw new BudgetError(`budget must be more than 0 and at most ${MAX_BUDGET_WHOLE_USD} USD`);
  }
  return Object.freeze({ amountNanoUsd: b.amountNanoUsd, period: parseBudgetPeriod(b.period), mode: parseBudgetMode(b.mode) });
}

/** A budget as stored in three nullable columns; null when the amount is null (no budget). */
export function budgetFromColumns(amount: number | string | null, period: string | null, mode: string | null): Budget | null {
  if (amount === null) return null;
  return Object.freeze({
    amountNanoUsd: Number(amount),
    period: (period ?? DEFAULT_BUDGET_PERIOD) as BudgetPeriod,
    mode: (mode ?? DEFAULT_BUDGET_MODE) as BudgetMode,
  });
}

/** The three columns a budget is stored in (all null: none). */
export function budgetColumns(b: Budget | null): [number | null, BudgetPeriod | null, BudgetMode | null] {
  return b === null ? [null, null, null] : [b.amountNanoUsd, b.period, b.mode];
}
