// Customer-user passwords: node:crypto scrypt with a random salt per password. The stored string names its
// parameters, so the cost can be raised later: old hashes still verify and are rehashed at the next sign-in.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const KEY_LENGTH = 32;
const SALT_BYTES = 16;
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 1024;

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** OWASP's current recommendation for scrypt: 128 * N * r = 128 MiB and roughly 100-300 ms per hash. */
export const OWASP_SCRYPT_COST: ScryptCost = Object.freeze({ N: 1 << 17, r: 8, p: 1 });

/**
 * Hashes at once. Each one holds 128 MiB and a libuv thread for a few hundred milliseconds: without a
 * bound, a burst of sign-ins (or unknown-email guesses, which cost the same) could take the process's
 * memory and every thread file reads and DNS lookups also need. Later ones wait their turn.
 */
const MAX_CONCURRENT_HASHES = 2;
const MAX_HASH_MEMORY = 1 << 30;

export interface PasswordCheck {
  matches: boolean;
  /** The stored hash was made with another cost than the current one: store a fresh hash. */
  outdated: boolean;
}

export class PasswordHasher {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private decoyHash: Promise<string> | null = null;

  /** `cost`: the OWASP one in production; tests pass a cheap one to stay fast. */
  constructor(private readonly cost: ScryptCost = OWASP_SCRYPT_COST) {}

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES);
    const key = await this.derive(password, salt, this.cost);
    return formatHash(this.cost, salt, key);
  }

  /** A stored string this code cannot read never matches. */
  async check(password: string, stored: string): Promise<PasswordCheck> {
    const parsed = parseHash(stored);
    if (parsed === null) return { matches: false, outdated: false };
    const key = await this.derive(password, parsed.salt, parsed.cost);
    const { N, r, p } = parsed.cost;
    return { matches: timingSafeEqual(key, parsed.key), outdated: N !== this.cost.N || r !== this.cost.r || p !== this.cost.p };
  }

  /** A hash of nothing anyone knows, at the current cost: checked when an email is unknown, so both cases cost the same. */
  decoy(): Promise<string> {
    this.decoyHash ??= this.hash(randomBytes(18).toString('base64url'));
    return this.decoyHash;
  }

  private async derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
    if (this.running >= MAX_CONCURRENT_HASHES) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await scryptAsync(password.normalize('NFKC'), salt, cost);
    } finally {
      // The slot passes straight to the next waiter, so `running` stays counted for it.
      const next = this.waiting.shift();
      if (next !== undefined) next();
      else this.running--;
    }
  }
}

/** Async (the libuv pool), never scryptSync: a sign-in must not stall the event loop for every other request. */
function scryptAsync(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // scrypt needs a little over 128 * N * r * p bytes; node's default maxmem (32 MiB) refuses N = 2^17.
    scrypt(password, salt, KEY_LENGTH, { ...cost, maxmem: 2 * 128 * cost.N * cost.r * cost.p }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

function formatHash(cost: ScryptCost, salt: Buffer, key: Buffer): string {
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** `scrypt$N$r$p$salt$key`, or null for anything else. */
export function parseHash(stored: string): { cost: ScryptCost; salt: Buffer; key: Buffer } | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (![N, r, p].every((n) => Number.isSafeInteger(n) && n > 0)) return null;
  // scrypt itself refuses an N that is not a power of two; a cost beyond 1 GiB is no hash this code made.
  if (N < 2 || (N & (N - 1)) !== 0 || 128 * N * r * p > MAX_HASH_MEMORY) return null;
  const key = Buffer.from(parts[5], 'base64url');
  if (key.length !== KEY_LENGTH) return null;
  return { cost: { N, r, p }, salt: Buffer.from(parts[4], 'base64url'), key };
}

/** null when acceptable, else a reason a person can act on. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `The password must have at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `The password must have at most ${MAX_PASSWORD_LENGTH} characters.`;
  return null;
}
