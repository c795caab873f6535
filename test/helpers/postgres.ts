// Test helpers for the PostgreSQL stores: a database of the test file's own, created on the machine's
// server and dropped when the file ends (passed or failed), and a migrated pool on it.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Test } from 'tap';
import { migratePostgres } from '../../src/stores/postgres/migrate.js';
import { createPgPool, type WatchedPool } from '../../src/stores/postgres/pool.js';

const DEFAULT_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The server the tests create their databases on: DATABASE_URL when it names PostgreSQL, else the local one. */
export function testServerUrl(): string {
  const url = process.env.DATABASE_URL;
  return url !== undefined && /^postgres(ql)?:\/\//.test(url) ? url : DEFAULT_SERVER;
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** host:port only: the URL may carry a password. */
function serverName(serverUrl: string): string {
  const url = new URL(serverUrl);
  return `${url.hostname}:${url.port || '5432'}`;
}

/**
 * Creates mgw_test_<pid>_<random>, drops it in the test's teardown; fails with what to do when there is no
 * server. Only `teardown` is needed, so a tool outside the test runner may pass a list of its own.
 */
export async function createTestDatabase(t: Pick<Test, 'teardown'>): Promise<string> {
  const serverUrl = testServerUrl();
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(
      `PostgreSQL is not reachable at ${serverName(serverUrl)} (${(err as Error).message}). These tests need a ` +
        `PostgreSQL server: start the local one on 127.0.0.1:5432 (user postgres, trust auth; ` +
        `scripts/ci-start-services.sh starts it) or set DATABASE_URL=postgres://... to a server whose user may create databases.`,
    );
  }
  const name = `mgw_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  t.teardown(async () => {
    const dropper = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
    await dropper.connect();
    try {
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await dropper.end();
    }
  });
  return withDatabase(serverUrl, name);
}

/** A pool on the database, ended in the test's teardown. */
export function testPool(t: Test, url: string, max = 4): WatchedPool {
  const pool = createPgPool(url, { max, applicationName: 'model-gateway tests' });
  t.teardown(() => pool.end());
  return pool;
}

/** A fresh database with the schema migrated, and a pool on it. */
export async function migratedDatabase(t: Test): Promise<{ url: string; pool: WatchedPool }> {
  const url = await createTestDatabase(t);
  const pool = testPool(t, url);
  await migratePostgres(url);
  return { url, pool };
}

/** Empties every table the stores write, between the tests of one file. */
export async function emptyStores(pool: pg.Pool): Promise<void> {
  await pool.query('TRUNCATE audit_log, usage_records, usage_daily, dashboard_sessions, dashboard_users, api_keys, customers');
}
