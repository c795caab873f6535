// Returns the gateway's answer to the proxy's client. Successful bodies (JSON or an SSE stream) pass
// through byte for byte with backpressure; error bodies are small and are read whole so the gateway's
// host name can be taken out; a redirect or a non-API body becomes a 502 in the surface's shape.
import type { ServerResponse } from 'node:http';
import type { ErrorFormat } from '../../dialects/errors/render.js';
import { chatErrorFrames, messagesErrorEvent, streamFailureOf } from '../../dialects/errors/stream-frames.js';
import { pumpToClient } from '../../gateway/relay/pump.js';
import type { RawResponse } from '../../upstream/client.js';
import { answerProxyError, PROXY_MESSAGES } from './errors.js';
import { StreamEnding } from './stream-ending.js';
import type { GatewayHostHider } from './host-hider.js';
import { clientResponseHeaders } from './response-headers.js';

export type RelayEnd = 'complete' | 'client_gone' | 'gateway_failed' | 'refused';

const API_CONTENT_TYPES = ['application/json', 'text/event-stream'];

export async function relayResponse(
  res: ServerResponse,
  gateway: RawResponse,
  format: ErrorFormat,
  hider: GatewayHostHider,
  signal: AbortSignal,
): Promise<RelayEnd> {
  const status = gateway.statusCode;
  if (status >= 300 && status < 400) return refuse(res, gateway, format, PROXY_MESSAGES.redirect);
  const contentType = String(gateway.headers['content-type'] ?? '').toLowerCase();
  const hasBody = status !== 204 && status !== 304;
  if (hasBody && !API_CONTENT_TYPES.some((t) => contentType.startsWith(t))) return refuse(res, gateway, format, PROXY_MESSAGES.notApi);
  const headers = clientResponseHeaders(gateway.headers, hider);
  if (status >= 400) {
    const body = Buffer.from(hider.hide(await gateway.body.text()), 'utf8');
    headers['content-length'] = body.length;
    res.writeHead(status, headers);
    res.end(body);
    return 'complete';
  }
  const streamed = contentType.startsWith('text/event-stream');
  res.writeHead(status, headers);
  if (streamed) res.flushHeaders();
  const ending = streamed ? StreamEnding.of(format) : null;
  const result = await pumpToClient(res, gateway.body, signal, ending === null ? undefined : (chunk) => ending.push(chunk));
  if (result.end === 'client_gone') return 'client_gone';
  if (result.end === 'source_failed') {
    if (ending === null) {
      // A cut JSON body cannot be repaired: the client sees the connection end early.
      res.destroy();
      return 'gateway_failed';
    }
    // A stream that already ended as a whole answer owes nothing more.
    if (ending.complete) {
      res.end();
      return 'complete';
    }
    res.write(finalStreamFrame(format, result.error));
  }
  res.end();
  return result.end === 'complete' ? 'complete' : 'gateway_failed';
}

/** A stream cut between the proxy and the gateway ends like any other stream failure: a final event. */
function finalStreamFrame(format: ErrorFormat, err: unknown): string {
  const failure = streamFailureOf(err);
  return format === 'messages'
    ? messagesErrorEvent(failure.messagesType, failure.message)
    : chatErrorFrames(failure.chatType, failure.chatCode, failure.message);
}

function refuse(res: ServerResponse, gateway: RawResponse, format: ErrorFormat, message: string): RelayEnd {
  discardBody(gateway);
  answerProxyError(res, format, 'upstream_bad_response', message);
  return 'refused';
}

/** Drops what is left of the gateway's body; undici reports that as an abort error nobody needs. */
export function discardBody(gateway: RawResponse): void {
  if (gateway.body.destroyed || gateway.body.readableEnded) return;
  gateway.body.on('error', () => {});
  gateway.body.destroy();
}
