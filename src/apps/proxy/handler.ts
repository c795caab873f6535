// The proxy's request handler: map the path, refuse what no local client sends (another host name, a
// browser, a body not labelled JSON), swap the client's credential for the gateway key, stream
// the request to the gateway and its answer back. A client that goes away aborts the gateway call.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../observability/logger.js';
import type { Lifecycle } from '../../gateway/runtime.js';
import type { UpstreamClient, RawResponse } from '../../upstream/client.js';
import { classifyUpstreamFailure } from '../../upstream/client.js';
import { proxiedRequestHeaders } from '../../providers/anthropic/headers.js';
import { answerProxyError, PROXY_MESSAGES } from './errors.js';
import { declaresJsonBody, sentByBrowser } from './browser-check.js';
import { addressedToLoopback } from './host-check.js';
import { GatewayReachability } from './reachability.js';
import type { GatewayHostHider } from './host-hider.js';
import { mapProxyPath } from './path-map.js';
import { discardBody, relayResponse } from './relay.js';
import { errorMessage } from '../../lib/error-message.js';

export interface ProxyHandlerDeps {
  client: UpstreamClient;
  gatewayKey: string;
  hider: GatewayHostHider;
  logger: Logger;
  lifecycle: Lifecycle;
  /** True when the proxy listens on loopback: then it answers only requests addressed to loopback. */
  loopbackOnly: boolean;
}

export interface ProxyHandler {
  handle(req: IncomingMessage, res: ServerResponse): void;
}

export function createProxyHandler(deps: ProxyHandlerDeps): ProxyHandler {
  const reachability = new GatewayReachability(deps.logger);
  return {
    handle(req, res) {
      deps.lifecycle.inFlight++;
      forward(deps, reachability, req, res).then(
        () => deps.lifecycle.inFlight--,
        (err: unknown) => {
          deps.lifecycle.inFlight--;
          deps.logger.error({ err: errorMessage(err) }, 'proxy request failed');
          if (!res.headersSent) answerProxyError(res, 'chat', 'internal', 'The model-gateway proxy failed to handle this request.');
          else res.destroy();
        },
      );
    },
  };
}

async function forward(deps: ProxyHandlerDeps, reachability: GatewayReachability, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const started = performance.now();
  const target = mapProxyPath(req.url ?? '/', req.headers);
  if (target.kind === 'not_found') return answerProxyError(res, target.format, 'route_not_found', PROXY_MESSAGES.notFound);
  if (deps.loopbackOnly && !addressedToLoopback(req.headers.host)) {
    deps.logger.warn('refused a request addressed to a non-loopback host name (DNS rebinding?)');
    return answerProxyError(res, target.format, 'forbidden', PROXY_MESSAGES.notLoopback);
  }
  if (sentByBrowser(req.headers)) {
    deps.logger.warn({ origin: req.headers.origin?.slice(0, 200) }, 'refused a request sent by a web browser (a web page calling the proxy?)');
    return answerProxyError(res, target.format, 'forbidden', PROXY_MESSAGES.fromBrowser);
  }
  const method = req.method;
  if (method !== 'GET' && method !== 'POST') return answerProxyError(res, target.format, 'method_not_allowed', PROXY_MESSAGES.methodNotAllowed);
  if (method === 'POST' && !declaresJsonBody(req.headers)) return answerProxyError(res, target.format, 'unsupported_media_type', PROXY_MESSAGES.notJson);

  const abort = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  let gateway: RawResponse;
  try {
    gateway = await deps.client.request({
      method,
      path: target.path,
      headers: proxiedRequestHeaders(req.headers, deps.gatewayKey),
      body: method === 'POST' ? req : undefined,
      signal: abort.signal,
    });
  } catch (err) {
    const kind = classifyUpstreamFailure(err);
    if (kind === 'cancelled') return;
    reachability.failed(kind, (err as { code?: string }).code);
    const timeout = kind === 'timeout';
    return answerProxyError(res, target.format, timeout ? 'upstream_timeout' : 'upstream_unreachable', timeout ? PROXY_MESSAGES.timeout : PROXY_MESSAGES.unreachable);
  }
  reachability.answered();
  try {
    const end = await relayResponse(res, gateway, target.format, deps.hider, abort.signal);
    deps.logger.debug(
      { method, path: pathOnly(target.path), status: gateway.statusCode, end, requestId: gateway.headers['request-id'], ms: Math.round(performance.now() - started) },
      'proxied',
    );
  } finally {
    discardBody(gateway);
  }
}

function pathOnly(path: string): string {
  const q = path.indexOf('?');
  return q === -1 ? path : path.slice(0, q);
}
