// The store contracts on the embedded SQLite database, a fresh file per test.
import t from 'tap';
import { SqliteAuditStore } from '../../src/stores/sqlite/sqlite-audit-store.js';
import { openDatabase } from '../../src/stores/sqlite/open.js';
import { SqliteKeyStore } from '../../src/stores/sqlite/sqlite-key-store.js';
import { SqliteSessionRows } from '../../src/stores/sqlite/sqlite-session-rows.js';
import { SqliteUserStore } from '../../src/stores/sqlite/sqlite-user-store.js';
import { SqliteUsageStore } from '../../src/stores/sqlite/sqlite-usage-store.js';
import { tempDatabaseUrl } from '../unit/keys/fixtures/store.js';
import { auditStoreContract } from './audit-store.contract.js';
import { dashboardStoresContract } from './dashboard-stores.contract.js';
import { keyStoreContract } from './key-store.contract.js';
import { spendOverviewContract } from './spend-overview.contract.js';
import { usageStoreContract } from './usage-store.contract.js';

function open(t: Parameters<typeof tempDatabaseUrl>[0]) {
  const db = openDatabase(tempDatabaseUrl(t));
  t.teardown(() => db.close());
  return db;
}

t.test('SqliteKeyStore', async (t) => {
  keyStoreContract(t, async (t) => {
    const db = open(t);
    const storedText = async () => JSON.stringify(db.prepare('SELECT * FROM api_keys').all());
    return { store: new SqliteKeyStore(db), storedText };
  });
});

t.test('SqliteUsageStore', async (t) => {
  usageStoreContract(
    t,
    async (t) => {
      const db = open(t);
      return { usage: new SqliteUsageStore(db), keys: new SqliteKeyStore(db) };
    },
    // usage_records has no unique request id in the SQLite schema yet (docs/postgres.md).
    { idempotentRetries: false },
  );
});

t.test('SqliteUsageStore spend overview', async (t) => {
  spendOverviewContract(t, async (t) => {
    const db = open(t);
    return { usage: new SqliteUsageStore(db), keys: new SqliteKeyStore(db) };
  });
});

t.test('SQLite dashboard users and sessions', async (t) => {
  dashboardStoresContract(t, async (t) => {
    const db = open(t);
    return { users: new SqliteUserStore(db), sessions: new SqliteSessionRows(db), keys: new SqliteKeyStore(db) };
  });
});

t.test('SqliteAuditStore', async (t) => {
  auditStoreContract(t, async (t) => {
    const db = open(t);
    return { store: new SqliteAuditStore(db), tryUpdate: async () => db.prepare("UPDATE audit_log SET actor = 'someone else'").run() };
  });
});
