// `model-gateway serve`: the gateway, until SIGTERM/SIGINT, then a graceful drain.
import cluster from 'node:cluster';
import { parseWorkerCount } from '../cluster/worker-count.js';
import { loadConfig } from '../config/config.js';
import { parseCommandArgs } from './args.js';

const USAGE = 'serve [--port N] [--host <address>] [--workers N|auto]';

export async function runServe(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, { port: { type: 'string' }, host: { type: 'string' }, workers: { type: 'string' } }, USAGE);
  const env = { ...process.env };
  if (values.port !== undefined) env.PORT = values.port;
  if (values.host !== undefined) env.HOST = values.host;
  const config = loadConfig(env);
  // --workers N: this process supervises N workers (node:cluster); each worker runs the code below.
  const workers = parseWorkerCount(values.workers);
  // The primary only supervises: it never loads the gateway itself (imports below are lazy for that).
  if (workers > 1 && cluster.isPrimary) return (await import('../cluster/start-primary.js')).startClusterPrimary(config, workers);
  const [{ buildRuntime }, { createGateway }, { createHttpServer, drain, listen }, { clusterWideMetrics }, { mountedRoutes }, { listenMetrics }] = await Promise.all([
    import('../build-runtime.js'),
    import('../gateway.js'),
    import('../server.js'),
    import('../cluster/metrics-channel.js'),
    import('../mounted-routes.js'),
    import('../metrics-listener.js'),
  ]);
  const built = await buildRuntime(config);
  const { runtime } = built;
  const served = cluster.isWorker ? { ...runtime, metrics: clusterWideMetrics(runtime.metrics), limitsInPrimary: true } : runtime;
  const server = createHttpServer(createGateway(served, mountedRoutes(built, served)), config.limits);
  // A port that cannot be had ends the start, and nothing of the runtime may keep the process alive.
  const stopAtStart = async (err: unknown): Promise<never> => {
    await built.close();
    throw err;
  };
  // The metrics port first: when it cannot be had, the gateway never starts taking traffic unwatched.
  const metricsListener = await listenMetrics(served).catch(stopAtStart);
  const address = await listen(server, config.port, config.host).catch((err: unknown) => {
    metricsListener?.server.close();
    return stopAtStart(err);
  });
  if (runtime.simulated) {
    runtime.logger.warn('no ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL: answering from the built-in simulator (responses carry x-gateway-upstream: simulator)');
  }
  if (built.adminTokenPath !== null) runtime.logger.info({ path: built.adminTokenPath }, 'admin token file (GATEWAY_ADMIN_TOKEN unset)');
  runtime.logger.info({ host: address.address, port: address.port, upstream: runtime.simulated ? 'simulator' : runtime.upstream.origin }, 'model-gateway listening');
  if (metricsListener !== null) {
    const { address: at } = metricsListener;
    runtime.logger.info({ host: at.address, port: at.port, tokenRequired: config.metrics.token !== null }, 'metrics listening');
  }

  return new Promise((resolve) => {
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      runtime.logger.info({ signal, inFlight: runtime.lifecycle.inFlight }, 'draining');
      const [clean] = await Promise.all([
        drain(server, runtime.lifecycle, config.timeouts.shutdownGraceMs),
        ...(metricsListener === null ? [] : [drain(metricsListener.server, runtime.lifecycle, config.timeouts.shutdownGraceMs)]),
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
