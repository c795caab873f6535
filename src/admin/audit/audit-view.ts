// A row of the admin trail as it leaves the process (admin API, `audit --json`): the stored row, its
// customer's name, and the one line that says what changed.
import type { AuditEntry } from '../../stores/audit-store.js';
import { describeChange } from './describe-change.js';

export interface AuditEntryView extends AuditEntry {
  customerName: string | null;
  change: string;
}

/** `names`: customer id → name; a row of a customer not found (or of none) gets null. */
export function auditEntryView(e: AuditEntry, names: ReadonlyMap<string, string>): AuditEntryView {
  return { ...e, customerName: e.customerId === null ? null : (names.get(e.customerId) ?? null), change: describeChange(e.before, e.after) };
}
