// The client's address for per-address limits. Behind a load balancer every connection comes from the
// balancer; when that peer is a configured trusted proxy, the client is the right-most address of
// X-Forwarded-For that is not itself a trusted proxy (addresses further left were written by the
// client and prove nothing).

export function clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, trusted: ReadonlySet<string>): string | undefined {
  if (peer === undefined || trusted.size === 0 || !trusted.has(unmapped(peer)) || forwardedFor === undefined) return peer;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = (hops[i] as string).trim();
    if (hop !== '' && !trusted.has(unmapped(hop))) return hop;
  }
  return peer;
}

/** `::ffff:10.0.0.1` and `10.0.0.1` are the same client. */
function unmapped(address: string): string {
  return address.startsWith('::ffff:') && address.indexOf('.') !== -1 ? address.slice(7) : address;
}
