// Redis key names. A key's entry and its customer's entry share the customer's hash tag ({...}),
// so one script may touch both on Redis Cluster too (a key always belongs to one customer).

export function assertPrefix(prefix: string): void {
  // A brace in the prefix would become the hash tag and put every customer in one slot.
  if (/[{}]/.test(prefix)) throw new Error(`redis key prefix must not contain braces: ${prefix}`);
}

export function keyEntry(prefix: string, customerId: string, keyId: string): string {
  return `${prefix}{${customerId}}:key:${keyId}`;
}

export function customerEntry(prefix: string, customerId: string): string {
  return `${prefix}{${customerId}}:customer`;
}

export function instancesSet(prefix: string): string {
  return `${prefix}instances`;
}
