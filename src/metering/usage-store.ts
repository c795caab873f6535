// What is recorded per request and how it is read back. Async so a networked store (PostgreSQL) can come later.
import type { SpendOverview, SpendOverviewQuery } from './spend-overview.js';
import type { UsageTotals } from './usage-totals.js';

export { emptyTotals, type UsageTotals } from './usage-totals.js';

export interface UsageRecord {
  /** Epoch milliseconds when the request started. */
  at: number;
  requestId: string;
  customerId: string | null;
  keyId: string | null;
  model: string;
  /** The id of the provider whose route served it (an account, a cloud region); null when none did. */
  provider: string | null;
  surface: 'messages' | 'chat' | 'responses';
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** What the reported tokens cost at the served model's prices: integer nano-dollars (1e-9 USD), 0 when unpriced. */
  costNanoUsd: number;
  status: number;
  durationMs: number;
  outcome: string;
  /** Of cacheWriteTokens, those written for 1 hour (priced apart); absent: 0 (rows from before they were recorded). */
  cacheWrite1hTokens?: number;
  /** Server tool uses billed per use (web searches); absent: 0. */
  webSearches?: number;
  /** True when the gateway estimated the tokens (a cancelled stream whose final usage never came); absent: false. */
  estimated?: boolean;
}

/** Filters; days are UTC dates YYYY-MM-DD, both ends inclusive. */
export interface UsageQuery {
  customerId?: string;
  keyId?: string;
  model?: string;
  since?: string;
  until?: string;
}

/** What an invoice prices apart, per row of the export: 1-hour cache writes (within cacheWriteTokens) and web searches. */
export interface InvoiceDetail {
  cacheWrite1hTokens: number;
  webSearches: number;
}

/** One group: a day, a customer (null for requests without a valid key), a model, a provider. */
export interface UsageRow extends UsageTotals, InvoiceDetail {
  day: string;
  customerId: string | null;
  customerName: string | null;
  model: string;
  /** The provider that served them; null for rows from before providers were recorded, or none served. */
  provider: string | null;
}

export interface UsageStore {
  insertBatch(rows: UsageRecord[]): Promise<void>;
  /** Grouped by day, customer, model and provider; newest day first. */
  query(q?: UsageQuery): Promise<UsageRow[]>;
  totals(q?: UsageQuery): Promise<UsageTotals>;
  /** The operators' overview: a period's spend over every customer, nearly spent budgets, recent requests. */
  spendOverview(q: SpendOverviewQuery): Promise<SpendOverview>;
}

/** What a writer of usage needs from a store. */
export type UsageSink = Pick<UsageStore, 'insertBatch'>;

export class UsageQueryError extends Error {
  override name = 'UsageQueryError';
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar day in the YYYY-MM-DD form (2025-02-30 is not one). */
export function isDay(s: string): boolean {
  if (!DAY.test(s)) return false;
  const ms = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(ms) && dayOf(ms) === s;
}

const DAY_MS = 86_400_000;
/** The last day computed: every usage record of a day asks for the same one. */
let lastDay = { index: Number.NaN, text: '' };

export function dayOf(epochMs: number): string {
  const index = Math.floor(epochMs / DAY_MS);
  if (index !== lastDay.index) lastDay = { index, text: new Date(epochMs).toISOString().slice(0, 10) };
  return lastDay.text;
}
