// The PostgreSQL key change feed under real concurrency: two revocations held open on two connections and
// committed out of order, a reader polling in between. A reader must see both, eventually, and never move
// its cursor past a change that a slower transaction has yet to commit.
import t from 'tap';
import { KeyCache } from '../../../src/keys/key-cache.js';
import type { KeyChange } from '../../../src/keys/key-store.js';
import { KeyChangeListener } from '../../../src/stores/postgres/key-change-listener.js';
import { PostgresKeyStore, revokeOn } from '../../../src/stores/postgres/postgres-key-store.js';
import { readFeedUntil } from '../../contract/key-store.contract.js';
import { emptyStores, migratedDatabase, testPool } from '../../helpers/postgres.js';
import { waitFor } from '../../helpers/wait.js';

const { url, pool } = await migratedDatabase(t);
const store = new PostgresKeyStore(pool);

/** A reader as a cache is one: a cursor and the latest state of every key it was handed. */
function reader(start: number) {
  let cursor = start;
  const state = new Map<string, KeyChange>();
  return {
    state,
    async poll(): Promise<void> {
      const page = await store.changesSince(cursor);
      for (const change of page.rows) {
        const known = state.get(change.record.id);
        if (!known || known.version < change.version) state.set(change.record.id, change);
      }
      cursor = page.maxVersion;
    },
  };
}

for (const order of ['the lower version commits last', 'the lower version commits first'] as const) {
  t.test(`two revocations committed out of order are both seen (${order})`, async (t) => {
    await emptyStores(pool);
    const a = (await store.createKey({ customerName: 'acme' })).record.id;
    const b = (await store.createKey({ customerName: 'acme' })).record.id;
    const start = await readFeedUntil(store, 0, (rows) => rows.length === 2);
    const r = reader(start.cursor);

    const one = await pool.connect();
    const two = await pool.connect();
    t.teardown(() => {
      one.release();
      two.release();
    });
    // `one` takes its transaction id first; then `two` revokes b (the lower row version), then `one`
    // revokes a (the higher): transaction order and version order disagree, as they can in production.
    await one.query('BEGIN');
    await one.query('SELECT pg_current_xact_id()');
    await two.query('BEGIN');
    t.ok(await revokeOn(two, b));
    t.ok(await revokeOn(one, a));

    const [firstCommit, secondCommit] = order === 'the lower version commits last' ? [one, two] : [two, one];
    await r.poll();
    await firstCommit.query('COMMIT');
    await r.poll();
    await r.poll();
    await secondCommit.query('COMMIT');
    await waitFor(async () => {
      await r.poll();
      return r.state.get(a)?.record.status === 'revoked' && r.state.get(b)?.record.status === 'revoked';
    }, 5000);
    t.equal(r.state.get(a)?.record.status, 'revoked');
    t.equal(r.state.get(b)?.record.status, 'revoked');
  });
}

t.test('a revocation through one instance reaches the other instance\'s cache', async (t) => {
  await emptyStores(pool);
  const { key, record } = await store.createKey({ customerName: 'acme' });
  const other = new PostgresKeyStore(testPool(t, url, 2));
  const cache = new KeyCache(other, { refreshMs: 50 });
  await cache.start();
  t.teardown(() => cache.close());
  t.match(cache.authenticate(key), { ok: true });
  t.ok(await store.revokeKey(record.id));
  await waitFor(() => cache.authenticate(key).ok === false, 2000);
  t.same(cache.authenticate(key), { ok: false, reason: 'revoked' });
});

t.test('the listener is told of a commit on another connection, and again after its connection is cut', async (t) => {
  await emptyStores(pool);
  const heard: string[] = [];
  const listener = new KeyChangeListener(url, { onChange: (why) => heard.push(why), retryMs: 20 });
  t.teardown(() => listener.close());
  await listener.start();
  t.same(heard, ['connected']);

  await store.createKey({ customerName: 'acme' });
  await waitFor(() => heard.includes('notified'), 2000);

  heard.length = 0;
  await pool.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'model-gateway key listener' AND datname = current_database()`);
  await waitFor(() => heard.includes('connected'), 5000);
  t.ok(listener.listening, 'listening again');

  heard.length = 0;
  const { record } = await store.createKey({ customerName: 'acme' });
  await store.revokeKey(record.id);
  await waitFor(() => heard.includes('notified'), 2000);
  t.pass('told of changes after reconnecting');
});
