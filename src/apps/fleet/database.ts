// The fleet's PostgreSQL database: created when missing (with PostgreSQL's own `createdb`, so nothing
// outside src/stores talks to the server), then migrated once by `model-gateway migrate` before any
// instance starts.
import { spawnSync } from 'node:child_process';
import type { GatewayCommand } from './gateway-process.js';

/** The URL without its password, for messages and hints (DATABASE_URL may carry one). */
export function shownDatabaseUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  if (url.password !== '') url.password = '***';
  return url.toString();
}

/** 'created' or 'exists'; throws with what to do when it can be neither. */
export function ensurePostgresDatabase(databaseUrl: string): 'created' | 'exists' {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (name === '') throw new Error(`DATABASE_URL names no database (${shownDatabaseUrl(databaseUrl)})`);
  // The server's maintenance database is where CREATE DATABASE runs; the password goes by environment, not argv.
  const password = decodeURIComponent(url.password);
  url.password = '';
  url.pathname = '/postgres';
  const env: NodeJS.ProcessEnv = { ...process.env, ...(password === '' ? {} : { PGPASSWORD: password }) };
  const run = spawnSync('createdb', [`--maintenance-db=${url.toString()}`, '--', name], { env, encoding: 'utf8' });
  if (run.error !== undefined) {
    throw new Error(`createdb is not available (${run.error.message}): install postgresql-client, or create the database ${JSON.stringify(name)} yourself`);
  }
  if (run.status === 0) return 'created';
  if (run.stderr.includes('already exists')) return 'exists';
  throw new Error(`could not create the database ${JSON.stringify(name)}: ${run.stderr.trim().split('\n')[0]}`);
}

/** Runs `model-gateway migrate` on the database; its one line of report, or throws with its error line. */
export function migrateDatabase(command: GatewayCommand, env: Readonly<Record<string, string>>): string {
  const run = spawnSync(command.execPath, [...command.args, 'migrate'], { env: { ...command.env, ...env }, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`migrate failed: ${(run.stderr || run.stdout).trim().split('\n')[0] ?? `exit ${run.status}`}`);
  return run.stdout.trim();
}
