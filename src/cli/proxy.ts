// `model-gateway proxy --gateway <url> [--port 3099] [--host 127.0.0.1] [--key-file <path>]`: the local
// client-side proxy (spec 1.5). Runs until SIGINT/SIGTERM, then closes and resolves 0.
import { createLogger } from '../observability/logger.js';
import { isLoopbackHost } from '../proxy/loopback.js';
import { KEY_ENV, loadGatewayKey } from '../proxy/key-source.js';
import { parseProxyArgs } from '../proxy/options.js';
import { readyLine } from '../proxy/ready-line.js';
import { startProxy } from '../proxy/start.js';
import { ProxyUsageError } from '../proxy/usage-error.js';

export async function runProxy(argv: string[]): Promise<number> {
  let args;
  let loaded;
  try {
    args = parseProxyArgs(argv);
    loaded = loadGatewayKey(args.keyFile, process.env[KEY_ENV]);
  } catch (err) {
    if (!(err instanceof ProxyUsageError)) throw err;
    process.stderr.write(`model-gateway proxy: ${err.message}\n`);
    return 2;
  }
  const { key } = loaded;
  // Logs go to stderr so that stdout carries only the ready line; the key and its secret are scrubbed.
  const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'info', destination: process.stderr, secrets: [key, key.slice(key.lastIndexOf('_') + 1)] });
  if (loaded.warning !== null) logger.warn(loaded.warning);
  let proxy;
  try {
    proxy = await startProxy({ gateway: args.gateway, gatewayKey: key, port: args.port, host: args.host }, logger);
  } catch (err) {
    process.stderr.write(`model-gateway proxy: cannot listen on ${args.host}:${args.port} (${(err as { code?: string }).code ?? 'error'})\n`);
    return 1;
  }
  if (!isLoopbackHost(args.host)) {
    process.stderr.write(`model-gateway proxy: WARNING: listening on ${args.host}, beyond this machine: anyone who can reach port ${proxy.port} spends this key\n`);
  }
  process.stdout.write(`${readyLine(proxy.url)}\n`);
  void proxy.check();
  const signal = await new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  logger.info({ signal }, 'stopping');
  await proxy.close();
  logger.flush();
  return 0;
}
