// The node:http binding: limits and timeouts from interface.md, and a graceful drain.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Limits } from './config/config.js';
import type { Gateway } from './gateway.js';
import type { Lifecycle } from './runtime.js';

export function createHttpServer(gateway: Gateway, limits: Limits): Server {
  const server = createServer(
    {
      maxHeaderSize: limits.headerBytes,
      headersTimeout: limits.headersTimeoutMs,
      // Time allowed to receive the whole request; responses (streams) are not limited by it.
      requestTimeout: limits.bodyTimeoutMs,
      keepAliveTimeout: 65_000,
      // Node answers a header block over maxHeaderSize with 431 itself.
      requireHostHeader: false,
    },
    gateway.handle,
  );
  return server;
}

export function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * Stops accepting, lets in-flight requests and streams finish within the grace period, then closes
 * whatever is left. Resolves true when everything finished in time.
 */
export async function drain(server: Server, lifecycle: Lifecycle, graceMs: number): Promise<boolean> {
  lifecycle.draining = true;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const deadline = Date.now() + graceMs;
  while (lifecycle.inFlight > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 25));
    server.closeIdleConnections();
  }
  const clean = lifecycle.inFlight === 0;
  server.closeAllConnections();
  await closed;
  return clean;
}
