// `model-gateway migrate`: applies the pending migrations of whichever database DATABASE_URL names, and
// says which. Every start migrates too; running this first lets a fleet's schema change happen once, on
// purpose, before new instances roll out.
import { parseDatabaseUrl } from '../config/database-url.js';
import { DatabaseError } from './errors.js';
import { errorMessage } from '../lib/error-message.js';

export interface MigrationReport {
  kind: 'sqlite' | 'postgres';
  /** The versions this call applied, in order; empty when the schema was already current. */
  applied: number[];
}

/** Each implementation is loaded only when named, as in open-stores.ts. */
export async function migrateStores(databaseUrl: string): Promise<MigrationReport> {
  const target = parseDatabaseUrl(databaseUrl);
  if (target.kind === 'postgres') {
    const { migratePostgres } = await import('./postgres/migrate.js');
    try {
      return { kind: 'postgres', applied: await migratePostgres(databaseUrl) };
    } catch (err) {
      // The reason only: the connection string may carry a password.
      throw new DatabaseError(`cannot migrate the PostgreSQL database: ${errorMessage(err)}`);
    }
  }
  const { openMigrated } = await import('./sqlite/open.js');
  const { db, applied } = openMigrated(databaseUrl);
  db.close();
  return { kind: 'sqlite', applied };
}
