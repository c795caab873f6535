// The cost of a request in nano-dollars (1e-9 USD), from the tokens the upstream reported and the
// model's prices (nano-dollars per token, prices.ts): integer products and sums, never a float.
import type { TokenUsage } from './token-usage.js';
import { cacheWrite1hPrice, type ModelPrices } from './prices.js';

export interface RequestCost {
  /** Integer nano-dollars; 0 when the model has no price. */
  nanoUsd: number;
  /** False when the model has no price: the request is counted at zero and flagged. */
  priced: boolean;
}

const UNPRICED: RequestCost = Object.freeze({ nanoUsd: 0, priced: false });

/**
 * Exact while the result is below 2^53 nano-dollars (about $9 million for one request): products and
 * sums of integers are exact in a double until then, and rounding never brings a larger true value
 * back under it, so a safe result is an exact one. Beyond it (no real request comes near) BigInt
 * computes it and the result saturates at the largest safe integer.
 */
export function requestCost(usage: TokenUsage, prices: ModelPrices | null): RequestCost {
  if (prices === null) return UNPRICED;
  const input = count(usage.input);
  const output = count(usage.output);
  // 1-hour cache writes are part of the reported cache writes, at their own price (twice input by default).
  const cacheWrite1h = Math.min(count(usage.cacheWrite1h ?? 0), count(usage.cacheWrite));
  const cacheWrite = count(usage.cacheWrite) - cacheWrite1h;
  const cacheRead = count(usage.cacheRead);
  const searches = count(usage.webSearches ?? 0);
  const price1h = cacheWrite1hPrice(prices);
  const perSearch = prices.webSearch ?? 0;
  const n =
    input * prices.input + output * prices.output + cacheWrite * prices.cacheWrite + cacheWrite1h * price1h + cacheRead * prices.cacheRead + searches * perSearch;
  if (Number.isSafeInteger(n)) return { nanoUsd: n, priced: true };
  const big =
    BigInt(input) * BigInt(prices.input) +
    BigInt(output) * BigInt(prices.output) +
    BigInt(cacheWrite) * BigInt(prices.cacheWrite) +
    BigInt(cacheWrite1h) * BigInt(price1h) +
    BigInt(cacheRead) * BigInt(prices.cacheRead) +
    BigInt(searches) * BigInt(perSearch);
  return { nanoUsd: big > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(big), priced: true };
}

/**
 * A reported count as a whole number of tokens: the meter takes any finite number the upstream sent,
 * and BigInt() refuses fractions, so a malformed count must not make the cost throw.
 */
function count(n: number): number {
  if (!(n > 0)) return 0;
  return n >= Number.MAX_SAFE_INTEGER ? Number.MAX_SAFE_INTEGER : Math.trunc(n);
}

/** Nano-dollars → exact USD as a decimal string, at least cents shown: 6_250_000_000n → "6.25", 1500 → "0.0000015". */
export function formatUsd(nanoUsd: bigint | number): string {
  return formatScaled(BigInt(nanoUsd), 9, 2);
}

/** A price (nano-dollars per token) → USD per million tokens as written in a models file: 3750 → "3.75". */
export function formatUsdPerMillion(nanoUsdPerToken: number): string {
  return formatScaled(BigInt(nanoUsdPerToken), 3, 0);
}

/** `units` scaled down by 10^decimals, trailing zeros dropped down to `minDecimals`. */
function formatScaled(units: bigint, decimals: number, minDecimals: number): string {
  const sign = units < 0n ? '-' : '';
  const digits = (units < 0n ? -units : units).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  let fraction = digits.slice(digits.length - decimals);
  let end = fraction.length;
  while (end > minDecimals && fraction[end - 1] === '0') end--;
  fraction = fraction.slice(0, end);
  return fraction.length === 0 ? `${sign}${whole}` : `${sign}${whole}.${fraction}`;
}
