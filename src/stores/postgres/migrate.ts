// Applies the versioned SQL files in ./migrations, once each, recorded in schema_migrations. Every
// instance runs this at start, so the runs are serialised by a session advisory lock: the first applies
// what is pending, the others wait, then find nothing left to do. Migrations are additive only, so an
// older instance keeps working on the newer schema while the fleet rolls.
import pg from 'pg';
import { loadMigrations, type Migration } from '../migration-files.js';

export interface PgMigrateOptions {
  /** How long to wait for another instance's run to finish. Default 60 s. */
  lockWaitMs?: number;
  /** How long one migration may run. Default 10 minutes (an index on a big table takes a while). */
  migrationTimeoutMs?: number;
}

/** Any fixed number, the same in every instance; pg_locks shows it as objid while a run holds it. */
export const MIGRATION_LOCK_ID = 0x6d67_7700_0001;

export function loadPostgresMigrations(): Migration[] {
  return loadMigrations(new URL('./migrations/', import.meta.url));
}

/**
 * Runs every pending migration, each in a transaction of its own with its schema_migrations row, so a
 * failed one leaves the ones before it applied and itself not at all. Returns the versions applied by
 * this call. It uses a connection of its own, with timeouts fit for schema changes rather than the
 * pool's; the lock belongs to that session, so should it die mid-run the server frees the lock.
 */
export async function migratePostgres(
  connectionString: string,
  opts: PgMigrateOptions = {},
  migrations: Migration[] = loadPostgresMigrations(),
): Promise<number[]> {
  const lockWaitMs = Math.floor(opts.lockWaitMs ?? 60_000);
  const migrationTimeoutMs = Math.floor(opts.migrationTimeoutMs ?? 600_000);
  const client = new pg.Client({
    connectionString,
    connectionTimeoutMillis: 5000,
    // The server's statement_timeout (set per phase below) ends a statement first; this is for a dead network.
    query_timeout: Math.max(lockWaitMs, migrationTimeoutMs) + 1000,
    application_name: 'model-gateway migrate',
  });
  await client.connect();
  try {
    await client.query(`SET statement_timeout = ${lockWaitMs}`);
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await client.query(`SET statement_timeout = ${migrationTimeoutMs}`);
    // Unlocking is left to the session's end: an error mid-transaction would refuse the unlock call.
    return await applyPending(client, migrations);
  } finally {
    await client.end().catch(() => {});
  }
}

async function applyPending(client: pg.Client, migrations: Migration[]): Promise<number[]> {
  await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  const done = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
  const applied: number[] = [];
  for (const m of migrations) {
    if (done.has(m.version)) continue;
    await client.query('BEGIN');
    try {
      // No bound values: the simple protocol, which runs a file of several statements.
      await client.query(m.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    }
    applied.push(m.version);
  }
  return applied;
}
