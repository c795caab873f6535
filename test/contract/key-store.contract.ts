// What every KeyStore must do, whatever it stores keys in. Each implementation's test file runs this
// suite with a factory that hands each test an empty store.
import type { Test } from 'tap';
import { hashSecret, parseKey } from '../../src/keys/key-format.js';
import { KeyLimitError, KeyStoreError, type KeyChange, type KeyStore } from '../../src/keys/key-store.js';

export interface KeyStoreFixture {
  store: KeyStore;
  /** Everything the store keeps about keys, as text, to check a secret is nowhere in it. */
  storedText(): Promise<string>;
}

export type KeyStoreFactory = (t: Test) => Promise<KeyStoreFixture>;

const inOneHour = () => new Date(Date.now() + 3600_000).toISOString();

/**
 * Reads the change feed from `cursor` until `done` holds for everything read, as a cache's refresh loop
 * would: a feed may hand a committed change out a moment later (PostgreSQL waits for older transactions).
 */
export async function readFeedUntil(
  store: KeyStore,
  cursor: number,
  done: (rows: KeyChange[]) => boolean,
  timeoutMs = 5000,
): Promise<{ rows: KeyChange[]; cursor: number }> {
  const rows: KeyChange[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const page = await store.changesSince(cursor);
    if (page.maxVersion < cursor) throw new Error(`the cursor went back from ${cursor} to ${page.maxVersion}`);
    rows.push(...page.rows);
    cursor = page.maxVersion;
    if (done(rows)) return { rows, cursor };
    if (Date.now() > deadline) throw new Error(`the change feed did not deliver in ${timeoutMs} ms: ${JSON.stringify(rows.map((r) => r.record.id))}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function keyStoreContract(t: Test, open: KeyStoreFactory): void {
  t.test('createKey creates the customer when new and stores only a hash of the secret', async (t) => {
    const { store, storedText } = await open(t);
    const settings = {
      name: 'ci',
      expiresAt: inOneHour(),
      allowedModels: ['claude-haiku-4-5-20251001', 'claude-sonnet-4-6'],
      rpm: 60,
      tpm: 100_000_000_000,
    };
    const { record, key } = await store.createKey({ customerName: ' acme ', ...settings });
    const parsed = parseKey(key);
    if (!parsed) throw new Error('unparseable key');
    t.equal(record.id, parsed.publicId);
    t.equal(record.prefix, `mgw_${parsed.publicId}`);
    t.match(record, { customerName: 'acme', ...settings, status: 'active', lastUsedAt: null, revokedAt: null });
    t.ok(Date.parse(record.createdAt) > Date.now() - 60_000, 'createdAt is now');
    const customer = await store.getCustomerByName('acme');
    t.equal(customer?.id, record.customerId);
    t.notOk((await storedText()).includes(parsed.secret), 'the secret is nowhere in the store');
    t.same((await store.findByPublicId(record.id))?.secretHash, hashSecret(parsed.secret), 'its SHA-256 is');
    t.equal(await store.findByPublicId('zzzzzzzzzzzzzzzz'), null, 'an unknown public id is null');

    const second = await store.createKey({ customerName: 'acme' });
    t.equal(second.record.customerId, record.customerId, 'an existing customer is reused');
    t.same(second.record, { ...second.record, name: null, expiresAt: null, allowedModels: null, rpm: null, tpm: null });
    t.equal((await store.listCustomers()).length, 1);
  });

  t.test('maxActiveKeys: a customer holds at most that many active keys; revoked keys do not count', async (t) => {
    const { store } = await open(t);
    const first = await store.createKey({ customerName: 'acme', maxActiveKeys: 2 });
    await store.createKey({ customerName: 'acme', maxActiveKeys: 2 });
    const refused = await store.createKey({ customerName: 'acme', name: 'third', maxActiveKeys: 2 }).catch((err: unknown) => err);
    t.ok(refused instanceof KeyLimitError, 'the third is refused');
    t.ok(refused instanceof KeyStoreError, 'as a KeyStoreError, like other refusals');
    t.match(refused, { limit: 2, customerName: 'acme', message: /customer "acme" already has 2 active keys, the most GATEWAY_MAX_KEYS_PER_CUSTOMER allows/ });
    t.equal((await store.listKeys()).length, 2, 'nothing was written');
    t.ok((await store.createKey({ customerName: 'other', maxActiveKeys: 2 })).record, 'another customer has its own count');
    t.ok((await store.createKey({ customerName: 'acme' })).record, 'without a cap the store itself sets none');
    t.ok((await store.createKey({ customerName: 'acme', maxActiveKeys: 0 })).record, '0 is no cap');
    await store.revokeKey(first.record.id);
    const afterRevoke = await store.createKey({ customerId: first.record.customerId, maxActiveKeys: 3 }).catch((err: unknown) => err);
    t.ok(afterRevoke instanceof KeyLimitError, 'three active (the uncapped ones count too) reach a cap of 3');
    t.ok((await store.createKey({ customerId: first.record.customerId, maxActiveKeys: 4 })).record, 'the revoked key is not counted: three active, room for a fourth');
  });

  t.test('maxActiveKeys holds under concurrent creations for one customer', async (t) => {
    const { store } = await open(t);
    const { record } = await store.createKey({ customerName: 'race' });
    const results = await Promise.allSettled(Array.from({ length: 24 }, () => store.createKey({ customerId: record.customerId, maxActiveKeys: 5 })));
    const created = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected' && r.reason instanceof KeyLimitError).length;
    t.equal(created, 4, 'exactly the four that fit beside the first');
    t.equal(refused, 20, 'every other one refused by the cap, none failing otherwise');
    t.equal((await store.listKeys({ customerId: record.customerId })).length, 5);
  });

  t.test('invalid settings are refused with a KeyStoreError and leave nothing behind', async (t) => {
    const { store } = await open(t);
    const bad = [
      { customerName: '  ' },
      {},
      { customerId: 'cus_nope' },
      { customerName: 'a', rpm: 0 },
      { customerName: 'a', tpm: 1.5 },
      { customerName: 'a', expiresAt: 'tomorrow' },
      { customerName: 'a', expiresAt: '2001-01-01T00:00:00Z' },
      { customerName: 'a', allowedModels: [] },
      { customerName: 'a', allowedModels: ['x', ' '] },
    ];
    for (const input of bad) await t.rejects(store.createKey(input), KeyStoreError, JSON.stringify(input));
    t.same(await store.listKeys(), []);
    t.same(await store.listCustomers(), [], 'a refused key leaves no customer behind');
    await store.createCustomer('a');
    await t.rejects(store.createCustomer('a'), KeyStoreError, 'customer names are unique');
    await t.rejects(store.createCustomer(' '), KeyStoreError);
  });

  t.test('customers: by id, by name, listed by name', async (t) => {
    const { store } = await open(t);
    const zed = await store.createCustomer('zed');
    const acme = await store.createCustomer('Acme');
    const beta = await store.createCustomer('beta');
    t.same(await store.getCustomer(acme.id), acme);
    t.same(await store.getCustomerByName(' zed '), zed);
    t.equal(await store.getCustomer('cus_nope'), null);
    t.equal(await store.getCustomer('acme'), null, 'a name is not an id');
    t.equal(await store.getCustomerByName('acme'), null, 'names are matched exactly');
    t.same((await store.listCustomers()).map((c) => c.name), ['Acme', 'beta', 'zed'], 'in byte order');
    t.same(await store.createKey({ customerId: beta.id }).then((k) => k.record.customerName), 'beta');
  });

  t.test('list, get and revoke', async (t) => {
    const { store } = await open(t);
    const a = await store.createKey({ customerName: 'a' });
    const b = await store.createKey({ customerName: 'b' });
    t.same((await store.listKeys()).map((k) => k.id).sort(), [a.record.id, b.record.id].sort());
    t.same((await store.listKeys({ customerId: a.record.customerId })).map((k) => k.id), [a.record.id]);
    t.same(await store.getKey(a.record.id), a.record);
    t.equal(await store.getKey('0000000000000000'), null);

    t.equal(await store.revokeKey(a.record.id), true);
    t.equal(await store.revokeKey(a.record.id), false, 'revoking twice changes nothing');
    t.equal(await store.revokeKey('0000000000000000'), false);
    const revoked = await store.getKey(a.record.id);
    t.equal(revoked?.status, 'revoked');
    t.ok(revoked?.revokedAt);
    t.equal((await store.getKey(b.record.id))?.status, 'active');
  });

  t.test('the change feed: every change once, a row version that rises, last use is no change', async (t) => {
    const { store } = await open(t);
    const empty = await store.changesSince(0);
    t.same(empty.rows, []);
    const a = await store.createKey({ customerName: 'a' });
    const b = await store.createKey({ customerName: 'a' });
    const first = await readFeedUntil(store, empty.maxVersion, (rows) => rows.length >= 2);
    t.same(first.rows.map((r) => r.record.id), [a.record.id, b.record.id], 'in the order they were made');
    t.same(first.rows[0].record, a.record);
    t.same((await store.changesSince(first.cursor)).rows, [], 'nothing twice');

    t.ok(await store.revokeKey(a.record.id));
    const next = await readFeedUntil(store, first.cursor, (rows) => rows.length >= 1);
    t.same(next.rows.map((r) => [r.record.id, r.record.status]), [[a.record.id, 'revoked']]);
    t.ok(next.rows[0].version > first.rows[0].version, 'the row version rose');
    t.same((await store.findByPublicId(a.record.id))?.version, next.rows[0].version, 'a lookup sees the same version');

    await store.touchLastUsed([{ id: b.record.id, at: Date.now() }]);
    t.same((await store.changesSince(next.cursor)).rows, [], 'last use is not a change for caches');
  });

  t.test('setCustomerLimits stores and clears a customer\'s own limits', async (t) => {
    const { store } = await open(t);
    const acme = await store.createCustomer('acme');
    t.match(acme, { rpm: null, tpm: null }, 'a new customer has no limits of its own');
    const { record } = await store.createKey({ customerId: acme.id, rpm: 5 });
    t.match(record, { rpm: 5, customerRpm: null, customerTpm: null });

    const set = await store.setCustomerLimits(acme.id, { rpm: 600, tpm: 400_000_000_000 });
    t.same(set, { ...acme, rpm: 600, tpm: 400_000_000_000 });
    t.same(await store.getCustomer(acme.id), set);
    t.same(await store.getCustomerByName('acme'), set);
    t.same(await store.listCustomers(), [set]);
    t.match(await store.getKey(record.id), { rpm: 5, tpm: null, customerRpm: 600, customerTpm: 400_000_000_000 }, 'keys carry them');
    t.match(await store.listKeys({ customerId: acme.id }), [{ customerRpm: 600, customerTpm: 400_000_000_000 }]);

    t.same(await store.setCustomerLimits(acme.id, { rpm: null, tpm: 1000 }), { ...acme, rpm: null, tpm: 1000 }, 'both given: both replaced');
    t.same(await store.setCustomerLimits(acme.id, { rpm: null, tpm: null }), acme, 'null clears');
    t.match(await store.findByPublicId(record.id), { record: { customerRpm: null, customerTpm: null } });
  });

  t.test('setCustomerLimits: the customer\'s keys come again through the change feed, with the new limits', async (t) => {
    const { store } = await open(t);
    const a1 = await store.createKey({ customerName: 'acme' });
    const a2 = await store.createKey({ customerName: 'acme' });
    const revoked = await store.createKey({ customerName: 'acme' });
    await store.revokeKey(revoked.record.id);
    const other = await store.createKey({ customerName: 'beta' });
    const before = await readFeedUntil(store, 0, (rows) => rows.some((r) => r.record.id === revoked.record.id && r.record.status === 'revoked'));
    const versionOf = new Map(before.rows.map((r) => [r.record.id, r.version]));

    await store.setCustomerLimits(a1.record.customerId, { rpm: 60, tpm: null });
    const acmeIds = [a1.record.id, a2.record.id, revoked.record.id].sort();
    const after = await readFeedUntil(store, before.cursor, (rows) => rows.length >= 3);
    t.same(after.rows.map((r) => r.record.id).sort(), acmeIds, 'every key of the customer, revoked ones too, and no other');
    for (const row of after.rows) {
      t.match(row.record, { customerRpm: 60, customerTpm: null }, row.record.id);
      t.ok(row.version > (versionOf.get(row.record.id) ?? Infinity), 'its version rose');
    }
    t.match(after.rows.find((r) => r.record.id === revoked.record.id)?.record, { status: 'revoked' }, 'nothing else about a key changes');
    t.same((await store.changesSince(after.cursor)).rows, [], 'each key once');
    t.same((await store.findByPublicId(other.record.id))?.version, versionOf.get(other.record.id), 'another customer\'s keys are untouched');

    const empty = await store.createCustomer('no-keys');
    t.match(await store.setCustomerLimits(empty.id, { rpm: 1, tpm: 1 }), { rpm: 1, tpm: 1 }, 'a customer without keys takes limits too');
  });

  t.test('setCustomerLimits refuses an unknown customer and invalid numbers, changing nothing', async (t) => {
    const { store } = await open(t);
    const acme = await store.setCustomerLimits((await store.createCustomer('acme')).id, { rpm: 10, tpm: 20 });
    await t.rejects(store.setCustomerLimits('cus_nope', { rpm: 1, tpm: null }), KeyStoreError, 'unknown id');
    await t.rejects(store.setCustomerLimits('acme', { rpm: 1, tpm: null }), KeyStoreError, 'a name is not an id');
    const bad = [
      { rpm: 0, tpm: null },
      { rpm: -5, tpm: null },
      { rpm: null, tpm: 1.5 },
      { rpm: Number.NaN, tpm: null },
      { rpm: null, tpm: Number.MAX_SAFE_INTEGER + 1 },
    ];
    for (const limits of bad) await t.rejects(store.setCustomerLimits(acme.id, limits), KeyStoreError, JSON.stringify(limits));
    t.same(await store.getCustomer(acme.id), acme, 'the stored limits stay');
  });

  t.test('budgets: a key\'s own at creation, a customer\'s set, replaced and cleared; keys carry both', async (t) => {
    const { store } = await open(t);
    const acme = await store.createCustomer('acme');
    t.equal(acme.budget, null, 'a new customer has no budget');
    const keyBudget = { amountNanoUsd: 12_500_000_000, period: 'day', mode: 'soft' } as const;
    const { record } = await store.createKey({ customerId: acme.id, budget: keyBudget });
    t.same(record.budget, keyBudget);
    t.equal(record.customerBudget, null);
    t.equal((await store.createKey({ customerId: acme.id })).record.budget, null, 'no budget unless given');

    // Up to $9,000,000: beyond 2^32 nano-dollars, stored and read back exactly.
    const big = { amountNanoUsd: 9_000_000_000_000_000, period: 'month', mode: 'hard' } as const;
    const set = await store.setCustomerBudget(acme.id, big);
    t.same(set, { ...acme, budget: big });
    t.same(await store.getCustomer(acme.id), set);
    t.same(await store.getCustomerByName('acme'), set);
    t.same(await store.listCustomers(), [set]);
    t.match(await store.getKey(record.id), { budget: keyBudget, customerBudget: big }, 'keys carry the customer\'s');
    t.match(await store.listKeys({ customerId: acme.id }), [{ customerBudget: big }, { customerBudget: big }]);

    const total = { amountNanoUsd: 1, period: 'total', mode: 'hard' } as const;
    t.same(await store.setCustomerBudget(acme.id, total), { ...acme, budget: total }, 'replaced whole');
    t.same(await store.setCustomerBudget(acme.id, null), acme, 'null clears');
    t.match(await store.findByPublicId(record.id), { record: { budget: keyBudget, customerBudget: null } });
  });

  t.test('setCustomerBudget: the customer\'s keys come again through the change feed, with the new budget', async (t) => {
    const { store } = await open(t);
    const a1 = await store.createKey({ customerName: 'acme' });
    const a2 = await store.createKey({ customerName: 'acme' });
    const other = await store.createKey({ customerName: 'beta' });
    const before = await readFeedUntil(store, 0, (rows) => rows.some((r) => r.record.id === other.record.id));
    const versionOf = new Map(before.rows.map((r) => [r.record.id, r.version]));

    const budget = { amountNanoUsd: 5_000_000_000, period: 'month', mode: 'hard' } as const;
    await store.setCustomerBudget(a1.record.customerId, budget);
    const after = await readFeedUntil(store, before.cursor, (rows) => rows.length >= 2);
    t.same(after.rows.map((r) => r.record.id).sort(), [a1.record.id, a2.record.id].sort(), 'every key of the customer and no other');
    for (const row of after.rows) {
      t.same(row.record.customerBudget, budget, row.record.id);
      t.ok(row.version > (versionOf.get(row.record.id) ?? Infinity), 'its version rose');
    }
    t.same((await store.findByPublicId(other.record.id))?.version, versionOf.get(other.record.id), 'another customer\'s keys are untouched');
  });

  t.test('budgets: unknown customer and invalid budgets are refused, changing nothing', async (t) => {
    const { store } = await open(t);
    const good = { amountNanoUsd: 10, period: 'month', mode: 'hard' } as const;
    const acme = await store.setCustomerBudget((await store.createCustomer('acme')).id, good);
    await t.rejects(store.setCustomerBudget('cus_nope', good), KeyStoreError, 'unknown id');
    const bad = [
      { amountNanoUsd: 0, period: 'month', mode: 'hard' },
      { amountNanoUsd: -1, period: 'month', mode: 'hard' },
      { amountNanoUsd: 1.5, period: 'month', mode: 'hard' },
      { amountNanoUsd: 9_000_000_000_000_001, period: 'month', mode: 'hard' },
      { amountNanoUsd: 10, period: 'week', mode: 'hard' },
      { amountNanoUsd: 10, period: 'month', mode: 'strict' },
    ] as unknown as Array<typeof good>;
    for (const budget of bad) {
      await t.rejects(store.setCustomerBudget(acme.id, budget), KeyStoreError, JSON.stringify(budget));
      await t.rejects(store.createKey({ customerId: acme.id, budget }), KeyStoreError, `key: ${JSON.stringify(budget)}`);
    }
    t.same(await store.getCustomer(acme.id), acme, 'the stored budget stays');
    t.same(await store.listKeys(), [], 'no key created');
  });

  t.test('updateKey changes only the fields given, in the record and through the change feed', async (t) => {
    const { store } = await open(t);
    const budget = { amountNanoUsd: 5_000_000_000, period: 'day', mode: 'soft' } as const;
    const created = await store.createKey({ customerName: 'acme', name: 'ci', expiresAt: inOneHour(), allowedModels: ['m1'], rpm: 10, tpm: 1000, budget });
    const before = await readFeedUntil(store, 0, (rows) => rows.length >= 1);

    const renamed = await store.updateKey(created.record.id, { name: ' nightly ' });
    t.same(renamed, { ...created.record, name: 'nightly' }, 'only the name changed (trimmed)');
    const fed = await readFeedUntil(store, before.cursor, (rows) => rows.length >= 1);
    t.same(fed.rows.map((r) => r.record), [renamed], 'the edit comes through the change feed');
    t.ok(fed.rows[0].version > before.rows[0].version, 'with a higher version');

    const expires = new Date(Date.now() + 7200_000).toISOString();
    const all = await store.updateKey(created.record.id, { expiresAt: expires, allowedModels: ['m2', 'm3'], rpm: null, tpm: 5 });
    t.match(all, { name: 'nightly', expiresAt: expires, allowedModels: ['m2', 'm3'], rpm: null, tpm: 5, budget });
    const cleared = await store.updateKey(created.record.id, { expiresAt: null, allowedModels: null, name: null });
    t.match(cleared, { name: null, expiresAt: null, allowedModels: null, tpm: 5 }, 'null removes a setting');

    // A budget: the amount alone keeps period and mode; a mode alone keeps the amount; null removes it.
    t.same((await store.updateKey(created.record.id, { budget: { amountNanoUsd: 7_000_000_000 } }))?.budget, { ...budget, amountNanoUsd: 7_000_000_000 });
    t.same((await store.updateKey(created.record.id, { budget: { mode: 'hard' } }))?.budget, { amountNanoUsd: 7_000_000_000, period: 'day', mode: 'hard' });
    t.equal((await store.updateKey(created.record.id, { budget: null }))?.budget, null);
    await t.rejects(store.updateKey(created.record.id, { budget: { period: 'month' } }), KeyStoreError, 'a period alone needs a budget');
    t.same((await store.updateKey(created.record.id, { budget: { amountNanoUsd: 1 } }))?.budget, { amountNanoUsd: 1, period: 'month', mode: 'hard' }, 'a new budget: month, hard');

    t.equal(await store.updateKey('0000000000000000', { rpm: 1 }), null, 'unknown id: null');
    t.same((await store.getKey(created.record.id))?.status, 'active');
  });

  t.test('updateKey refuses what keys create refuses, a revoked key and an empty change, changing nothing', async (t) => {
    const { store } = await open(t);
    const { record } = await store.createKey({ customerName: 'acme', name: 'ci', rpm: 10 });
    const bad = [
      {},
      { name: 'evil\x1b[2J' },
      { name: 'bidi\u202e' },
      { expiresAt: '2001-01-01T00:00:00Z' },
      { expiresAt: 'tomorrow' },
      { allowedModels: [] },
      { allowedModels: [' '] },
      { rpm: 0 },
      { tpm: 1.5 },
      { budget: { amountNanoUsd: 0 } },
      { budget: { period: 'week' as never, amountNanoUsd: 1 } },
      { budget: { mode: 'strict' as never, amountNanoUsd: 1 } },
    ];
    for (const changes of bad) await t.rejects(store.updateKey(record.id, changes), KeyStoreError, JSON.stringify(changes));
    t.same(await store.getKey(record.id), record, 'nothing changed');
    await store.revokeKey(record.id);
    const revoked = await store.getKey(record.id);
    await t.rejects(store.updateKey(record.id, { rpm: 5 }), KeyStoreError, 'a revoked key');
    t.same(await store.getKey(record.id), revoked);
  });

  t.test('updateKey: concurrent edits of different fields both hold (no read-then-write)', async (t) => {
    const { store } = await open(t);
    const { record } = await store.createKey({ customerName: 'acme' });
    for (let i = 1; i <= 10; i++) {
      await Promise.all([store.updateKey(record.id, { rpm: i }), store.updateKey(record.id, { tpm: i * 100 }), store.updateKey(record.id, { name: `n${i}` })]);
      t.match(await store.getKey(record.id), { rpm: i, tpm: i * 100, name: `n${i}` }, `round ${i}`);
    }
  });

  t.test('setCustomerLimits and setCustomerBudget change only the fields given', async (t) => {
    const { store } = await open(t);
    const acme = await store.createCustomer('acme');
    await store.setCustomerLimits(acme.id, { rpm: 600, tpm: 9000 });
    await Promise.all([store.setCustomerLimits(acme.id, { rpm: 60 }), store.setCustomerLimits(acme.id, { tpm: 90 })]);
    t.match(await store.getCustomer(acme.id), { rpm: 60, tpm: 90 }, 'both concurrent changes hold');
    t.match(await store.setCustomerLimits(acme.id, { rpm: null }), { rpm: null, tpm: 90 }, 'null removes only that one');
    await t.rejects(store.setCustomerLimits(acme.id, {}), KeyStoreError, 'no limit given');

    await t.rejects(store.setCustomerBudget(acme.id, { mode: 'soft' }), KeyStoreError, 'a mode alone needs a budget');
    t.same((await store.setCustomerBudget(acme.id, { amountNanoUsd: 2_000_000_000 })).budget, { amountNanoUsd: 2_000_000_000, period: 'month', mode: 'hard' });
    t.same((await store.setCustomerBudget(acme.id, { period: 'day' })).budget, { amountNanoUsd: 2_000_000_000, period: 'day', mode: 'hard' });
    await Promise.all([store.setCustomerBudget(acme.id, { mode: 'soft' }), store.setCustomerBudget(acme.id, { amountNanoUsd: 3_000_000_000 })]);
    t.same((await store.getCustomer(acme.id))?.budget, { amountNanoUsd: 3_000_000_000, period: 'day', mode: 'soft' }, 'both concurrent changes hold');
    await t.rejects(store.setCustomerBudget(acme.id, {}), KeyStoreError, 'no change given');
    await t.rejects(store.setCustomerBudget('cus_nope', { mode: 'soft' }), KeyStoreError, 'unknown customer');
    t.match(await store.getCustomer(acme.id), { rpm: null, tpm: 90, budget: { amountNanoUsd: 3_000_000_000 } }, 'the refusals changed nothing');
  });

  t.test('touchLastUsed never moves a time backwards and ignores unknown ids', async (t) => {
    const { store } = await open(t);
    const { record } = await store.createKey({ customerName: 'a' });
    const later = Date.parse('2030-01-02T00:00:00Z');
    await store.touchLastUsed([{ id: record.id, at: later }]);
    await store.touchLastUsed([
      { id: record.id, at: later - 60_000 },
      { id: 'unknown000000000', at: later },
    ]);
    t.equal((await store.getKey(record.id))?.lastUsedAt, new Date(later).toISOString());
    await store.touchLastUsed([
      { id: record.id, at: later + 1000 },
      { id: record.id, at: later + 5000 },
      { id: record.id, at: later + 2000 },
    ]);
    t.equal((await store.getKey(record.id))?.lastUsedAt, new Date(later + 5000).toISOString(), 'the latest of a batch wins');
    await store.touchLastUsed([]);
  });
}
