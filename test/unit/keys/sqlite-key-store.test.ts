import t from 'tap';
import { hashSecret, parseKey } from '../../../src/keys/key-format.js';
import { KeyStoreError } from '../../../src/keys/key-store.js';
import { openStore } from './fixtures/store.js';

const inOneHour = () => new Date(Date.now() + 3600_000).toISOString();

t.test('createKey creates the customer when new and stores only a hash of the secret', async (t) => {
  const { db, store } = openStore(t);
  const settings = {
    name: 'ci',
    expiresAt: inOneHour(),
    allowedModels: ['claude-haiku-4-5-20251001', 'claude-sonnet-4-6'],
    rpm: 60,
    tpm: 100_000,
  };
  const { record, key } = await store.createKey({ customerName: 'acme', ...settings });
  const parsed = parseKey(key);
  if (!parsed) throw new Error('unparseable key');
  t.equal(record.id, parsed.publicId);
  t.equal(record.prefix, `mgw_${parsed.publicId}`);
  t.match(record, {
    customerName: 'acme',
    ...settings,
    status: 'active',
    lastUsedAt: null,
    revokedAt: null,
  });
  const customer = await store.getCustomerByName('acme');
  t.equal(customer?.id, record.customerId);
  const row = db.prepare('SELECT * FROM api_keys').get() as Record<string, unknown>;
  t.same(row.secret_hash, hashSecret(parsed.secret));
  t.notOk(JSON.stringify(row).includes(parsed.secret), 'the secret is nowhere in the row');

  const second = await store.createKey({ customerName: 'acme' });
  t.equal(second.record.customerId, record.customerId, 'an existing customer is reused');
  t.same(second.record, { ...second.record, name: null, expiresAt: null, allowedModels: null, rpm: null, tpm: null });
  t.equal((await store.listCustomers()).length, 1);
});

t.test('invalid settings are refused with a KeyStoreError', async (t) => {
  const { store } = openStore(t);
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
});

t.test('list, get and revoke', async (t) => {
  const { store } = openStore(t);
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

t.test('every change raises the version; changesSince returns only later rows', async (t) => {
  const { store } = openStore(t);
  const all = await store.changesSince(0);
  t.same(all, { rows: [], maxVersion: 0 });
  const a = await store.createKey({ customerName: 'a' });
  const b = await store.createKey({ customerName: 'a' });
  const first = await store.changesSince(0);
  t.same(first.rows.map((r) => r.record.id), [a.record.id, b.record.id]);
  t.equal(first.maxVersion, first.rows[1].version);
  t.same(await store.changesSince(first.maxVersion), { rows: [], maxVersion: first.maxVersion });

  await store.revokeKey(a.record.id);
  const next = await store.changesSince(first.maxVersion);
  t.same(next.rows.map((r) => [r.record.id, r.record.status]), [[a.record.id, 'revoked']]);
  t.ok(next.maxVersion > first.maxVersion);

  await store.touchLastUsed([{ id: b.record.id, at: Date.now() }]);
  t.same((await store.changesSince(next.maxVersion)).rows, [], 'last use is not a change for caches');
});

t.test('touchLastUsed never moves a time backwards', async (t) => {
  const { store } = openStore(t);
  const { record } = await store.createKey({ customerName: 'a' });
  const later = Date.parse('2030-01-02T00:00:00Z');
  await store.touchLastUsed([{ id: record.id, at: later }]);
  await store.touchLastUsed([{ id: record.id, at: later - 60_000 }, { id: 'unknown000000000', at: later }]);
  t.equal((await store.getKey(record.id))?.lastUsedAt, new Date(later).toISOString());
});

t.test('findByPublicId returns the record with its hash', async (t) => {
  const { store } = openStore(t);
  const { record, key } = await store.createKey({ customerName: 'a' });
  const found = await store.findByPublicId(record.id);
  t.same(found?.record, record);
  t.same(found?.secretHash, hashSecret(parseKey(key)?.secret ?? ''));
  t.equal(await store.findByPublicId('zzzzzzzzzzzzzzzz'), null);
});

t.test('getCustomer finds a customer by id; an unknown id is null', async (t) => {
  const { store } = openStore(t);
  const acme = await store.createCustomer('acme');
  const other = await store.createCustomer('other');
  t.same(await store.getCustomer(acme.id), acme);
  t.same(await store.getCustomer(other.id), other);
  t.equal(await store.getCustomer('cus_nope'), null);
  t.equal(await store.getCustomer('acme'), null, 'a name is not an id');
});
