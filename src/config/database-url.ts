// Parses DATABASE_URL into what the store layer needs. Never echoes the URL back: a postgres:// URL may carry a password.
import { fileURLToPath } from 'node:url';
import { ConfigError } from './config-error.js';

export type DatabaseTarget = { kind: 'sqlite'; path: string /* ':memory:' or a file path */ } | { kind: 'postgres' };

export function parseDatabaseUrl(url: string): DatabaseTarget {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return { kind: 'postgres' };
  if (!url.startsWith('file:')) throw new ConfigError('DATABASE_URL must start with file: (SQLite) or postgres://');
  if (url.startsWith('file://')) return { kind: 'sqlite', path: fileURLToPath(url) };
  const path = url.slice('file:'.length);
  if (path === '') throw new ConfigError('DATABASE_URL names no file (expected e.g. file:./data/gateway.db)');
  if (path === ':memory:') return { kind: 'sqlite', path: ':memory:' };
  return { kind: 'sqlite', path };
}
