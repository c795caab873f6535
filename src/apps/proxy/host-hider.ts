// Keeps the gateway's address out of what the proxy returns (docs/proxy.md: the gateway's address does not
// appear in the client's own traffic). Loopback names are not hidden: the client already knows them.
import { isLoopbackHost } from './loopback.js';

export const HIDDEN_HOST = '[gateway]';

export class GatewayHostHider {
  private readonly pattern: RegExp;
  private readonly lowerNeedles: readonly string[];

  constructor(gateway: URL) {
    // url.host carries a non-default port ("gw.example.com:8443"); the bare name is hidden too.
    const needles = [gateway.host];
    if (!isLoopbackHost(gateway.hostname) && gateway.hostname !== gateway.host) needles.push(gateway.hostname);
    this.lowerNeedles = needles.map((n) => n.toLowerCase());
    // Longest first, so "host:port" is replaced whole rather than leaving ":port" behind.
    const alternatives = [...needles].sort((a, b) => b.length - a.length).map(escapeRegExp);
    this.pattern = new RegExp(alternatives.join('|'), 'gi');
  }

  mentions(text: string): boolean {
    const lower = text.toLowerCase();
    return this.lowerNeedles.some((n) => lower.includes(n));
  }

  hide(text: string): string {
    return this.mentions(text) ? text.replace(this.pattern, HIDDEN_HOST) : text;
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
