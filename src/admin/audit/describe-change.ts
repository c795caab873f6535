// One line that says what a row of the admin trail changed, for the CLI's table and the dashboard's Audit
// page (the API sends it with each row, so the page shows the same words): the fields that differ as
// `field: before → after`; for a creation the fields set, for a removal the fields it had.
import type { AuditState } from '../../stores/audit-store.js';

const ARROW = '→';

/** '' when there is nothing to show (a sign-in, say). */
export function describeChange(before: AuditState | null, after: AuditState | null): string {
  if (before === null && after === null) return '';
  if (before === null || after === null) {
    const state = (after ?? before) as AuditState;
    return Object.entries(state)
      .filter(([, value]) => value !== null)
      .map(([field, value]) => `${field}: ${valueText(value)}`)
      .join('; ');
  }
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields
    .filter((field) => JSON.stringify(before[field] ?? null) !== JSON.stringify(after[field] ?? null))
    .map((field) => `${field}: ${valueText(before[field] ?? null)} ${ARROW} ${valueText(after[field] ?? null)}`)
    .join('; ');
}

function valueText(value: unknown): string {
  if (value === null) return 'none';
  if (typeof value === 'string') return JSON.stringify(value);
  if (isBudget(value)) return `${value.amountUsd} USD per ${value.period} (${value.mode})`;
  return JSON.stringify(value);
}

function isBudget(value: unknown): value is { amountUsd: string; period: string; mode: string } {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.amountUsd === 'string' && typeof v.period === 'string' && typeof v.mode === 'string';
}
