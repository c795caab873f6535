// Where the gateway key comes from: --key-file <path> or the MODEL_GATEWAY_KEY variable, never an
// argument value (argv is visible to every user of the machine). Errors never include the key.
import { readFileSync, statSync } from 'node:fs';
import { parseKey } from '../../keys/key-format.js';
import { ProxyUsageError } from './usage-error.js';

export const KEY_ENV = 'MODEL_GATEWAY_KEY';

export interface LoadedKey {
  key: string;
  /** Set when the key file can be read by other users of the machine. */
  warning: string | null;
}

export function loadGatewayKey(keyFile: string | null, envValue: string | undefined): LoadedKey {
  const fromFile = keyFile !== null;
  const raw = fromFile ? readKeyFile(keyFile) : envValue;
  const source = fromFile ? '--key-file' : KEY_ENV;
  if (raw === undefined || raw.trim() === '') {
    throw new ProxyUsageError(fromFile ? '--key-file is empty' : `no gateway key: set ${KEY_ENV} or use --key-file <path>`);
  }
  const key = raw.trim();
  if (parseKey(key) === null) throw new ProxyUsageError(`the key from ${source} is not a gateway key (mgw_<id>_<secret>)`);
  return { key, warning: fromFile ? permissionWarning(keyFile) : null };
}

function readKeyFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new ProxyUsageError(`cannot read --key-file (${(err as { code?: string }).code ?? 'error'})`);
  }
}

function permissionWarning(path: string): string | null {
  if (process.platform === 'win32') return null;
  const mode = statSync(path).mode & 0o077;
  return mode === 0 ? null : `the key file can be read by other users of this machine; chmod 600 it`;
}
