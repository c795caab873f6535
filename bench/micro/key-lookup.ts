// Key lookup on the hot path: a known key (hash check against the in-memory entry), an unknown key
// refused by the negative cache, and a malformed one. `node dist/bench/micro/key-lookup.js`
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/stores/sqlite/open.js';
import { KeyCache } from '../../src/keys/key-cache.js';
import { SqliteKeyStore } from '../../src/stores/sqlite/sqlite-key-store.js';
import type { MicroCase } from './harness.js';
import { formatResults, isMain, measure } from './harness.js';

export async function keyLookupCases(): Promise<{ cases: MicroCase[]; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'mgw-micro-'));
  const db = openDatabase(`file:${join(dir, 'keys.db')}`);
  const store = new SqliteKeyStore(db);
  const { key } = await store.createKey({ customerName: 'bench', name: 'micro' });
  for (let i = 0; i < 1000; i++) await store.createKey({ customerName: `c${i % 50}`, name: `k${i}` });
  const cache = new KeyCache(store, { refreshMs: 60_000 });
  await cache.start();
  const unknown = `${key.slice(0, -4)}AAAA`;
  await cache.authenticateAsync(unknown);
  return {
    cases: [
      { name: 'known key (1,001 keys loaded)', fn: () => cache.authenticate(key) },
      { name: 'right id, wrong secret', fn: () => cache.authenticate(unknown) },
      { name: 'malformed', fn: () => cache.authenticate('not-a-key') },
    ],
    async close() {
      await cache.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

if (isMain(import.meta.url)) {
  const { cases, close } = await keyLookupCases();
  console.log(formatResults('key lookup, per request', cases.map((c) => measure(c))));
  await close();
}
