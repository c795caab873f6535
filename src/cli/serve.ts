// `model-gateway serve`: the gateway, until SIGTERM/SIGINT, then a graceful drain.
import { parseArgs } from 'node:util';
import { buildRuntime } from '../build-runtime.js';
import { loadConfig } from '../config/config.js';
import { createGateway } from '../gateway.js';
import { createHttpServer, drain, listen } from '../server.js';

export async function runServe(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { port: { type: 'string' }, host: { type: 'string' } }, strict: true });
  const env = { ...process.env };
  if (values.port !== undefined) env.PORT = values.port;
  if (values.host !== undefined) env.HOST = values.host;
  const config = loadConfig(env);
  const built = await buildRuntime(config);
  const { runtime } = built;
  const server = createHttpServer(createGateway(runtime), config.limits);
  const address = await listen(server, config.port, config.host);
  if (runtime.simulated) {
    runtime.logger.warn('no ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL: answering from the built-in simulator (responses carry x-gateway-upstream: simulator)');
  }
  if (built.adminTokenPath !== null) runtime.logger.info({ path: built.adminTokenPath }, 'admin token file (GATEWAY_ADMIN_TOKEN unset)');
  runtime.logger.info({ host: address.address, port: address.port, upstream: runtime.simulated ? 'simulator' : runtime.upstream.origin }, 'model-gateway listening');

  return new Promise((resolve) => {
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      runtime.logger.info({ signal, inFlight: runtime.lifecycle.inFlight }, 'draining');
      const clean = await drain(server, runtime.lifecycle, config.timeouts.shutdownGraceMs);
      await built.close();
      runtime.logger.info({ clean }, 'stopped');
      resolve(0);
    };
    process.once('SIGTERM', () => void stop('SIGTERM'));
    process.once('SIGINT', () => void stop('SIGINT'));
  });
}
