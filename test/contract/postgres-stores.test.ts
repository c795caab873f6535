// The store contracts on PostgreSQL: a database of this file's own on the machine's server (dropped at the
// end), emptied before each test. Fails, naming the server, when PostgreSQL is not reachable.
import t from 'tap';
import { PostgresAuditStore } from '../../src/stores/postgres/postgres-audit-store.js';
import { PostgresKeyStore } from '../../src/stores/postgres/postgres-key-store.js';
import { PostgresSessionRows } from '../../src/stores/postgres/postgres-session-rows.js';
import { PostgresUserStore } from '../../src/stores/postgres/postgres-user-store.js';
import { PostgresUsageStore } from '../../src/stores/postgres/postgres-usage-store.js';
import { emptyStores, migratedDatabase } from '../helpers/postgres.js';
import { auditStoreContract } from './audit-store.contract.js';
import { dashboardStoresContract } from './dashboard-stores.contract.js';
import { keyStoreContract } from './key-store.contract.js';
import { spendOverviewContract } from './spend-overview.contract.js';
import { usageStoreContract } from './usage-store.contract.js';

const { pool } = await migratedDatabase(t);

t.test('PostgresKeyStore', async (t) => {
  keyStoreContract(t, async () => {
    await emptyStores(pool);
    const storedText = async () => JSON.stringify((await pool.query('SELECT *, encode(secret_hash, \'escape\') AS raw FROM api_keys')).rows);
    return { store: new PostgresKeyStore(pool), storedText };
  });
});

t.test('PostgresUsageStore', async (t) => {
  usageStoreContract(
    t,
    async () => {
      await emptyStores(pool);
      return { usage: new PostgresUsageStore(pool), keys: new PostgresKeyStore(pool) };
    },
    { idempotentRetries: true },
  );
});

t.test('PostgresUsageStore spend overview', async (t) => {
  spendOverviewContract(t, async () => {
    await emptyStores(pool);
    return { usage: new PostgresUsageStore(pool), keys: new PostgresKeyStore(pool) };
  });
});

t.test('PostgreSQL dashboard users and sessions', async (t) => {
  dashboardStoresContract(t, async () => {
    await emptyStores(pool);
    return { users: new PostgresUserStore(pool), sessions: new PostgresSessionRows(pool), keys: new PostgresKeyStore(pool) };
  });
});

t.test('PostgresAuditStore', async (t) => {
  auditStoreContract(t, async () => {
    await emptyStores(pool);
    return { store: new PostgresAuditStore(pool), tryUpdate: () => pool.query("UPDATE audit_log SET actor = 'someone else'") };
  });
});
