// Reading fields of a JSON request body: each helper names the field in its error (`param`).
import { GatewayError } from '../../dialects/errors/codes.js';
import { isDay } from '../../metering/usage-store.js';
import { MAX_PASSWORD_LENGTH, passwordProblem } from '../auth/passwords.js';
import type { BudgetChange } from '../../keys/key-store.js';
import { BudgetError, DEFAULT_BUDGET_MODE, DEFAULT_BUDGET_PERIOD, parseBudgetMode, parseBudgetPeriod, parseUsdAmount, type Budget } from '../../keys/budget.js';

type Body = Readonly<Record<string, unknown>>;

function invalid(param: string, message: string): GatewayError {
  return new GatewayError('invalid_request', message, { param });
}

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

export function requiredString(body: Body, param: string, maxLength: number): string {
  const value = body[param];
  if (typeof value !== 'string' || value.trim() === '') throw invalid(param, `${param} is required.`);
  if (value.length > maxLength) throw invalid(param, `${param} is longer than ${maxLength} characters.`);
  return value;
}

/** A new password: present and within the password rules (the same at creation and at a change). */
export function requiredNewPassword(body: Body, param: string): string {
  const password = requiredString(body, param, MAX_PASSWORD_LENGTH);
  const problem = passwordProblem(password);
  if (problem !== null) throw invalid(param, problem);
  return password;
}

export function optionalString(body: Body, param: string, maxLength: number): string | null {
  return isAbsent(body[param]) ? null : requiredString(body, param, maxLength);
}

export function optionalPositiveInteger(body: Body, param: string): number | null {
  const value = body[param];
  if (isAbsent(value)) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) throw invalid(param, `${param} must be a positive integer.`);
  return value;
}

/** null (absent) means "no list"; an empty array is refused, since it would allow nothing. */
export function optionalStringList(body: Body, param: string, maxItems: number): string[] | null {
  const value = body[param];
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.length === 0 || value.length > maxItems || !value.every((v) => typeof v === 'string' && v !== '')) {
    throw invalid(param, `${param} must be a list of 1 to ${maxItems} non-empty strings, or null.`);
  }
  return value as string[];
}

/** A UTC calendar day YYYY-MM-DD from the query string, or the fallback when absent. */
export function dayParam(query: URLSearchParams, param: string, fallback: string): string {
  const value = query.get(param);
  if (value === null || value === '') return fallback;
  if (!isDay(value)) throw invalid(param, `${param} must be a date YYYY-MM-DD.`);
  return value;
}

/** A budget field read by `parse`; its refusal names the field. */
function read<T>(param: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof BudgetError) throw invalid(param, `${err.message}.`);
    throw err;
  }
}

/**
 * A budget from three fields: `${prefix}Usd` (a decimal string or number; absent, null or '' = no budget),
 * `${prefix}Period` (default month) and `${prefix}Mode` (default hard).
 */
export function optionalBudget(body: Body, prefix: string): Budget | null {
  const amount = body[`${prefix}Usd`];
  if (isAbsent(amount)) return null;
  const period = body[`${prefix}Period`];
  const mode = body[`${prefix}Mode`];
  return {
    amountNanoUsd: read(`${prefix}Usd`, () => parseUsdAmount(amount, `${prefix}Usd`)),
    period: isAbsent(period) ? DEFAULT_BUDGET_PERIOD : read(`${prefix}Period`, () => parseBudgetPeriod(period)),
    mode: isAbsent(mode) ? DEFAULT_BUDGET_MODE : read(`${prefix}Mode`, () => parseBudgetMode(mode)),
  };
}

/**
 * A change of a budget from the same three fields, for an edit: a field absent is kept; `${prefix}Usd`
 * null or '' removes the budget (then a period or mode given is refused); undefined when none is given.
 */
export function budgetChange(body: Body, prefix: string): BudgetChange | null | undefined {
  const [amountParam, periodParam, modeParam] = [`${prefix}Usd`, `${prefix}Period`, `${prefix}Mode`];
  const { [amountParam]: amount, [periodParam]: period, [modeParam]: mode } = body;
  if (amount !== undefined && isAbsent(amount)) {
    for (const param of [periodParam, modeParam]) {
      if (!isAbsent(body[param])) throw invalid(param, `${param} needs a budget: ${amountParam} removes it.`);
    }
    return null;
  }
  const change: BudgetChange = {};
  if (amount !== undefined) change.amountNanoUsd = read(amountParam, () => parseUsdAmount(amount, amountParam));
  if (!isAbsent(period)) change.period = read(periodParam, () => parseBudgetPeriod(period));
  if (!isAbsent(mode)) change.mode = read(modeParam, () => parseBudgetMode(mode));
  return Object.keys(change).length === 0 ? undefined : change;
}

/** A field of an edit: absent (undefined) keeps, null removes, else a positive integer. */
export function changedPositiveInteger(body: Body, param: string): number | null | undefined {
  return body[param] === undefined ? undefined : optionalPositiveInteger(body, param);
}
