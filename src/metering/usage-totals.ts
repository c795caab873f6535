// Usage summed over any group of requests: what every report and the overview add up.
export interface UsageTotals {
  requests: number;
  /** Requests answered with status 400 or above. */
  errors: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Nano-dollars (1e-9 USD), summed exactly: a BigInt, since sums may pass 2^53 (formatUsd shows it). */
  costNanoUsd: bigint;
}

export function emptyTotals(): UsageTotals {
  return { requests: 0, errors: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costNanoUsd: 0n };
}
