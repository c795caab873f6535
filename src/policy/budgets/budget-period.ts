// The budget period a moment falls in, in UTC: its name (part of every counter's key, so a new period
// starts from zero by itself), the days it covers (to read spend back from the daily rollup) and when it
// resets. The clock is the caller's, so a test can stand at the end of a month without waiting for it.
import type { BudgetPeriod } from '../../keys/budget.js';

export interface PeriodWindow {
  /** 'd2026-11-25', 'm2026-11' or 'total'. */
  readonly name: string;
  /** First and last UTC day (YYYY-MM-DD, inclusive) it covers; null for total. */
  readonly since: string | null;
  readonly until: string | null;
  /** Epoch milliseconds when the next period starts; null for total (it never resets). */
  readonly resetsAt: number | null;
}

const TOTAL: PeriodWindow = Object.freeze({ name: 'total', since: null, until: null, resetsAt: null });

export function periodAt(period: BudgetPeriod, nowMs: number): PeriodWindow {
  if (period === 'total') return TOTAL;
  const now = new Date(nowMs);
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  if (period === 'day') {
    const day = now.toISOString().slice(0, 10);
    return { name: `d${day}`, since: day, until: day, resetsAt: Date.UTC(y, m, now.getUTCDate() + 1) };
  }
  const month = now.toISOString().slice(0, 7);
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).toISOString().slice(0, 10);
  return { name: `m${month}`, since: `${month}-01`, until: lastDay, resetsAt: Date.UTC(y, m + 1, 1) };
}

/** How long a period's counter is kept: a day past its end, so a request that began in it still settles there. */
export const KEEP_AFTER_PERIOD_MS = 86_400_000;

/** Until when (epoch ms) a period's counter is kept; null for total (kept for good). */
export function keptUntil(window: PeriodWindow): number | null {
  return window.resetsAt === null ? null : window.resetsAt + KEEP_AFTER_PERIOD_MS;
}
