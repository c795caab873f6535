// Flags of the commands that change a stored setting (`keys update`, `customers limits`, `customers
// budget`): absent keeps it, `none` removes it, a value replaces it. A bad value is one line naming the flag.
import type { BudgetChange } from '../../keys/key-store.js';
import { ArgError, positiveIntegerArg, shownArgument } from '../args.js';
import { budgetFlag, type BudgetFlagNames, type BudgetFlagValues } from './budget-args.js';
import { parseBudgetMode, parseBudgetPeriod, parseUsdAmount } from '../../keys/budget.js';

/** The word that removes a setting (0 is refused for a limit: it would read as "blocked"). */
export const NONE = 'none';

/** `--rpm N` sets, `--rpm none` removes, absent (undefined) keeps. */
export function limitArg(flag: string, value: string | undefined): number | null | undefined {
  if (value === NONE) return null;
  try {
    return positiveIntegerArg(flag, value);
  } catch {
    throw new ArgError(`--${flag} must be a positive integer or ${NONE}, got ${shownArgument(value ?? '')}`);
  }
}

/** `--flag value` sets, `--flag none` removes (null), absent keeps (undefined). */
export function noneOr<T>(value: string | undefined, read: (v: string) => T): T | null | undefined {
  if (value === undefined) return undefined;
  return value === NONE ? null : read(value);
}

/**
 * A budget change: `--amount none` removes the budget (and takes no period or mode); otherwise each flag
 * given changes its part and the others are kept; undefined when no flag was given.
 */
export function budgetChangeFromArgs(names: BudgetFlagNames, values: BudgetFlagValues): BudgetChange | null | undefined {
  if (values.amount === NONE) {
    if (values.period !== undefined || values.mode !== undefined) throw new ArgError(`--${names.amount} ${NONE} takes no --${names.period} or --${names.mode}`);
    return null;
  }
  const change: BudgetChange = {};
  const { amount, period, mode } = values;
  if (amount !== undefined) change.amountNanoUsd = budgetFlag.amount(names.amount, amount, () => parseUsdAmount(amount));
  if (period !== undefined) change.period = budgetFlag.period(names.period, period, () => parseBudgetPeriod(period));
  if (mode !== undefined) change.mode = budgetFlag.mode(names.mode, mode, () => parseBudgetMode(mode));
  return Object.keys(change).length === 0 ? undefined : change;
}
