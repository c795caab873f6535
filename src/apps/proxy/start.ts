// Starts the local proxy: a node:http server (the gateway's own binding and limits) in front of a
// keep-alive connection pool to the gateway.
import type { RequestBounds } from '../../config/config.js';
import { loadConfig } from '../../config/config.js';
import type { Logger } from '../../observability/logger.js';
import type { Lifecycle } from '../../gateway/runtime.js';
import { createHttpServer, drain, listen } from '../../gateway/server.js';
import { UpstreamClient } from '../../upstream/client.js';
import { createProxyHandler } from './handler.js';
import { GatewayHostHider } from './host-hider.js';
import { isLoopbackHost } from './loopback.js';
import type { ProbeResult } from './probe.js';
import { probeGateway } from './probe.js';
import { proxyBaseUrl } from './ready-line.js';

export interface ProxySettings {
  /** The gateway's base URL (validated by parseGatewayUrl). */
  gateway: URL;
  gatewayKey: string;
  port: number;
  host: string;
}

export interface ProxyTuning {
  connections: number;
  connectTimeoutMs: number;
  /** Above the gateway's own 10 min upstream limit, so the gateway's answer (a 504) arrives first. */
  headersTimeoutMs: number;
  /** Above the gateway's 5 min stream idle timeout, for the same reason. */
  bodyTimeoutMs: number;
  shutdownGraceMs: number;
}

export const DEFAULT_PROXY_TUNING: ProxyTuning = Object.freeze({
  connections: 64,
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 11 * 60_000,
  bodyTimeoutMs: 6 * 60_000,
  shutdownGraceMs: 5_000,
});

/** The client side of the proxy takes the gateway's default limits (an empty environment gives the defaults). */
const PROXY_LIMITS: RequestBounds = loadConfig({}).limits;

export interface RunningProxy {
  /** The base URL clients use, e.g. http://127.0.0.1:3099. */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  /** Asks the gateway once whether it answers and accepts the key, and logs the outcome. */
  check(): Promise<ProbeResult>;
  /** Stops accepting, lets requests in flight finish within the grace period, closes the pool. */
  close(): Promise<void>;
}

export async function startProxy(settings: ProxySettings, logger: Logger, tuning: Partial<ProxyTuning> = {}): Promise<RunningProxy> {
  const t = { ...DEFAULT_PROXY_TUNING, ...tuning };
  const client = new UpstreamClient(settings.gateway.href, {
    connections: t.connections,
    connectTimeoutMs: t.connectTimeoutMs,
    headersTimeoutMs: t.headersTimeoutMs,
    bodyTimeoutMs: t.bodyTimeoutMs,
  });
  const lifecycle: Lifecycle = { draining: false, inFlight: 0 };
  const hider = new GatewayHostHider(settings.gateway);
  const loopbackOnly = isLoopbackHost(settings.host);
  const handler = createProxyHandler({ client, gatewayKey: settings.gatewayKey, hider, logger, lifecycle, loopbackOnly });
  const server = createHttpServer(handler, PROXY_LIMITS);
  let address;
  try {
    address = await listen(server, settings.port, settings.host);
  } catch (err) {
    await client.destroy();
    throw err;
  }
  const url = proxyBaseUrl(settings.host, address.port);
  logger.info({ url, gateway: settings.gateway.origin }, 'model-gateway proxy listening');
  let closing: Promise<void> | null = null;
  return {
    url,
    port: address.port,
    host: settings.host,
    check: () => probeGateway(client, settings.gatewayKey, logger),
    close() {
      closing ??= (async () => {
        const clean = await drain(server, lifecycle, t.shutdownGraceMs);
        await client.close().catch(() => client.destroy());
        logger.info({ clean }, 'model-gateway proxy stopped');
      })();
      return closing;
    },
  };
}
