// `model-gateway proxy` arguments → settings. Errors never repeat an argument's value: a key pasted
// into the wrong place must not be echoed to the terminal or a CI log.
import { parseArgs } from 'node:util';
import { integerInRange, MAX_PORT, parseErrorReason } from '../args.js';
import { parseGatewayUrl } from './gateway-url.js';
import { ProxyUsageError } from './usage-error.js';

export const DEFAULT_PROXY_PORT = 3099;
export const DEFAULT_PROXY_HOST = '127.0.0.1';

export interface ProxyArgs {
  gateway: URL;
  port: number;
  /** Loopback unless --host names another address: nothing else (no HOST variable) can widen it. */
  host: string;
  keyFile: string | null;
}

const OPTIONS = {
  gateway: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'key-file': { type: 'string' },
} as const;

export function parseProxyArgs(argv: readonly string[]): ProxyArgs {
  let values: { gateway?: string; port?: string; host?: string; 'key-file'?: string };
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (err) {
    throw new ProxyUsageError(describeParseError(err));
  }
  if (values.gateway === undefined) throw new ProxyUsageError('--gateway <url> is required (the gateway base URL, e.g. https://gateway.example.com)');
  const host = values.host ?? DEFAULT_PROXY_HOST;
  if (host.trim() === '') throw new ProxyUsageError('--host must not be empty');
  return {
    gateway: parseGatewayUrl(values.gateway),
    port: values.port === undefined ? DEFAULT_PROXY_PORT : parsePort(values.port),
    host,
    keyFile: values['key-file'] ?? null,
  };
}

function parsePort(raw: string): number {
  const n = integerInRange(raw, 0, MAX_PORT);
  if (n === undefined) throw new ProxyUsageError(`--port must be an integer from 0 to ${MAX_PORT}`);
  return n;
}

/** Unknown options and stray arguments are most often a key given the wrong way: say how to give it. */
function describeParseError(err: unknown): string {
  const reason = parseErrorReason(err);
  const misplacedValue = (err as { code?: string }).code !== 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE';
  return misplacedValue ? `${reason}; the key is never an argument: set MODEL_GATEWAY_KEY or use --key-file <path>` : reason;
}
