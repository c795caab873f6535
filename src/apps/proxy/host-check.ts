// DNS-rebinding guard. A web page can point its own host name at 127.0.0.1 and then call the proxy as
// "same origin", spending the key. Browsers always send the name they used in Host, so a proxy that
// listens on loopback answers only requests addressed to a loopback name or address.
import { isLoopbackHost } from './loopback.js';

/** The host name of a Host header value: `name:port`, `[v6]:port`, or either without the port. */
export function hostNameOf(hostHeader: string): string {
  if (hostHeader.startsWith('[')) {
    const end = hostHeader.indexOf(']');
    return end === -1 ? hostHeader : hostHeader.slice(0, end + 1);
  }
  const colon = hostHeader.indexOf(':');
  return colon === -1 ? hostHeader : hostHeader.slice(0, colon);
}

/** No Host at all (HTTP/1.0 tools) is allowed: browsers always send one. */
export function addressedToLoopback(hostHeader: string | undefined): boolean {
  return hostHeader === undefined || isLoopbackHost(hostNameOf(hostHeader.trim()));
}
