// GATEWAY_METRICS_PORT: /metrics on a listener of its own, so it can be bound to an internal interface
// (GATEWAY_METRICS_HOST) or firewalled apart from the public port. Under `serve --workers N` every
// worker listens on it as on the main port (node:cluster shares the socket), and whichever worker a
// scrape reaches answers with the cluster-wide sum, as on the main port.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gatewayOver } from './create-gateway.js';
import { metricsRoute } from './routes.js';
import type { Runtime } from './runtime.js';
import { createHttpServer, listen } from './server.js';

export interface MetricsListener {
  readonly server: Server;
  readonly address: AddressInfo;
}

/** The metrics listener, listening; null when /metrics is served on the main port. */
export async function listenMetrics(rt: Runtime): Promise<MetricsListener | null> {
  const { port, host } = rt.config.metrics;
  if (port === null) return null;
  // Same limits and timeouts as the main port, and only the one route: anything else is a 404.
  const server = createHttpServer(gatewayOver(rt, [metricsRoute(rt)]), rt.config.limits);
  return { server, address: await listen(server, port, host) };
}
