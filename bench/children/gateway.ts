// Child process: the real gateway, built exactly as `model-gateway serve` builds it (configuration
// from the environment the bench gives this process), plus one key for the load to use.
import { buildRuntime } from '../../src/apps/serve/build-runtime.js';
import { loadConfig } from '../../src/config/config.js';
import { createGateway } from '../../src/gateway/create-gateway.js';
import { createHttpServer, listen } from '../../src/gateway/server.js';
import { failStart, send, serveStats } from './stats.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const built = await buildRuntime(config);
  // BENCH_KEY_RPM / BENCH_KEY_TPM give the load's key limits (tools/redis-limits.ts); unlimited by default.
  const limit = (name: string) => (process.env[name] === undefined ? null : Number(process.env[name]));
  const { key } = await built.stores.keys.createKey({ customerName: 'bench', name: 'bench load', rpm: limit('BENCH_KEY_RPM'), tpm: limit('BENCH_KEY_TPM') });
  const server = createHttpServer(createGateway(built.runtime), config.limits);
  const address = await listen(server, config.port, config.host);
  serveStats({
    inFlight: () => built.runtime.lifecycle.inFlight,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await built.close();
    },
  });
  send({ type: 'ready', url: `http://127.0.0.1:${address.port}`, key });
}

main().catch(failStart);
