// Pure preparation of a usage batch for PostgreSQL: one record per request id and day, in a fixed order,
// so two instances writing overlapping batches take their row locks in the same order and cannot deadlock.
import type { DailyIncrement } from '../../metering/daily-rollup.js';
import { dayOf, type UsageRecord } from '../../metering/usage-store.js';

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The identity of a stored usage row: the table's primary key. */
export function usageRowKey(requestId: string, day: string): string {
  return `${day}\n${requestId}`;
}

/** The first record of each request id and day, ordered by day then request id. */
export function orderedUniqueRecords(rows: readonly UsageRecord[]): Array<{ record: UsageRecord; day: string }> {
  const seen = new Map<string, { record: UsageRecord; day: string }>();
  for (const record of rows) {
    const day = dayOf(record.at);
    const key = usageRowKey(record.requestId, day);
    if (!seen.has(key)) seen.set(key, { record, day });
  }
  return [...seen.values()].sort((a, b) => byText(a.day, b.day) || byText(a.record.requestId, b.record.requestId));
}

/** Rollup increments in primary-key order (day, customer, key, model, provider), the order their rows are locked in. */
export function orderedIncrements(increments: DailyIncrement[]): DailyIncrement[] {
  return increments.sort(
    (a, b) => byText(a.day, b.day) || byText(a.customerId, b.customerId) || byText(a.keyId, b.keyId) || byText(a.model, b.model) || byText(a.provider, b.provider),
  );
}

/** The distinct months (first day, YYYY-MM-01) a batch's days fall in. */
export function monthsOf(days: Iterable<string>): string[] {
  return [...new Set([...days].map((day) => `${day.slice(0, 7)}-01`))];
}
