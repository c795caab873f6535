// The gateway writes its keys' last-use times on the usage write thread, never on the event loop's
// own SQLite connection: there, a write waits (busy timeout, up to 5 s) whenever another connection
// holds the database's write lock — the usage thread does, many times a second — and every request
// waits with it. A connection holding the lock for as long as the test likes shows which one waits.
import { join } from 'node:path';
import t from 'tap';
import { openDatabase } from '../../../src/stores/sqlite/open.js';
import type { LastUse } from '../../../src/keys/key-store.js';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';
import { waitFor } from '../../helpers/wait.js';

t.test('last-use times go to the write thread, which waits for the lock while the event loop runs on', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { id, key } = await h.createKey();
  const onMainConnection: LastUse[][] = [];
  const keyStore = h.built.stores.keys;
  const touch = keyStore.touchLastUsed.bind(keyStore);
  keyStore.touchLastUsed = (entries) => {
    onMainConnection.push(entries);
    return touch(entries);
  };
  const body = JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] });
  const chat = () => call(`${h.url}/gateway/openai/v1/chat/completions`, { body, headers: bearer(key) });
  t.equal((await chat()).status, 200);
  const other = openDatabase(`file:${join(h.dataDir, 'gateway.db')}`);
  t.teardown(() => other.close());
  // The request's usage row, written by the thread: it is up (under the test loader it takes seconds to start).
  await waitFor(() => (other.prepare('SELECT count(*) AS n FROM usage_records').get() as { n: number }).n === 1, 30_000, 10);

  other.exec('BEGIN IMMEDIATE'); // the write lock, held until COMMIT below
  const usedFrom = Date.now();
  t.equal((await chat()).status, 200, 'a request is served while the lock is held');
  // Closing the runtime writes the pending last-use time. Were it written on the event loop's
  // connection, that write would hold the loop in SQLite's busy handler until the timeout and fail:
  // the timer below could not fire before then, and the COMMIT would come too late.
  const closing = h.built.close();
  let turns = 0;
  const spinning = setInterval(() => turns++, 1);
  await new Promise((resolve) => setTimeout(resolve, 100));
  clearInterval(spinning);
  other.exec('COMMIT');
  await closing;

  t.same(onMainConnection, [], 'no last-use write ran on the event loop\'s connection');
  t.ok(turns > 5, `the event loop kept turning while the lock was held (${turns} timer turns in 100 ms)`);
  const row = other.prepare('SELECT last_used_at FROM api_keys WHERE id = ?').get(id) as { last_used_at: string | null };
  t.ok(Date.parse(row.last_used_at ?? '') >= usedFrom, `the thread wrote the last use once the lock was free (${row.last_used_at})`);
  t.notMatch(h.logText(), /key cache background work failed/, 'no write failed');
});
