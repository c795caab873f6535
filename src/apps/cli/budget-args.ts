// The budget flags of `keys create` and `customers budget`, read into a Budget: --budget / --amount in
// USD (a decimal, read by its digits), --budget-period / --period day|month|total (default month),
// --budget-mode / --mode hard|soft (default hard). A bad value is one line naming the flag.
import {
  BUDGET_MODES,
  BUDGET_PERIODS,
  BudgetError,
  DEFAULT_BUDGET_MODE,
  DEFAULT_BUDGET_PERIOD,
  MAX_BUDGET_WHOLE_USD,
  parseBudgetMode,
  parseBudgetPeriod,
  parseUsdAmount,
  type Budget,
  type BudgetMode,
  type BudgetPeriod,
} from '../../keys/budget.js';
import { formatUsd } from '../../metering/cost.js';
import { ArgError, shownArgument } from '../args.js';

export interface BudgetFlagNames {
  amount: string;
  period: string;
  mode: string;
}

export interface BudgetFlagValues {
  amount: string | undefined;
  period: string | undefined;
  mode: string | undefined;
}

/** undefined when no amount was given (a period or mode alone is refused: it would be silently dropped). */
export function budgetFromArgs(names: BudgetFlagNames, values: BudgetFlagValues): Budget | undefined {
  if (values.amount === undefined) {
    const stray = values.period !== undefined ? names.period : values.mode !== undefined ? names.mode : null;
    if (stray !== null) throw new ArgError(`--${stray} needs --${names.amount}`);
    return undefined;
  }
  const amount = values.amount;
  return {
    amountNanoUsd: budgetFlag.amount(names.amount, amount, () => parseUsdAmount(amount)),
    period: values.period === undefined ? DEFAULT_BUDGET_PERIOD : budgetFlag.period(names.period, values.period, () => parseBudgetPeriod(values.period)),
    mode: values.mode === undefined ? DEFAULT_BUDGET_MODE : budgetFlag.mode(names.mode, values.mode, () => parseBudgetMode(values.mode)),
  };
}

/** Each part of a budget read from its flag, a bad value refused in one line naming the flag and the rule. */
export const budgetFlag = {
  amount: (name: string, value: string, read: () => number) =>
    flag(name, value, `an amount in USD above 0 and at most ${MAX_BUDGET_WHOLE_USD}, with at most 9 decimals (e.g. 250 or 12.50)`, read),
  period: (name: string, value: string, read: () => BudgetPeriod) => flag(name, value, BUDGET_PERIODS.join(', '), read),
  mode: (name: string, value: string, read: () => BudgetMode) => flag(name, value, BUDGET_MODES.join(', '), read),
};

/** The value is shown through shownArgument: a key pasted into the wrong flag is not printed back. */
function flag<T>(name: string, value: string, rule: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (!(err instanceof BudgetError)) throw err;
    throw new ArgError(`--${name} must be ${rule}, got ${shownArgument(value)}`);
  }
}

/** "25.00 USD per month (hard)", or "none". */
export function budgetText(b: Budget | null): string {
  return b === null ? 'none' : `${formatUsd(b.amountNanoUsd)} USD per ${b.period === 'total' ? 'lifetime' : b.period} (${b.mode})`;
}
