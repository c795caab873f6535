// A key's or a customer's rate limits: the values the key store keeps and the rate limiter enforces.

/** Requests and tokens per minute; null = no limit on that dimension. */
export interface RateLimits {
  rpm: number | null;
  tpm: number | null;
}

export function hasLimits(l: RateLimits | null): l is RateLimits {
  return l !== null && (l.rpm !== null || l.tpm !== null);
}
