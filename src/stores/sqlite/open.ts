// Opens the embedded SQLite database: WAL (readers never block the writer, so the CLI works beside a
// running server), a busy timeout for the moments two writers meet, foreign keys on, schema migrated.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { parseDatabaseUrl } from '../../config/database-url.js';
import { DatabaseError } from '../errors.js';
import { migrate } from './migrate.js';
import { errorMessage } from '../../lib/error-message.js';

export type Db = Database.Database;

const BUSY_TIMEOUT_MS = 5000;

export function openDatabase(databaseUrl: string): Db {
  return openMigrated(databaseUrl).db;
}

/** Opens the database as openDatabase does, and says which migrations this opening applied. */
export function openMigrated(databaseUrl: string): { db: Db; applied: number[] } {
  const target = parseDatabaseUrl(databaseUrl);
  if (target.kind === 'postgres') throw new DatabaseError('not a SQLite database URL (file:...)');
  let db: Db | undefined;
  try {
    if (target.path !== ':memory:') ensureFolder(dirname(target.path));
    db = new Database(target.path);
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    enableWal(db);
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL'); // safe with WAL: a power cut may lose the last commits, never corrupt
    const applied = migrate(db);
    return { db, applied };
  } catch (err) {
    db?.close();
    if (err instanceof DatabaseError) throw err;
    throw new DatabaseError(`cannot open database ${target.path}: ${oneLine(err)}`);
  }
}

/**
 * Switching to WAL needs a brief exclusive lock, and SQLite answers SQLITE_BUSY at once (without the busy
 * handler) when another connection holds the file at that moment, so retry for up to the busy timeout.
 */
function enableWal(db: Db): void {
  if (db.memory) return;
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}

/**
 * mkdir -p, one level at a time: Node's own recursive mkdir never returns for some paths (under /proc it
 * retries ENOENT forever), and a database folder that cannot be made must fail with a reason.
 */
function ensureFolder(dir: string): void {
  if (existsSync(dir)) return;
  const parent = dirname(dir);
  if (parent !== dir) ensureFolder(parent);
  mkdirSync(dir);
}

function oneLine(err: unknown): string {
  const message = errorMessage(err);
  return message.split('\n')[0];
}
