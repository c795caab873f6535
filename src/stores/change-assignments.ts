// The SET clause of an edit (key-changes.ts), shared by the SQLite and PostgreSQL stores: one column per
// field given, none for a field kept, so the edit is a single UPDATE that never reads the row first (two
// edits of different fields at once both hold). A budget's period and mode fall back to what is stored,
// then to the defaults, inside the statement.
import { DEFAULT_BUDGET_MODE, DEFAULT_BUDGET_PERIOD } from '../keys/budget.js';
import type { BudgetChange, CustomerLimitChanges, KeyChanges } from '../keys/key-store.js';

export interface Assignment {
  column: string;
  value: unknown;
  /** Set when a null value keeps the stored value, then this default (SQL: COALESCE). */
  orStored?: string;
}

export function budgetAssignments(change: BudgetChange | null | undefined): Assignment[] {
  if (change === undefined) return [];
  if (change === null) return ['budget_nano_usd', 'budget_period', 'budget_mode'].map((column) => ({ column, value: null }));
  const list: Assignment[] = [];
  if (change.amountNanoUsd !== undefined) list.push({ column: 'budget_nano_usd', value: change.amountNanoUsd });
  list.push({ column: 'budget_period', value: change.period ?? null, orStored: DEFAULT_BUDGET_PERIOD });
  list.push({ column: 'budget_mode', value: change.mode ?? null, orStored: DEFAULT_BUDGET_MODE });
  return list;
}

/** `encodeModels`: how the store keeps a list of model ids (SQLite: JSON text; PostgreSQL: text[]). */
export function keyAssignments(changes: KeyChanges, encodeModels: (ids: string[]) => unknown): Assignment[] {
  const list: Assignment[] = [];
  if (changes.name !== undefined) list.push({ column: 'name', value: changes.name });
  if (changes.expiresAt !== undefined) list.push({ column: 'expires_at', value: changes.expiresAt });
  if (changes.allowedModels !== undefined) list.push({ column: 'allowed_models', value: changes.allowedModels === null ? null : encodeModels(changes.allowedModels) });
  if (changes.rpm !== undefined) list.push({ column: 'rpm', value: changes.rpm });
  if (changes.tpm !== undefined) list.push({ column: 'tpm', value: changes.tpm });
  return [...list, ...budgetAssignments(changes.budget)];
}

export function limitAssignments(changes: CustomerLimitChanges): Assignment[] {
  const list: Assignment[] = [];
  if (changes.rpm !== undefined) list.push({ column: 'rpm', value: changes.rpm });
  if (changes.tpm !== undefined) list.push({ column: 'tpm', value: changes.tpm });
  return list;
}

/**
 * `a = ?, b = COALESCE(?, b, 'month')` with the store's placeholders (`placeholder(n)`, n from `first`).
 * Column names and defaults are the constants above, never input.
 */
export function setClause(list: readonly Assignment[], placeholder: (n: number) => string, first = 1): { sql: string; values: unknown[] } {
  const sql = list
    .map((a, i) => {
      const p = placeholder(first + i);
      return a.orStored === undefined ? `${a.column} = ${p}` : `${a.column} = COALESCE(${p}, ${a.column}, '${a.orStored}')`;
    })
    .join(', ');
  return { sql, values: list.map((a) => a.value) };
}
