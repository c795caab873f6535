// Edits of an existing key, customer limits or budget: only the fields given change. A field absent
// (undefined) is kept as stored, null removes the setting, a value replaces it. Validated by the same rules
// as a new key's settings (key-input.ts), so the command line, the admin API and both stores agree.
import { BudgetError, parseBudgetMode, parseBudgetPeriod, DEFAULT_BUDGET_MODE, DEFAULT_BUDGET_PERIOD } from './budget.js';
import { checkedBudget, expiry, keyName, models, positiveInteger } from './key-input.js';
import { KeyStoreError, type BudgetChange, type CustomerLimitChanges, type KeyChanges } from './key-store.js';

const KEY_FIELDS = ['name', 'expiresAt', 'allowedModels', 'rpm', 'tpm', 'budget'] as const;

/** Applies `check` to a field given (null included); an absent field stays absent. */
function given<T, R>(value: T | undefined, check: (v: T) => R): R | undefined {
  return value === undefined ? undefined : check(value);
}

/** The changes, checked; a change that changes nothing is refused (the caller said nothing to do). */
export function validateKeyChanges(changes: KeyChanges, now: number = Date.now()): KeyChanges {
  const valid: KeyChanges = {
    name: given(changes.name, keyName),
    expiresAt: given(changes.expiresAt, (v) => expiry(v, now)),
    allowedModels: given(changes.allowedModels, models),
    rpm: given(changes.rpm, (v) => positiveInteger('rpm', v)),
    tpm: given(changes.tpm, (v) => positiveInteger('tpm', v)),
    budget: validBudgetChange(changes.budget),
  };
  for (const field of KEY_FIELDS) if (valid[field] === undefined) delete valid[field];
  if (Object.keys(valid).length === 0) throw new KeyStoreError('no change given');
  return valid;
}

export function validCustomerLimitChanges(changes: CustomerLimitChanges): CustomerLimitChanges {
  const valid: CustomerLimitChanges = {};
  if (changes.rpm !== undefined) valid.rpm = positiveInteger('rpm', changes.rpm);
  if (changes.tpm !== undefined) valid.tpm = positiveInteger('tpm', changes.tpm);
  if (Object.keys(valid).length === 0) throw new KeyStoreError('no limit given');
  return valid;
}

/** null stays null (remove); an empty change is no change (undefined). */
export function validBudgetChange(change: BudgetChange | null | undefined): BudgetChange | null | undefined {
  if (change === null || change === undefined) return change;
  const valid: BudgetChange = {};
  try {
    if (change.period !== undefined) valid.period = parseBudgetPeriod(change.period);
    if (change.mode !== undefined) valid.mode = parseBudgetMode(change.mode);
  } catch (err) {
    if (err instanceof BudgetError) throw new KeyStoreError(err.message);
    throw err;
  }
  if (change.amountNanoUsd !== undefined) {
    valid.amountNanoUsd = checkedBudget({ amountNanoUsd: change.amountNanoUsd, period: DEFAULT_BUDGET_PERIOD, mode: DEFAULT_BUDGET_MODE })!.amountNanoUsd;
  }
  return Object.keys(valid).length === 0 ? undefined : valid;
}

/** True when the change keeps the stored amount: only a budget already there can take it. */
export function needsStoredBudget(change: BudgetChange | null | undefined): boolean {
  return change !== null && change !== undefined && change.amountNanoUsd === undefined;
}
