// Opens the stores DATABASE_URL names: `file:` is SQLite on this host, `postgres://` the fleet's database.
import { parseDatabaseUrl } from '../config/database-url.js';
import type { PostgresStoreOptions } from './postgres/postgres-stores.js';
import type { Stores } from './stores.js';

export type StoreOptions = PostgresStoreOptions;

/** Each implementation is loaded only when named, so a SQLite host never loads `pg` and the reverse. */
export async function openStores(databaseUrl: string, opts: StoreOptions = {}): Promise<Stores> {
  const target = parseDatabaseUrl(databaseUrl);
  if (target.kind === 'postgres') return (await import('./postgres/postgres-stores.js')).openPostgresStores(databaseUrl, opts);
  return (await import('./sqlite/sqlite-stores.js')).openSqliteStores(databaseUrl);
}

/** Opens the stores for one short task (a command of the CLI) and always closes them afterwards. */
export async function withStores<T>(databaseUrl: string, task: (stores: Stores) => Promise<T>, opts: StoreOptions = {}): Promise<T> {
  const stores = await openStores(databaseUrl, opts);
  try {
    return await task(stores);
  } finally {
    await stores.close();
  }
}
