// `model-gateway serve`: the gateway, until SIGTERM/SIGINT, then a graceful drain.
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BuiltRuntime } from '../serve/build-runtime.js';
import { parseWorkerCount } from '../cluster/worker-count.js';
import { loadConfig } from '../../config/config.js';
import type { GatewayConfig } from '../../config/config.js';
import type { Gateway } from '../../gateway/create-gateway.js';
import type { MetricsListener } from '../../gateway/metrics-listener.js';
import { parseCommandArgs } from '../args.js';

const USAGE = 'serve [--port N] [--host <address>] [--workers N|auto]';

export async function runServe(argv: string[]): Promise<number> {
  const { config, workers } = serveConfig(argv);
  // --workers N: this process supervises N workers (node:cluster); each worker runs the code below.
  // The primary only supervises: it never loads the gateway itself (the modules below are lazy for that).
  if (workers > 1 && cluster.isPrimary) return (await import('../cluster/start-primary.js')).startClusterPrimary(config, workers);
  const m = await gatewayModules();
  const built = await m.buildRuntime(config, { clusterWorker: cluster.isWorker });
  const gateway = m.createGateway(built.runtime, m.mountedRoutes(built));
  const listening = await listenAll(m, built, gateway);
  announce(built, listening);
  return drainOnSignal(m, built, listening);
}

/** The configuration from the environment, with --port and --host over PORT and HOST. */
function serveConfig(argv: string[]): { config: GatewayConfig; workers: number } {
  const { values } = parseCommandArgs(argv, { port: { type: 'string' }, host: { type: 'string' }, workers: { type: 'string' } }, USAGE);
  const env = { ...process.env };
  if (values.port !== undefined) env.PORT = values.port;
  if (values.host !== undefined) env.HOST = values.host;
  return { config: loadConfig(env), workers: parseWorkerCount(values.workers) };
}

/** What a serving process loads (a cluster primary never does). */
async function gatewayModules() {
  const [runtime, gateway, server, mounted, metricsListener] = await Promise.all([
    import('../serve/build-runtime.js'),
    import('../../gateway/create-gateway.js'),
    import('../../gateway/server.js'),
    import('../serve/mounted-routes.js'),
    import('../../gateway/metrics-listener.js'),
  ]);
  return { ...runtime, ...gateway, ...server, ...mounted, ...metricsListener };
}

type GatewayModules = Awaited<ReturnType<typeof gatewayModules>>;

interface Listening {
  readonly server: Server;
  readonly address: AddressInfo;
  readonly metricsListener: MetricsListener | null;
}

async function listenAll(m: GatewayModules, built: BuiltRuntime, gateway: Gateway): Promise<Listening> {
  const { config } = built.runtime;
  const server = m.createHttpServer(gateway, config.limits);
  // A port that cannot be had ends the start, and nothing of the runtime may keep the process alive.
  const stopAtStart = async (err: unknown): Promise<never> => {
    await built.close();
    throw err;
  };
  // The metrics port first: when it cannot be had, the gateway never starts taking traffic unwatched.
  const metricsListener = await m.listenMetrics(built.runtime).catch(stopAtStart);
  const address = await m.listen(server, config.port, config.host).catch((err: unknown) => {
    metricsListener?.server.close();
    return stopAtStart(err);
  });
  return { server, address, metricsListener };
}

function announce(built: BuiltRuntime, { address, metricsListener }: Listening): void {
  const { runtime } = built;
  if (runtime.simulated) {
    runtime.logger.warn('no ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL, and no providers in GATEWAY_MODELS_FILE: answering from the built-in simulator (responses carry x-gateway-upstream: simulator)');
  }
  if (built.adminTokenPath !== null) runtime.logger.info({ path: built.adminTokenPath }, 'admin token file (GATEWAY_ADMIN_TOKEN unset)');
  runtime.logger.info({ host: address.address, port: address.port, upstream: runtime.simulated ? 'simulator' : runtime.providers[0]!.client.origin }, 'model-gateway listening');
  if (metricsListener !== null) {
    const { address: at } = metricsListener;
    runtime.logger.info({ host: at.address, port: at.port, tokenRequired: runtime.config.metrics.token !== null }, 'metrics listening');
  }
}

/** Serves until SIGTERM/SIGINT (or, in a worker, the primary going away), then drains (server.ts, drain) and closes. */
function drainOnSignal(m: GatewayModules, built: BuiltRuntime, { server, metricsListener }: Listening): Promise<number> {
  const { runtime } = built;
  const graceMs = runtime.config.timeouts.shutdownGraceMs;
  return new Promise((resolve) => {
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      const delayMs = m.readinessWatched(runtime.lifecycle) ? runtime.config.timeouts.drainDelayMs : 0;
      runtime.logger.info({ signal, inFlight: runtime.lifecycle.inFlight, delayMs }, 'draining');
      const [clean] = await Promise.all([
        m.drain(server, runtime.lifecycle, graceMs, delayMs),
        // Scrapes go on during the delay too: the last numbers before the stop are the interesting ones.
        ...(metricsListener === null ? [] : [m.drain(metricsListener.server, runtime.lifecycle, graceMs, delayMs)]),
      ]);
      await built.close();
      runtime.logger.info({ clean }, 'stopped');
      // A worker's IPC channel would keep it alive after the drain.
      if (cluster.isWorker) process.disconnect();
      resolve(0);
    };
    process.once('SIGTERM', () => void stop('SIGTERM'));
    process.once('SIGINT', () => void stop('SIGINT'));
    // A worker whose primary is gone (killed, crashed) drains and ends instead of living on alone.
    if (cluster.isWorker) process.once('disconnect', () => void stop('primary gone'));
  });
}
