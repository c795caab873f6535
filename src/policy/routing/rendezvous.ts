// The order in which a request tries the routes of one priority: weighted rendezvous hashing. Each
// route gets a score from a seed and its own id, -ln(u) / weight with u uniform in (0, 1), and the
// lowest score goes first. The first place falls to each route with probability weight / Σ weights,
// and for one seed every instance computes the same order with no shared state: a session's seed
// (a hash of its key and session id) keeps it on one route wherever its requests land, and when that
// route cannot be used, on the next of its own order. A request without a session takes a random seed.

/** 32-bit FNV-1a of a string's UTF-16 code units. */
export function hashString(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A session's seed: the same key and session id give the same seed on every instance. */
export function sessionSeed(keyId: string, session: string): number {
  // The separator keeps ("ab", "c") and ("a", "bc") apart.
  return hashString(session, hashString(`${keyId}\u0000`));
}

/** MurmurHash3's finaliser: spreads every input bit over the output. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A route's score for a seed: lower goes first. `routeHash` is hashString(route id), computed once per route. */
export function rendezvousScore(seed: number, routeHash: number, weight: number): number {
  const u = (mix(seed ^ mix(routeHash)) + 0.5) / 4294967296;
  return -Math.log(u) / weight;
}

/** A seed for a request that names no session. */
export function randomSeed(): number {
  return (Math.random() * 4294967296) >>> 0;
}
