// Which of the gateway's response headers the proxy returns to its client.
import type { OutgoingHttpHeaders } from 'node:http';
import { HOP_BY_HOP } from '../../providers/anthropic/headers.js';
import type { GatewayHostHider } from './host-hider.js';

/**
 * Never returned: hop-by-hop headers, and what would point the client at the gateway or tie it to the
 * gateway's infrastructure (redirect targets, cookies of a load balancer in front of it, protocol hints).
 */
const WITHHELD = new Set([
  ...HOP_BY_HOP,
  'location',
  'content-location',
  'refresh',
  'set-cookie',
  'alt-svc',
  'via',
  'server',
  'strict-transport-security',
  'link',
  'report-to',
  'reporting-endpoints',
  'nel',
]);

/** What the gateway answered, minus withheld headers and any header whose value names the gateway. */
export function clientResponseHeaders(
  gateway: Record<string, string | string[] | undefined>,
  hider: GatewayHostHider,
): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const name in gateway) {
    const value = gateway[name];
    if (value === undefined || WITHHELD.has(name)) continue;
    if (Array.isArray(value) ? value.some((v) => hider.mentions(v)) : hider.mentions(value)) continue;
    out[name] = value;
  }
  return out;
}
