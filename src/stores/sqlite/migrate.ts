// Applies SQLite's versioned SQL files (./migrations) in order, once each, recorded in schema_migrations.
import { loadMigrations, type Migration } from '../migration-files.js';
import type Database from 'better-sqlite3';

export function loadSqliteMigrations(): Migration[] {
  return loadMigrations(new URL('./migrations/', import.meta.url));
}


/**
 * Runs every pending migration inside one IMMEDIATE transaction: it takes the write lock before reading
 * schema_migrations, so when two processes open a fresh file at once the second waits (busy_timeout),
 * then finds the work done. Returns the versions applied by this call.
 */
export function migrate(db: Database.Database, migrations: Migration[] = loadSqliteMigrations()): number[] {
  const apply = db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
    const done = new Set(
      db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[],
    );
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    const applied: number[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      db.exec(m.sql);
      record.run(m.version, m.name, new Date().toISOString());
      applied.push(m.version);
    }
    return applied;
  });
  return apply.immediate();
}
