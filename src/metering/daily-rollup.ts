// Sums a batch of usage records per day, customer, key, model and provider: the increments a batch makes to the
// daily rollup table, so a batch of hundreds of requests from a few keys costs a few upserts.
import { dayOf, type InvoiceDetail, type UsageRecord, type UsageTotals } from './usage-store.js';

export interface DailyIncrement extends UsageTotals, InvoiceDetail {
  day: string;
  /** '' for a request without a customer (or key): the rollup's key columns are never null. */
  customerId: string;
  keyId: string;
  model: string;
  /** '' when no provider served the request. */
  provider: string;
}

export function dailyIncrements(rows: readonly UsageRecord[]): DailyIncrement[] {
  const groups = new Map<string, DailyIncrement>();
  for (const r of rows) {
    const day = dayOf(r.at);
    const customerId = r.customerId ?? '';
    const keyId = r.keyId ?? '';
    // Ids and model names hold no newline; the separator keeps ('a','bc') apart from ('ab','c').
    const provider = r.provider ?? '';
    const group = `${day}\n${customerId}\n${keyId}\n${r.model}\n${provider}`;
    let sum = groups.get(group);
    if (sum === undefined) {
      sum = { day, customerId, keyId, model: r.model, provider, requests: 0, errors: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, cacheWrite1hTokens: 0, webSearches: 0, costNanoUsd: 0n };
      groups.set(group, sum);
    }
    sum.requests++;
    if (r.status >= 400) sum.errors++;
    sum.inputTokens += r.inputTokens;
    sum.outputTokens += r.outputTokens;
    sum.cacheReadTokens += r.cacheReadTokens;
    sum.cacheWriteTokens += r.cacheWriteTokens;
    sum.cacheWrite1hTokens += r.cacheWrite1hTokens ?? 0;
    sum.webSearches += r.webSearches ?? 0;
    sum.costNanoUsd += BigInt(r.costNanoUsd);
  }
  return [...groups.values()];
}
