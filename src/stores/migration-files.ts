// Versioned SQL migration files (NNN_name.sql), read in order; each store kind keeps its own folder.
import { readdirSync, readFileSync } from 'node:fs';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const FILE_NAME = /^(\d{3})_([a-z0-9_]+)\.sql$/;

/** `dir` is relative to the calling module, so the same code works from src/ (tests) and dist/ (the build copies the folders). */
export function loadMigrations(dir: URL): Migration[] {
  const migrations: Migration[] = [];
  for (const file of readdirSync(dir).sort()) {
    const match = FILE_NAME.exec(file);
    if (!match) continue;
    migrations.push({ version: Number(match[1]), name: match[2], sql: readFileSync(new URL(file, dir), 'utf8') });
  }
  return migrations;
}
