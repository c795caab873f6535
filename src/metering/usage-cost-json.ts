// Usage sums as they leave the process (CLI --json, admin API): JSON has no BigInt, and a float would
// not be exact, so the cost goes out as an exact USD decimal string, `costUsd`.
import type { UsageTotals } from './usage-store.js';
import { formatUsd } from './cost.js';

export type WithCostUsd<T extends UsageTotals> = Omit<T, 'costNanoUsd'> & { costUsd: string };

export function withCostUsd<T extends UsageTotals>(sums: T): WithCostUsd<T> {
  const { costNanoUsd, ...rest } = sums;
  return { ...rest, costUsd: formatUsd(costNanoUsd) };
}
