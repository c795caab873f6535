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

/** Failed gateway-key authentications from one client address (grouped as the auth throttle groups them). */
export function authFailuresEntry(prefix: string, addressGroup: string): string {
  return `${prefix}authfail:${addressGroup}`;
}

export interface SignInEntries {
  pair: string;
  address: string;
  account: string;
}

/**
 * A sign-in's three counters. They share one hash tag, so the one script touching all three works on Redis
 * Cluster too (sign-ins are few: one slot carries them easily). JSON keeps the pair unambiguous whatever
 * characters an email or address holds.
 */
export function signInEntries(prefix: string, account: string, address: string): SignInEntries {
  return {
    pair: `${prefix}{signin}:pair:${JSON.stringify([account, address])}`,
    address: `${prefix}{signin}:address:${address}`,
    account: `${prefix}{signin}:account:${account}`,
  };
}
