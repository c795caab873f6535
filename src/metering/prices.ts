// A model's price list, held as integers so every cost is exact. The unit is the nano-dollar
// (1e-9 USD) per token, which is the same number as thousandths of a dollar per million tokens:
// $3.75 per million tokens is 3750. Prices with more than three decimals per million tokens cannot
// be held exactly in it and are refused rather than rounded (no published list price has more).

export interface ModelPrices {
  /** Uncached input tokens (the provider's `input_tokens`). */
  input: number;
  output: number;
  /** Tokens written to the prompt cache, at the 5-minute rate. */
  cacheWrite: number;
  /** Tokens read from the prompt cache. */
  cacheRead: number;
  /** Tokens written to the prompt cache for 1 hour (the provider lists 2× input); absent: 2 × input. */
  cacheWrite1h?: number;
  /** One server-side web search, in nano-dollars per use (the file writes USD per 1,000 uses); absent: 0. */
  webSearch?: number;
}

export const PRICE_KINDS = ['input', 'output', 'cacheWrite', 'cacheRead'] as const satisfies ReadonlyArray<keyof ModelPrices>;
/** Kinds a price list may give; without them the defaults of ModelPrices apply. */
export const OPTIONAL_PRICE_KINDS = ['cacheWrite1h', 'webSearch'] as const satisfies ReadonlyArray<keyof ModelPrices>;

/** The 1-hour cache-write price in force: the given one, else twice the input price. */
export function cacheWrite1hPrice(p: ModelPrices): number {
  return p.cacheWrite1h ?? 2 * p.input;
}

// Up to $1,000,000 per million tokens: with it, tokens × price stays far inside 2^53 for any
// request (docs/spend.md, "Units").
const MAX_WHOLE_DOLLARS = 1_000_000;
const USD_PER_MILLION = /^(\d{1,7})(?:\.(\d{1,3}))?$/;

export class PriceError extends Error {
  override name = 'PriceError';
}

/**
 * "3.75" or 3.75 (USD per million tokens) → 3750 (nano-dollars per token), by the digits, so no
 * binary fraction ever enters. A number is read through its shortest decimal form, which is the
 * literal the file gave.
 */
export function parseUsdPerMillion(value: unknown, where: string): number {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : null;
  const m = text === null ? null : USD_PER_MILLION.exec(text);
  if (m === null) {
    throw new PriceError(`${where} must be USD per million tokens, a number or decimal string with at most 3 decimals (e.g. "3.75"), got ${JSON.stringify(value)}`);
  }
  const whole = Number(m[1]);
  if (whole > MAX_WHOLE_DOLLARS) throw new PriceError(`${where} must be at most ${MAX_WHOLE_DOLLARS} USD per million tokens, got ${text}`);
  return whole * 1000 + Number((m[2] ?? '').padEnd(3, '0'));
}

/** A price list from a models file entry: all four kinds, each in USD per million tokens. */
export function parseModelPrices(value: unknown, where: string): ModelPrices {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new PriceError(`${where} must be an object {"input", "output", "cacheWrite", "cacheRead"} in USD per million tokens, or null`);
  }
  const given = value as Record<string, unknown>;
  const known: readonly string[] = [...PRICE_KINDS, ...OPTIONAL_PRICE_KINDS];
  const unknown = Object.keys(given).filter((k) => !known.includes(k));
  if (unknown.length > 0) throw new PriceError(`${where} has unknown field(s) ${unknown.join(', ')}; expected ${known.join(', ')}`);
  const missing = PRICE_KINDS.filter((k) => given[k] === undefined);
  if (missing.length > 0) throw new PriceError(`${where} is missing ${missing.join(', ')} (all of ${PRICE_KINDS.join(', ')} are required)`);
  const prices: ModelPrices = {
    input: parseUsdPerMillion(given.input, `${where}.input`),
    output: parseUsdPerMillion(given.output, `${where}.output`),
    cacheWrite: parseUsdPerMillion(given.cacheWrite, `${where}.cacheWrite`),
    cacheRead: parseUsdPerMillion(given.cacheRead, `${where}.cacheRead`),
  };
  if (given.cacheWrite1h !== undefined) prices.cacheWrite1h = parseUsdPerMillion(given.cacheWrite1h, `${where}.cacheWrite1h`);
  // USD per 1,000 uses → nano-dollars per use: the same digits as USD per million tokens → nano per token, ×1000.
  if (given.webSearch !== undefined) prices.webSearch = parseUsdPerThousandUses(given.webSearch, `${where}.webSearch`);
  return prices;
}

/** "10" (USD per 1,000 uses) → 10_000_000 nano-dollars per use, by the digits like parseUsdPerMillion. */
export function parseUsdPerThousandUses(value: unknown, where: string): number {
  try {
    return parseUsdPerMillion(value, where) * 1000;
  } catch (err) {
    throw err instanceof PriceError ? new PriceError(err.message.replace('USD per million tokens', 'USD per 1,000 uses')) : err;
  }
}
