// An account's prompt cache. A cache_control breakpoint's prefix (reply/estimate.ts) seen for the
// first time on the account is written to the cache; the same prefix again within its lifetime
// (5 minutes, or an hour with `ttl: "1h"`) is read from it, and each read starts the lifetime
// again, as the provider's cache does. With several breakpoints the longest cached prefix is read
// and the later ones written. Unlike the provider, prefixes of any length are cached (the provider
// caches from about a thousand tokens), so small test prompts show cache tokens too.
import { inputWithHit, type InputEstimate, type InputTally } from '../reply/estimate.js';

const SHORT_TTL_MS = 5 * 60_000;
const LONG_TTL_MS = 60 * 60_000;
/** Entries kept at most; the oldest go first (a long test run must not grow without bound). */
const MAX_ENTRIES = 100_000;

/** What a request would read and write, decided before it is admitted (a refused one changes nothing). */
export interface CachePlan {
  tally: InputTally;
  /** The longest prefix found in the cache, or -1. */
  hit: number;
  input: InputEstimate;
}

export class PromptCache {
  /** Prefix key → when it expires. */
  private readonly entries = new Map<string, number>();

  plan(tally: InputTally, now: number): CachePlan {
    let hit = -1;
    for (let i = tally.prefixes.length - 1; i >= 0; i--) {
      const expires = this.entries.get(tally.prefixes[i]!.key);
      if (expires !== undefined && expires > now) {
        hit = i;
        break;
      }
    }
    return { tally, hit, input: inputWithHit(tally, hit) };
  }

  /** The request went ahead: the prefix it read lives on, the ones after it are written. */
  commit(plan: CachePlan, now: number): void {
    const { prefixes } = plan.tally;
    for (let i = Math.max(0, plan.hit); i < prefixes.length; i++) {
      const p = prefixes[i]!;
      const expires = now + (p.longTtl ? LONG_TTL_MS : SHORT_TTL_MS);
      // Re-inserted so the map's order is the order of last use.
      const had = this.entries.get(p.key);
      this.entries.delete(p.key);
      this.entries.set(p.key, Math.max(had ?? 0, expires));
    }
    while (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }

  clear(): void {
    this.entries.clear();
  }
}
