// Where a budget counter starts when a period is first used by this instance or in Redis: what the usage
// store's daily rollup says the key or customer spent in the period's days, so a restart or a Redis flush
// does not give anyone their budget back. Rows still in an instance's write buffer are not there yet
// (at most one flush interval; docs/spend.md).
import type { UsageQuery, UsageStore } from '../../metering/usage-store.js';
import type { SeedSpend } from './budget-ledger.js';

export function seedFromUsage(usage: Pick<UsageStore, 'totals'>): SeedSpend {
  return async (charge) => {
    const q: UsageQuery = { customerId: charge.customerId };
    if (charge.scope === 'key') q.keyId = charge.keyId;
    if (charge.window.since !== null) q.since = charge.window.since;
    if (charge.window.until !== null) q.until = charge.window.until;
    const { costNanoUsd } = await usage.totals(q);
    return costNanoUsd > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(costNanoUsd);
  };
}
