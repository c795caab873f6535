// Applies the versioned SQL files in ./migrations in order, once each, recorded in schema_migrations.
import { readdirSync, readFileSync } from 'node:fs';
import type { Db } from './open.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const FILE_NAME = /^(\d{3})_([a-z0-9_]+)\.sql$/;

/** Read relative to this module, so the same code works from src/ (tests) and dist/ (build copies the folder). */
export function loadMigrations(dir: URL = new URL('./migrations/', import.meta.url)): Migration[] {
  const migrations: Migration[] = [];
  for (const file of readdirSync(dir).sort()) {
    const match = FILE_NAME.exec(file);
    if (!match) continue;
    migrations.push({ version: Number(match[1]), name: match[2], sql: readFileSync(new URL(file, dir), 'utf8') });
  }
  return migrations;
}

/**
 * Runs every pending migration inside one IMMEDIATE transaction: it takes the write lock before reading
 * schema_migrations, so when two processes open a fresh file at once the second waits (busy_timeout),
 * then finds the work done. Returns the versions applied by this call.
 */
export function migrate(db: Db, migrations: Migration[] = loadMigrations()): number[] {
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
