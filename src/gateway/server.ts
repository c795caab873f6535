// The node:http binding: limits and timeouts of docs/contract.md, and a graceful drain.
import { createServer, STATUS_CODES } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { RequestBounds } from '../config/config.js';
import type { ErrorCode } from '../dialects/errors/codes.js';
import { renderError } from '../dialects/errors/render.js';
import type { Gateway } from './create-gateway.js';
import { newRequestId } from '../observability/request-id.js';
import { errorFormatOf } from './surfaces.js';
import type { Lifecycle } from './runtime.js';

export function createHttpServer(gateway: Gateway, limits: RequestBounds): Server {
  const server = createServer(
    {
      maxHeaderSize: limits.headerBytes,
      headersTimeout: limits.headersTimeoutMs,
      // Time allowed to receive the whole request; responses (streams) are not limited by it.
      requestTimeout: limits.bodyTimeoutMs,
      keepAliveTimeout: 65_000,
      // The header and request timeouts are enforced by a periodic sweep (30 s by default), which
      // would let a slow sender keep its socket up to twice as long as configured.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, limits.headersTimeoutMs, limits.bodyTimeoutMs)),
      requireHostHeader: false,
    },
    gateway.handle,
  );
  server.on('clientError', answerClientError);
  return server;
}

/** Which answer a request the HTTP parser refused gets (docs/contract.md, "Timeouts and limits"). */
const CLIENT_ERRORS = new Map<string | undefined, { status: number; code: ErrorCode; message: string }>([
  ['HPE_HEADER_OVERFLOW', { status: 431, code: 'invalid_request', message: 'The request headers are larger than the limit.' }],
  ['ERR_HTTP_REQUEST_TIMEOUT', { status: 408, code: 'invalid_request', message: 'The request was not received in time.' }],
]);
const MALFORMED = { status: 400, code: 'invalid_request' as ErrorCode, message: 'The request is not valid HTTP/1.1 (framing, chunking or header syntax).' };

/**
 * Requests the HTTP parser refuses (both Content-Length and Transfer-Encoding, malformed chunks, bare
 * CR or LF in a header, oversized headers, slow senders) get a short JSON answer in the error shape
 * of the path they named, with a request id, and the connection is closed. Nothing from the refused
 * bytes is echoed back.
 */
function answerClientError(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  // As Node does: never write into a response already under way on this socket.
  const inFlight = (socket as unknown as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent === true) {
    socket.destroy();
    return;
  }
  const answer = CLIENT_ERRORS.get(err.code) ?? MALFORMED;
  const id = newRequestId();
  const body = renderError(errorFormatOf(requestPath(err.rawPacket)), answer.code, answer.message, null);
  socket.end(
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\nconnection: close\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nrequest-id: ${id}\r\nx-request-id: ${id}\r\n\r\n${body}`,
  );
}

/** The path of the request line, when the refused bytes start with one (only used to pick a shape). */
function requestPath(raw: Buffer | undefined): string {
  if (raw === undefined) return '/';
  const head = raw.toString('latin1', 0, Math.min(raw.length, 1024));
  const start = head.indexOf(' ');
  const end = start === -1 ? -1 : head.indexOf(' ', start + 1);
  return end === -1 ? '/' : head.slice(start + 1, end);
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

/** How recently /readyz must have been asked for the drain to wait for whoever asked it. */
export const READINESS_WATCH_WINDOW_MS = 60_000;

/**
 * Whether something watches this instance's readiness (a load balancer's health check, a readiness
 * probe): only then is there anyone to tell by answering 503 before stopping. A process nobody probes
 * (a developer's terminal, a test) stops at once.
 */
export function readinessWatched(lifecycle: Lifecycle, now = performance.now()): boolean {
  const at = lifecycle.readinessAskedAt;
  return at !== undefined && now - at <= READINESS_WATCH_WINDOW_MS;
}

/**
 * The graceful stop, in the order a load balancer needs it: /readyz turns 503 at once while requests
 * are still accepted and served for `delayMs`, long enough for the health checks to take this
 * instance out of rotation (a request routed here meanwhile is served, never refused). Only then
 * does it stop accepting, close idle keep-alive connections (no balancer sends on them any more),
 * and let in-flight requests and streams finish within `graceMs`, closing whatever is left.
 * Resolves true when everything finished in time.
 */
export async function drain(server: Server, lifecycle: Lifecycle, graceMs: number, delayMs = 0): Promise<boolean> {
  lifecycle.draining = true;
  // Meanwhile every response says `connection: close` (gateway.ts), so keep-alive clients reconnect
  // through the balancer, which sends them elsewhere.
  if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
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
