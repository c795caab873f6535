// The admin token: from GATEWAY_ADMIN_TOKEN, or generated once into the data folder (mode 0600).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';

export interface AdminToken {
  token: string;
  /** Where a generated token was stored, or null when it came from the environment. */
  path: string | null;
  generated: boolean;
}

export function ensureAdminToken(configured: string | null, dataDir: string): AdminToken {
  if (configured !== null) return { token: configured, path: null, generated: false };
  const path = join(dataDir, 'admin-token');
  if (existsSync(path)) return { token: readFileSync(path, 'utf8').trim(), path, generated: false };
  mkdirSync(dataDir, { recursive: true });
  const token = `mgwadm_${randomBytes(32).toString('base64url')}`;
  writeFileSync(path, `${token}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(path, 0o600);
  return { token, path, generated: true };
}
