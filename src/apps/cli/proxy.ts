// `model-gateway proxy --gateway <url> [--port 3099] [--host 127.0.0.1] [--key-file <path>]`: the local
// client-side proxy (docs/proxy.md). Runs until SIGINT/SIGTERM, then closes and resolves 0.
import { Writable } from 'node:stream';
import { createLogger } from '../../observability/logger.js';
import type { Logger } from '../../observability/logger.js';
import { isLoopbackHost } from '../proxy/loopback.js';
import { KEY_ENV, loadGatewayKey } from '../proxy/key-source.js';
import type { LoadedKey } from '../proxy/key-source.js';
import { parseProxyArgs } from '../proxy/options.js';
import type { ProxyArgs } from '../proxy/options.js';
import { readyLine } from '../proxy/ready-line.js';
import { startProxy } from '../proxy/start.js';
import { ProxyUsageError } from '../proxy/usage-error.js';
import { ArgError, processIo, runCommand, type CliIo } from '../args.js';
import { untilStopped, type SignalSource } from './signals.js';

type Env = Record<string, string | undefined>;

export async function runProxy(argv: string[], io: CliIo = processIo, signals: SignalSource = process, env: Env = process.env): Promise<number> {
  return runCommand(io, 'proxy', async () => {
    const { args, loaded } = settingsFrom(argv, env);
    const { key } = loaded;
    const logger = logTo(io, env.LOG_LEVEL ?? 'info', key);
    if (loaded.warning !== null) logger.warn(loaded.warning);
    let proxy;
    try {
      proxy = await startProxy({ gateway: args.gateway, gatewayKey: key, port: args.port, host: args.host }, logger);
    } catch (err) {
      throw new Error(`cannot listen on ${args.host}:${args.port} (${(err as { code?: string }).code ?? 'error'})`);
    }
    if (!isLoopbackHost(args.host)) {
      io.err(`model-gateway proxy: WARNING: listening on ${args.host}, beyond this machine: anyone who can reach port ${proxy.port} spends this key\n`);
    }
    const stopped = untilStopped(signals);
    io.out(`${readyLine(proxy.url)}\n`);
    void proxy.check();
    logger.info({ signal: await stopped }, 'stopping');
    await proxy.close();
    return 0;
  });
}

function settingsFrom(argv: string[], env: Env): { args: ProxyArgs; loaded: LoadedKey } {
  try {
    const args = parseProxyArgs(argv);
    return { args, loaded: loadGatewayKey(args.keyFile, env[KEY_ENV]) };
  } catch (err) {
    throw err instanceof ProxyUsageError ? new ArgError(err.message) : err;
  }
}

/** JSON log lines on stderr, so stdout carries only the ready line; the key and its secret are scrubbed. */
function logTo(io: CliIo, level: string, key: string): Logger {
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      io.err(chunk.toString('utf8'));
      cb();
    },
  });
  return createLogger({ level, destination, secrets: [key, key.slice(key.lastIndexOf('_') + 1)] });
}
