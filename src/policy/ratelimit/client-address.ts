// The client's address for per-address limits. Behind a load balancer every connection comes from the
// balancer; when that peer is a configured trusted proxy (an address or inside a range), the client is
// the right-most address of X-Forwarded-For that is not itself a trusted proxy (addresses further left
// were written by the client and prove nothing).
import type { AddressRanges } from '../../lib/net/address-ranges.js';

export function clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, trusted: AddressRanges): string | undefined {
  if (peer === undefined || trusted.isEmpty || forwardedFor === undefined || !trusted.has(peer)) return peer;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = (hops[i] as string).trim();
    if (hop !== '' && !trusted.has(hop)) return hop;
  }
  return peer;
}
