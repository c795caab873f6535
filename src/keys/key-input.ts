// Validation of a new key's settings, shared by every store implementation and the callers' error messages.
import { hasControlChars } from '../lib/control-chars.js';
import { BudgetError, validBudget, type Budget } from './budget.js';
import { KeyStoreError, type CustomerLimits, type NewKey } from './key-store.js';

export interface ValidKeySettings {
  name: string | null;
  expiresAt: string | null;
  allowedModels: string[] | null;
  rpm: number | null;
  tpm: number | null;
  budget: Budget | null;
}

export function positiveInteger(label: string, value: number | null | undefined): number | null {
  if (value === undefined || value === null) return null;
  if (!Number.isSafeInteger(value) || value <= 0) throw new KeyStoreError(`${label} must be a positive integer`);
  return value;
}

/** A date, or a date and time with an optional zone (without one, JavaScript reads the time as local). */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** Normalises to a full ISO-8601 UTC string; rejects dates that do not parse or are already past. */
export function expiry(value: string | null | undefined, now: number): string | null {
  if (value === undefined || value === null) return null;
  const ms = ISO_8601.test(value) ? Date.parse(value) : Number.NaN;
  // The value is not repeated: a key pasted into the wrong argument would be printed back.
  if (Number.isNaN(ms)) throw new KeyStoreError('expiry is not an ISO-8601 date (such as 2027-01-31T00:00:00Z)');
  if (ms <= now) throw new KeyStoreError(`expiry ${new Date(ms).toISOString()} is in the past`);
  return new Date(ms).toISOString();
}

export function models(value: string[] | null | undefined): string[] | null {
  if (value === undefined || value === null) return null;
  const ids = [...new Set(value.map((m) => m.trim()))];
  if (ids.length === 0 || ids.some((m) => m === '')) throw new KeyStoreError('allowed models must be non-empty model ids');
  return ids;
}

/** A key's label: trimmed, empty is none, control characters refused (they would reach an operator's terminal). */
export function keyName(value: string | null | undefined): string | null {
  const name = value?.trim() || null;
  if (name !== null && hasControlChars(name)) throw new KeyStoreError('key name must not contain control characters');
  return name;
}

export function validateKeySettings(input: NewKey, now: number = Date.now()): ValidKeySettings {
  return {
    name: keyName(input.name),
    expiresAt: expiry(input.expiresAt, now),
    allowedModels: models(input.allowedModels),
    rpm: positiveInteger('rpm', input.rpm),
    tpm: positiveInteger('tpm', input.tpm),
    budget: checkedBudget(input.budget),
  };
}

/** A key's or customer's budget, checked; its problem as a KeyStoreError like every other setting's. */
export function checkedBudget(budget: Budget | null | undefined): Budget | null {
  try {
    return validBudget(budget);
  } catch (err) {
    if (err instanceof BudgetError) throw new KeyStoreError(err.message);
    throw err;
  }
}

/** A customer's own limits, by the same rule as a key's: positive integers, or null for none. */
export function validCustomerLimits(limits: CustomerLimits): CustomerLimits {
  return { rpm: positiveInteger('rpm', limits.rpm), tpm: positiveInteger('tpm', limits.tpm) };
}

export function validCustomerName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new KeyStoreError('customer name must not be empty');
  if (trimmed.length > 200) throw new KeyStoreError('customer name is longer than 200 characters');
  if (hasControlChars(trimmed)) throw new KeyStoreError('customer name must not contain control characters');
  return trimmed;
}
