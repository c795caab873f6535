// The admin token: from GATEWAY_ADMIN_TOKEN (required when instances share a PostgreSQL database), or
// generated once into the data folder (mode 0600). A token that is empty or short is refused, wherever it
// came from: an empty token file would otherwise make every caller who sends an empty credential an operator.
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './config-error.js';
import { MIN_OPERATOR_SECRET_LENGTH } from './config.js';
import type { GatewayConfig } from './config.js';
import { parseDatabaseUrl } from './database-url.js';

export interface AdminToken {
  token: string;
  /** Where a generated token was stored, or null when it came from the environment. */
  path: string | null;
  generated: boolean;
}

export const MIN_ADMIN_TOKEN_LENGTH = MIN_OPERATOR_SECRET_LENGTH;

export function isStrongEnoughAdminToken(token: string): boolean {
  return token.length >= MIN_ADMIN_TOKEN_LENGTH && !looksLikePlaceholder(token);
}

/**
 * A token copied from an example rather than generated (finding N5: the example Secret's
 * `CHANGE-ME-TO-AT-LEAST-32-RANDOM-CHARACTERS` is long enough, and a fleet started with it had a public
 * operator token): the placeholder words example files use.
 */
const PLACEHOLDER = /change[-_ ]?me|replace[-_ ]?me|placeholder|example|your[-_ ]?token|random[-_ ]?char/i;

export function looksLikePlaceholder(token: string): boolean {
  return PLACEHOLDER.test(token);
}

/** A fresh token, for the data folder's file or for a fleet that shares one (src/apps/fleet). */
export function newAdminToken(): string {
  return `mgwadm_${randomBytes(32).toString('base64url')}`;
}

/** The admin token of a gateway with this configuration (see ensureAdminToken). */
export function adminTokenOf(config: Pick<GatewayConfig, 'adminToken' | 'dataDir' | 'databaseUrl'>): AdminToken {
  return ensureAdminToken(config.adminToken, config.dataDir, parseDatabaseUrl(config.databaseUrl).kind === 'postgres');
}

/**
 * `configured` is GATEWAY_ADMIN_TOKEN: null when unset, '' when set but blank (refused, not replaced).
 * `sharedDatabase`: several instances share the database (postgres://) and its operator sessions, so they
 * must all accept the same token; a generated file would differ from host to host, hence none is made.
 */
export function ensureAdminToken(configured: string | null, dataDir: string, sharedDatabase = false): AdminToken {
  if (configured === null && sharedDatabase) {
    throw new ConfigError(
      `GATEWAY_ADMIN_TOKEN is required with a postgres:// DATABASE_URL: set it (at least ${MIN_ADMIN_TOKEN_LENGTH} characters) to the same value on every instance`,
    );
  }
  if (configured !== null) {
    if (!isStrongEnoughAdminToken(configured)) {
      throw new ConfigError(
        looksLikePlaceholder(configured) && configured.length >= MIN_ADMIN_TOKEN_LENGTH
          ? 'GATEWAY_ADMIN_TOKEN looks like a placeholder, not a random token: refusing to start with a guessable admin token (generate one, e.g. openssl rand -base64 36)'
          : `GATEWAY_ADMIN_TOKEN is empty or shorter than ${MIN_ADMIN_TOKEN_LENGTH} characters: refusing to start with a guessable admin token`,
      );
    }
    return { token: configured, path: null, generated: false };
  }
  const path = join(dataDir, 'admin-token');
  if (existsSync(path)) return { token: readTokenFile(path), path, generated: false };
  mkdirSync(dataDir, { recursive: true });
  const token = newAdminToken();
  // Another process starting on the same folder may have won the race: its token is the one on disk.
  if (!createWhole(path, `${token}\n`)) return { token: readTokenFile(path), path, generated: false };
  return { token, path, generated: true };
}

/**
 * An existing file that is empty or short (truncated, or written by hand) stops the start rather than being
 * replaced: it may be the operator's own token, and only a person can tell what happened to it.
 */
function readTokenFile(path: string): string {
  const token = readFileSync(path, 'utf8').trim();
  if (!isStrongEnoughAdminToken(token)) {
    throw new ConfigError(
      `admin token file ${path} is empty or shorter than ${MIN_ADMIN_TOKEN_LENGTH} characters: put a longer token in it, delete it to have one generated, or set GATEWAY_ADMIN_TOKEN`,
    );
  }
  return token;
}

/**
 * Writes `content` to `path` only if no file is there, and so that `path` never exists half-written: the
 * content goes to a private temporary file first (a full disk fails there), which is then linked into place.
 * False when `path` already existed.
 */
function createWhole(path: string, content: string): boolean {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    try {
      writeSync(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    linkSync(temporary, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    unlinkSync(temporary);
  }
}
