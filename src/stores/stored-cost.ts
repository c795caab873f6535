// Both stores read summed cost as the decimal text of the database's exact integer sum: a JS number
// would round it past 2^53 nano-dollars (about $9 million), so it becomes a BigInt here instead.
import type { UsageTotals } from '../metering/usage-store.js';

/** Usage sums as a query returns them, cost still as text. */
export type StoredSums<T extends UsageTotals> = Omit<T, 'costNanoUsd'> & { costNanoUsd: string };

export function withCost<T extends UsageTotals>(row: StoredSums<T>): T {
  return { ...row, costNanoUsd: BigInt(row.costNanoUsd) } as T;
}
