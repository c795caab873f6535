// Which gateway path a request to the local proxy goes to (docs/contract.md, "The local proxy"), and in
// which surface's error shape the proxy answers for it. Pure: no I/O.
import type { IncomingHttpHeaders } from 'node:http';
import type { ErrorFormat } from '../../dialects/errors/render.js';
import { ANTHROPIC } from '../../dialects/anthropic/api.js';
import { CHAT_PREFIX, errorFormatOf, MESSAGES_PREFIX } from '../../gateway/surfaces.js';

export type ProxyTarget =
  | { readonly kind: 'forward'; /** Gateway path with the client's query string. */ readonly path: string; readonly format: ErrorFormat }
  | { readonly kind: 'not_found'; readonly format: ErrorFormat };

/** Where a client given the plain base URL (`http://127.0.0.1:3099`, or `…/v1`) sends its calls. */
const ROOT = '/v1';
const GATEWAY_PATHS = '/gateway/';

/**
 * Path segments the gateway's own paths are made of. No percent-escapes and no dot segments: a
 * server in front of the gateway could decode or normalise them into a path the gateway never meant
 * to expose (`/gateway/../admin/...`).
 */
const SAFE_SEGMENT = /^[A-Za-z0-9._~:@!$&'()*+,;=-]+$/;

export function mapProxyPath(url: string, headers: IncomingHttpHeaders): ProxyTarget {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? '' : url.slice(q);
  const gatewayPath = path.startsWith(GATEWAY_PATHS) ? safeGatewayPath(path) : rootMapped(path, headers);
  if (gatewayPath === null) return { kind: 'not_found', format: clientFormat(path, headers) };
  return { kind: 'forward', path: gatewayPath + query, format: errorFormatOf(gatewayPath) };
}

function rootMapped(path: string, headers: IncomingHttpHeaders): string | null {
  switch (path) {
    case `${ROOT}/messages`:
    case `${ROOT}/messages/count_tokens`:
      return MESSAGES_PREFIX + path.slice(ROOT.length);
    case `${ROOT}/models`:
      return (sendsVersionHeader(headers) ? MESSAGES_PREFIX : CHAT_PREFIX) + path.slice(ROOT.length);
    case `${ROOT}/chat/completions`:
    case `${ROOT}/responses`:
      return CHAT_PREFIX + path.slice(ROOT.length);
    default:
      return null;
  }
}

function safeGatewayPath(path: string): string | null {
  const segments = path.slice(1).split('/');
  const safe = segments.every((s) => s !== '.' && s !== '..' && SAFE_SEGMENT.test(s));
  return safe ? path : null;
}

/** The messages surface's paths answer in its shape; the chat surface and everything else in the chat shape. */

/** For a path the proxy does not serve: a client that sends the version header speaks the messages format. */
function clientFormat(path: string, headers: IncomingHttpHeaders): ErrorFormat {
  return path.startsWith(GATEWAY_PATHS) ? errorFormatOf(path) : sendsVersionHeader(headers) ? 'messages' : 'chat';
}

function sendsVersionHeader(headers: IncomingHttpHeaders): boolean {
  return headers[ANTHROPIC.versionHeader] !== undefined || headers[ANTHROPIC.versionHeaderAlias] !== undefined;
}
