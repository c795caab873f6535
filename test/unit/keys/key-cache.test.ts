import t, { type Test } from 'tap';
import { SqliteKeyStore } from '../../../src/stores/sqlite/sqlite-key-store.js';
import { openDatabase } from '../../../src/stores/sqlite/open.js';
import { KeyCache, type KeyCacheOptions } from '../../../src/keys/key-cache.js';
import { mayUseModel } from '../../../src/keys/principal.js';
import type { KeyStore } from '../../../src/keys/key-store.js';
import { waitFor } from '../../helpers/wait.js';
import { counting, openStore } from './fixtures/store.js';

async function startedCache(t: Test, store: KeyStore, opts: KeyCacheOptions = {}): Promise<KeyCache> {
  const cache = new KeyCache(store, opts);
  await cache.start();
  t.teardown(() => cache.close());
  return cache;
}

function withWrongSecret(key: string): string {
  return key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
}


t.test('failures are told apart: missing, malformed, unknown', async (t) => {
  const { store } = openStore(t);
  const { key } = await store.createKey({ customerName: 'a' });
  const cache = await startedCache(t, store);
  const wrongSecret = withWrongSecret(key);
  const cases: Array<[string | undefined, string]> = [
    [undefined, 'missing'],
    ['', 'missing'],
    ['sk-not-ours', 'malformed'],
    [`${key}x`, 'malformed'],
    [wrongSecret, 'unknown'],
    ['mgw_0000000000000000_' + 'A'.repeat(43), 'unknown'],
  ];
  for (const [raw, reason] of cases) {
    t.same(await cache.authenticateAsync(raw), { ok: false, reason }, String(raw));
    t.same(cache.authenticate(raw), { ok: false, reason }, `sync ${raw}`);
  }
});

t.test('a hit is answered from memory without touching the store', async (t) => {
  const { store: real } = openStore(t);
  const { key, record } = await real.createKey({ customerName: 'acme', allowedModels: ['m1'], rpm: 5, tpm: 50 });
  const { store, total } = counting(real);
  const cache = await startedCache(t, store, { refreshMs: 3600_000 });
  const before = total();
  for (let i = 0; i < 100; i++) {
    const r = cache.authenticate(key);
    if (!r.ok) throw new Error(`refused: ${r.reason}`);
  }
  const r = await cache.authenticateAsync(key);
  t.equal(total(), before, 'no store call for 101 authentications');
  t.equal(cache.stats.hits, 101);
  t.equal(cache.stats.misses, 0);
  if (!r.ok) throw new Error('refused');
  t.match(r.principal, { keyId: record.id, customerId: record.customerId, customerName: 'acme', rpm: 5, tpm: 50 });
  t.ok(mayUseModel(r.principal, 'm1'));
  t.notOk(mayUseModel(r.principal, 'm2'), 'the allow-list is enforced');
});

t.test('a key created after the last refresh works at once through one store lookup', async (t) => {
  const { store: real } = openStore(t);
  const { store, calls } = counting(real);
  const cache = await startedCache(t, store, { refreshMs: 3600_000 });
  const { key } = await real.createKey({ customerName: 'new' });
  t.same(cache.authenticate(key), { ok: false, reason: 'unknown' }, 'the sync path never waits for the store');
  const results = await Promise.all([1, 2, 3].map(() => cache.authenticateAsync(key)));
  t.ok(results.every((r) => r.ok));
  t.equal(calls.findByPublicId, 1, 'concurrent misses share one lookup');
  t.ok((await cache.authenticateAsync(key)).ok);
  t.equal(calls.findByPublicId, 1, 'then it is a hit');
});

t.test('unknown ids are remembered and lookups are rate-capped', async (t) => {
  const { store: real } = openStore(t);
  const { store, calls } = counting(real);
  let now = 1_000_000;
  const cache = await startedCache(t, store, { refreshMs: 3600_000, now: () => now, missLookupsPerSecond: 3 });
  const random = (i: number) => `mgw_${String(i).padStart(16, '0')}_${'A'.repeat(43)}`;
  for (let i = 0; i < 5; i++) await cache.authenticateAsync(random(1));
  t.equal(calls.findByPublicId, 1, 'one lookup for the same unknown id');
  for (let i = 2; i < 20; i++) await cache.authenticateAsync(random(i));
  t.equal(calls.findByPublicId, 3, 'a flood of new ids stops at the per-second budget');
  t.equal(cache.stats.lookupsRefused, 16);
  now += 1000;
  await cache.authenticateAsync(random(100));
  t.equal(calls.findByPublicId, 4, 'the budget refills with time');
});

t.test('a key first refused as unknown works once the refresh brings it', async (t) => {
  const { store } = openStore(t);
  const cache = await startedCache(t, store, { refreshMs: 3600_000, missLookupsPerSecond: 1 });
  await cache.authenticateAsync('mgw_0000000000000000_' + 'A'.repeat(43)); // spends the whole budget
  const { key } = await store.createKey({ customerName: 'a' });
  t.same(await cache.authenticateAsync(key), { ok: false, reason: 'unknown' }, 'no budget left for a lookup');
  await cache.refresh();
  t.ok((await cache.authenticateAsync(key)).ok);
});

t.test('revocation through another connection is refused after the next refresh', async (t) => {
  const { store, url } = openStore(t);
  const { key, record } = await store.createKey({ customerName: 'a' });
  const cache = await startedCache(t, store, { refreshMs: 20 });
  t.ok(cache.authenticate(key).ok);

  const other = openDatabase(url);
  t.teardown(() => other.close());
  t.equal(await new SqliteKeyStore(other).revokeKey(record.id), true);
  await waitFor(() => !cache.authenticate(key).ok, 5000, 5); // the interface promises refusal within 5 s
  t.same(cache.authenticate(key), { ok: false, reason: 'revoked' });
});

t.test('a refresh asked for during a read gets a read of its own after it (a notification must not join an older read)', async (t) => {
  const { store: real } = openStore(t);
  const { key, record } = await real.createKey({ customerName: 'a' });
  // The store's reads are held until released, so one can be under way when the change lands.
  const gates: Array<() => void> = [];
  let reads = 0;
  const store = new Proxy(real, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (prop !== 'changesSince' || typeof value !== 'function') return value;
      // The rows are read first, then held: a read sees the store as it was when it began.
      return async (...args: unknown[]) => {
        reads++;
        const rows = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        await new Promise<void>((release) => gates.push(release));
        return rows;
      };
    },
  });
  const cache = new KeyCache(store, { refreshMs: 3600_000 });
  const started = cache.start();
  await waitFor(() => gates.length === 1, 2000, 1);
  gates.shift()!();
  await started;
  t.teardown(() => cache.close());
  t.ok(cache.authenticate(key).ok);

  // A poll's read begins; the revocation commits while it waits; then the notification asks for a refresh.
  const poll = cache.refresh();
  await waitFor(() => gates.length === 1, 2000, 1);
  t.equal(await real.revokeKey(record.id), true);
  const notified = cache.refresh();
  const alsoNotified = cache.refresh();
  t.equal(notified, alsoNotified, 'callers during one read share one follow-up');
  // The read under way began before the revocation: it cannot bring it.
  gates.shift()!();
  await poll;
  t.ok(cache.authenticate(key).ok, 'the older read did not see the revocation');
  await waitFor(() => gates.length === 1, 2000, 1);
  t.equal(reads, 3, 'the start, the poll, and one follow-up read');
  gates.shift()!();
  await notified;
  t.same(cache.authenticate(key), { ok: false, reason: 'revoked' }, 'refused once the notified refresh is done');
});

t.test('expiry is checked against the clock on every request', async (t) => {
  const { store } = openStore(t);
  const expiresAt = Date.now() + 3600_000;
  const { key } = await store.createKey({ customerName: 'a', expiresAt: new Date(expiresAt).toISOString() });
  let now = Date.now();
  const cache = await startedCache(t, store, { now: () => now });
  t.ok(cache.authenticate(key).ok);
  now = expiresAt;
  t.same(cache.authenticate(key), { ok: false, reason: 'expired' });
});

t.test('a wrong secret for a revoked key says unknown, not revoked', async (t) => {
  const { store } = openStore(t);
  const { key, record } = await store.createKey({ customerName: 'a' });
  await store.revokeKey(record.id);
  const cache = await startedCache(t, store);
  t.same(cache.authenticate(key), { ok: false, reason: 'revoked' });
  t.same(cache.authenticate(withWrongSecret(key)), { ok: false, reason: 'unknown' });
});

t.test('last use is written in batches off the request path', async (t) => {
  const { store: real } = openStore(t);
  const a = await real.createKey({ customerName: 'a' });
  const b = await real.createKey({ customerName: 'b' });
  const { store, calls } = counting(real);
  let now = Date.parse('2030-05-01T10:00:00Z');
  const cache = new KeyCache(store, { now: () => now, lastUsedFlushMs: 3600_000 });
  await cache.start();
  for (let i = 0; i < 10; i++) {
    now += 1000;
    cache.authenticate(a.key);
    cache.authenticate(b.key);
  }
  t.equal(calls.touchLastUsed ?? 0, 0, 'nothing written while requests are served');
  await cache.close();
  t.equal(calls.touchLastUsed, 1, 'one batch at close');
  t.equal((await real.getKey(a.record.id))?.lastUsedAt, new Date(now).toISOString());
  t.equal((await real.getKey(b.record.id))?.lastUsedAt, new Date(now).toISOString());
});

t.test('last use is flushed by the timer', async (t) => {
  const { store } = openStore(t);
  const { key, record } = await store.createKey({ customerName: 'a' });
  const cache = await startedCache(t, store, { lastUsedFlushMs: 10 });
  t.ok(cache.authenticate(key).ok);
  await waitFor(async () => (await store.getKey(record.id))?.lastUsedAt != null, 5000, 5);
  t.pass('last use written without close');
});

t.test('a failing store keeps the cache serving and reports the failure', async (t) => {
  const { store, db } = openStore(t);
  const { key } = await store.createKey({ customerName: 'a' });
  const errors: string[] = [];
  const cache = new KeyCache(store, { onError: (_err, during) => errors.push(during), lastUsedFlushMs: 3600_000 });
  await cache.start();
  cache.authenticate(key);
  db.close();
  await t.rejects(cache.refresh());
  t.ok(cache.authenticate(key).ok, 'what was loaded keeps working');
  await cache.close();
  t.same(errors, ['last-used']);
});

t.test('a key accepted once skips the hash after that; a guessed secret for its id never does', async (t) => {
  const { store } = openStore(t);
  const { key, record } = await store.createKey({ customerName: 'a' });
  const cache = await startedCache(t, store, { refreshMs: 20 });
  t.ok(cache.authenticate(key).ok);
  t.equal(cache.stats.verifiedHits, 0, 'the first check hashes the secret');
  t.ok(cache.authenticate(key).ok);
  t.ok(cache.authenticate(key).ok);
  t.equal(cache.stats.verifiedHits, 2, 'later checks are answered from the verified memo');
  t.same(cache.authenticate(withWrongSecret(key)), { ok: false, reason: 'unknown' });
  t.equal(cache.stats.verifiedHits, 2, 'a wrong secret takes the hashing path');
  await store.revokeKey(record.id);
  await waitFor(() => !cache.authenticate(key).ok, 5000, 5);
  t.same(cache.authenticate(key), { ok: false, reason: 'revoked' }, 'a changed key is checked afresh');
});

t.test('last use goes to the writer given, not the store', async (t) => {
  const { store: real } = openStore(t);
  const { key, record } = await real.createKey({ customerName: 'a' });
  const { store, calls } = counting(real);
  const written: Array<Array<{ id: string; at: number }>> = [];
  const now = Date.parse('2030-05-01T10:00:00Z');
  const cache = new KeyCache(store, { now: () => now, lastUsedFlushMs: 3600_000, lastUsedWriter: { touchLastUsed: async (entries) => void written.push(entries) } });
  await cache.start();
  t.ok(cache.authenticate(key).ok);
  await cache.close();
  t.same(written, [[{ id: record.id, at: now }]]);
  t.equal(calls.touchLastUsed ?? 0, 0, 'the store wrote nothing');
});
