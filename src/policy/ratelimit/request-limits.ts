// What a request is measured against: the customer's configured limits, and how many tokens it
// reserves before the upstream says what it really used.
import type { CatalogModel } from '../../catalog/model.js';
import type { RateLimits } from '../../keys/rate-limits.js';

/** Customer name → limits; `*` applies to every customer without an entry of its own. */
export type CustomerLimitTable = Readonly<Record<string, RateLimits>>;

export const ANY_CUSTOMER = '*';

export function customerLimitsLookup(table: CustomerLimitTable): (customerName: string) => RateLimits | null {
  const byName = new Map(Object.entries(table).filter(([name]) => name !== ANY_CUSTOMER));
  const fallback = Object.hasOwn(table, ANY_CUSTOMER) ? (table[ANY_CUSTOMER] as RateLimits) : null;
  if (byName.size === 0) return () => fallback;
  return (name) => byName.get(name) ?? fallback;
}

/** The surfaces that call a model, and so are limited, budgeted and metered. */
export type ModelSurface = 'messages' | 'chat' | 'responses';

// responses surface (issue 32): smallest change; the per-surface dialect facts will replace these switches.
export function isModelSurface(surface: string): surface is ModelSurface {
  return surface === 'messages' || surface === 'chat' || surface === 'responses';
}

/**
 * The output budget the request asked for: `max_tokens` (chat: `max_completion_tokens` first;
 * responses: `max_output_tokens`), else the model's default on the translated surfaces, which send
 * it; count_tokens and invalid values reserve 0.
 */
export function reservedTokens(body: Record<string, unknown>, surface: ModelSurface, model: CatalogModel): number {
  // The provider never generates more than the model's output cap (the translations cap what they send).
  const cap = model.maxOutputTokens ?? Infinity;
  if (surface === 'chat') {
    const chosen = countOf(body.max_completion_tokens) ?? countOf(body.max_tokens);
    return Math.min(chosen ?? model.defaultMaxTokens, cap);
  }
  if (surface === 'responses') return Math.min(countOf(body.max_output_tokens) ?? model.defaultMaxTokens, cap);
  return Math.min(countOf(body.max_tokens) ?? 0, cap);
}

function countOf(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : null;
}

/** What settles a reservation: every input token (cached or not) plus the output. */
export function usedTokens(u: { input: number; output: number; cacheRead: number; cacheWrite: number }): number {
  return u.input + u.cacheRead + u.cacheWrite + u.output;
}
