// Shapes the usage store's grouped rows into what Customer > Usage shows: rows per day and model, a
// series per day (every day of the range, zeros included, so a chart has no gaps), totals per model and
// per provider (which account or cloud served them; null for rows from before providers were recorded).
import type { UsageRow, UsageTotals } from '../../metering/usage-store.js';
import { dayOf, emptyTotals } from '../../metering/usage-store.js';
import { withCostUsd, type WithCostUsd } from '../../metering/usage-cost-json.js';

/** Counts as the API sends them: tokens as numbers, the cost as `costUsd`, an exact USD decimal string. */
export type UsageCounts = WithCostUsd<UsageTotals>;

export interface UsageSummary {
  from: string;
  to: string;
  /** One per day and model that had requests, oldest day first, models by name. */
  rows: Array<UsageCounts & { day: string; model: string }>;
  byDay: Array<UsageCounts & { day: string }>;
  byModel: Array<UsageCounts & { model: string }>;
  byProvider: Array<UsageCounts & { provider: string | null }>;
  totals: UsageCounts;
}

const DAY_MS = 86_400_000;

function add(into: UsageTotals, from: UsageTotals): void {
  into.requests += from.requests;
  into.errors += from.errors;
  into.inputTokens += from.inputTokens;
  into.outputTokens += from.outputTokens;
  into.cacheReadTokens += from.cacheReadTokens;
  into.cacheWriteTokens += from.cacheWriteTokens;
  into.costNanoUsd += from.costNanoUsd;
}

/** Every day from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let ms = Date.parse(`${from}T00:00:00Z`), end = Date.parse(`${to}T00:00:00Z`); ms <= end; ms += DAY_MS) days.push(dayOf(ms));
  return days;
}

export function summariseUsage(rows: readonly UsageRow[], from: string, to: string): UsageSummary {
  const byDay = new Map(daysBetween(from, to).map((day) => [day, { day, ...emptyTotals() }]));
  const byModel = new Map<string, UsageTotals & { model: string }>();
  const perDayModel = new Map<string, UsageTotals & { day: string; model: string }>();
  const byProvider = new Map<string | null, UsageTotals & { provider: string | null }>();
  const totals = emptyTotals();
  for (const row of rows) {
    // The store also groups by customer: rows of several customers can share a day and model.
    const key = `${row.day}\u0000${row.model}`;
    let cell = perDayModel.get(key);
    if (cell === undefined) perDayModel.set(key, (cell = { day: row.day, model: row.model, ...emptyTotals() }));
    add(cell, row);
    const day = byDay.get(row.day);
    if (day !== undefined) add(day, row);
    let model = byModel.get(row.model);
    if (model === undefined) byModel.set(row.model, (model = { model: row.model, ...emptyTotals() }));
    add(model, row);
    let provider = byProvider.get(row.provider);
    if (provider === undefined) byProvider.set(row.provider, (provider = { provider: row.provider, ...emptyTotals() }));
    add(provider, row);
    add(totals, row);
  }
  const sortedRows = [...perDayModel.values()].sort((a, b) => a.day.localeCompare(b.day) || a.model.localeCompare(b.model));
  const byModelSorted = [...byModel.values()].sort((a, b) => a.model.localeCompare(b.model));
  return {
    from,
    to,
    rows: sortedRows.map(withCostUsd),
    byDay: [...byDay.values()].map(withCostUsd),
    byModel: byModelSorted.map(withCostUsd),
    byProvider: [...byProvider.values()].sort((a, b) => (a.provider ?? '').localeCompare(b.provider ?? '')).map(withCostUsd),
    totals: withCostUsd(totals),
  };
}
