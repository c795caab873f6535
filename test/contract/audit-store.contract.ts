// What every store of the admin trail must do, whatever database holds it: keep each row exactly as
// appended, list newest first with the filters the CLI and the admin API use, drop only rows older than
// the retention, and refuse to change a row. Each implementation's test file runs this suite with a
// factory that hands each test an empty store.
import type { Test } from 'tap';
import type { AuditStore, NewAuditEntry } from '../../src/stores/audit-store.js';

export interface AuditStoreFixture {
  store: AuditStore;
  /** Tries to change every stored row behind the store's back (raw SQL); the database must refuse. */
  tryUpdate: () => Promise<unknown>;
}

export type AuditStoreFactory = (t: Test) => Promise<AuditStoreFixture>;

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const MINUTE = 60_000;

function entry(minutes: number, overrides: Partial<NewAuditEntry> = {}): NewAuditEntry {
  return {
    at: new Date(T0 + minutes * MINUTE),
    actor: 'operator',
    address: '203.0.113.7',
    action: 'key.create',
    customerId: 'cus_a',
    targetId: `key_${minutes}`,
    before: null,
    after: { name: `key ${minutes}` },
    ...overrides,
  };
}

export function auditStoreContract(t: Test, open: AuditStoreFactory): void {
  t.test('a row reads back exactly as appended, states included', async (t) => {
    const { store } = await open(t);
    const appended = entry(0, {
      actor: 'amy@acme.example',
      address: '2001:db8::1',
      action: 'customer.budget',
      before: { budget: null, nested: { list: [1, 'two', null], flag: true } },
      after: { budget: { amountUsd: '12.5', period: 'month', mode: 'hard' }, name: 'naïve \u001b[31m "quoted" ✓' },
    });
    await store.append(appended);
    const [row, ...rest] = await store.list();
    t.same(rest, [], 'one row');
    t.match(row.id, /^\d+$/, 'the id is a decimal string');
    t.same({ ...row, id: undefined }, { ...appended, at: '2026-03-01T10:00:00.000Z', id: undefined });
  });

  t.test('a row without an address, customer, target or states keeps its nulls', async (t) => {
    const { store } = await open(t);
    const appended = entry(1, { actor: 'cli@build-host', address: null, customerId: null, targetId: null, before: null, after: null, action: 'session.sign_in_failed' });
    await store.append(appended);
    const [row] = await store.list();
    t.same(row, { ...appended, at: appended.at.toISOString(), id: row.id });
  });

  t.test('newest first; ids follow the order of appending; since, customer and limit filter', async (t) => {
    const { store } = await open(t);
    await store.append(entry(0));
    await store.append(entry(5, { customerId: 'cus_b' }));
    await store.append(entry(10));
    await store.append(entry(10, { targetId: 'same_minute_later' }));
    await store.append(entry(20, { customerId: null }));
    const all = await store.list();
    t.same(all.map((r) => r.targetId), ['key_20', 'same_minute_later', 'key_10', 'key_5', 'key_0']);
    const ids = all.map((r) => BigInt(r.id));
    t.ok(ids.every((id, i) => i === 0 || id < ids[i - 1]), 'ids decrease down the list');
    t.same((await store.list({ customerId: 'cus_a' })).map((r) => r.targetId), ['same_minute_later', 'key_10', 'key_0'], 'one customer only');
    t.same((await store.list({ customerId: 'cus_nobody' })), [], 'a customer without rows has none');
    t.same((await store.list({ sinceMs: T0 + 10 * MINUTE })).map((r) => r.targetId), ['key_20', 'same_minute_later', 'key_10'], 'since is inclusive');
    t.same((await store.list({ sinceMs: T0 + 5 * MINUTE, customerId: 'cus_a' })).map((r) => r.targetId), ['same_minute_later', 'key_10']);
    t.same((await store.list({ limit: 2 })).map((r) => r.targetId), ['key_20', 'same_minute_later'], 'the newest rows within the limit');
  });

  t.test('retention: only rows older than the cutoff are deleted, and counted', async (t) => {
    const { store } = await open(t);
    await store.append(entry(0));
    await store.append(entry(1));
    await store.append(entry(2));
    t.equal(await store.deleteOlderThan(new Date(T0 + MINUTE)), 1);
    t.same((await store.list()).map((r) => r.targetId), ['key_2', 'key_1'], 'a row exactly at the cutoff stays');
    t.equal(await store.deleteOlderThan(new Date(T0)), 0, 'nothing older left');
  });

  t.test('append-only: the database refuses to change a row', async (t) => {
    const { store, tryUpdate } = await open(t);
    await store.append(entry(0));
    const before = await store.list();
    await t.rejects(tryUpdate(), /audit_log rows cannot be changed/);
    t.same(await store.list(), before, 'the row is as it was');
  });
}
