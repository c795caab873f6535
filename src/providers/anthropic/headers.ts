// Which request headers go upstream and which response headers come back.
import type { IncomingHttpHeaders } from 'node:http';
import { ANTHROPIC } from '../../dialects/anthropic/api.js';

/** What a client may send as a credential: never passed on by the gateway or the local proxy. */
const CREDENTIAL_HEADERS = ['authorization', 'x-api-key', 'cookie', 'proxy-authorization'];
/** Connection-level headers (RFC 9110 7.6.1) plus `host`: they describe one hop, not the message. */
export const HOP_BY_HOP: readonly string[] = ['host', 'connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

/** Never forwarded: client credentials, hop-by-hop headers, and what undici sets itself. */
const DROPPED = new Set([
  ...CREDENTIAL_HEADERS,
  ...HOP_BY_HOP,
  'content-length',
  // Compressed answers would hide usage from the side observer; the gateway asks for identity.
  'accept-encoding',
  'expect',
  ANTHROPIC.versionHeaderAlias,
]);

/**
 * The messages surface forwards what the client sent, minus credentials, hop-by-hop headers and
 * the gateway's own x-gateway-* headers, plus the upstream credential and version header.
 */
export function forwardedRequestHeaders(incoming: IncomingHttpHeaders, upstreamKey: string | null): Record<string, string> {
  const out = copyHeaders(incoming, DROPPED, true);
  out[ANTHROPIC.versionHeader] = versionOf(incoming);
  if (upstreamKey !== null) out[ANTHROPIC.credentialHeader] = upstreamKey;
  return out;
}

/** Headers for a request the gateway builds itself (the chat surface, the models refresh). */
export function builtRequestHeaders(incoming: IncomingHttpHeaders | null, upstreamKey: string | null): Record<string, string> {
  const out: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  out[ANTHROPIC.versionHeader] = incoming ? versionOf(incoming) : ANTHROPIC.defaultVersion;
  const beta = incoming?.[ANTHROPIC.betaHeader];
  if (typeof beta === 'string' && beta !== '') out[ANTHROPIC.betaHeader] = beta;
  if (upstreamKey !== null) out[ANTHROPIC.credentialHeader] = upstreamKey;
  return out;
}

/**
 * The local proxy (src/apps/proxy) in front of a gateway: what the client sent, minus its credentials and
 * hop-by-hop headers, plus the gateway key as a bearer token. Unlike the gateway's own forwarding it
 * keeps `x-gateway-*` (the gateway reads them), the version header's alias and `content-length`
 * (the body is streamed, so the gateway can refuse an oversized one before reading it).
 */
export function proxiedRequestHeaders(incoming: IncomingHttpHeaders, gatewayKey: string): Record<string, string> {
  const out = copyHeaders(incoming, PROXY_DROPPED, false);
  out.authorization = `Bearer ${gatewayKey}`;
  return out;
}

/** The proxy asks for identity: it reads error bodies to keep the gateway's host name out of them. */
const PROXY_DROPPED = new Set([...CREDENTIAL_HEADERS, ...HOP_BY_HOP, 'accept-encoding', 'expect']);

function copyHeaders(incoming: IncomingHttpHeaders, dropped: ReadonlySet<string>, dropGatewayOwn: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  const connectionListed = listedInConnection(incoming.connection);
  for (const name in incoming) {
    if (dropped.has(name) || (dropGatewayOwn && name.startsWith('x-gateway-')) || connectionListed?.has(name)) continue;
    const value = incoming[name];
    if (value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function versionOf(incoming: IncomingHttpHeaders): string {
  const v = incoming[ANTHROPIC.versionHeader] ?? incoming[ANTHROPIC.versionHeaderAlias];
  return typeof v === 'string' && v !== '' ? v : ANTHROPIC.defaultVersion;
}

function listedInConnection(value: string | undefined): Set<string> | null {
  if (value === undefined || value === 'keep-alive' || value === 'close') return null;
  return new Set(value.split(',').map((s) => s.trim().toLowerCase()));
}
