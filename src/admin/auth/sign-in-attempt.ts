// One check of an operator's or user's secret (a sign-in, or an admin token sent as a bearer), run under
// the sign-in throttle: refused with 429 while its subjects are throttled, otherwise counted as a failure
// until the caller reports it succeeded.
import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../../dialects/errors/codes.js';
import type { AddressRanges } from '../../lib/net/address-ranges.js';
import { addressGroup } from '../../policy/ratelimit/auth-throttle.js';
import { clientAddress } from '../../policy/ratelimit/client-address.js';
import type { Subjects } from './throttle.js';

/** This process's SignInThrottle, or the fleet's (fleet-sign-in-throttle.ts) when instances share Redis. */
export interface AttemptThrottle {
  /** 0 when the attempt may go ahead (it is then counted as failed until `succeeded`), else the ms until one may. */
  begin(s: Subjects): number | Promise<number>;
  succeeded(s: Subjects): void;
}

export interface AttemptGuard {
  throttle: AttemptThrottle;
  /** Proxies whose X-Forwarded-For is believed (GATEWAY_TRUSTED_PROXIES), as for the key throttle. */
  trustedProxies: AddressRanges;
}

/** The account name operators sign in under, with the token or as a bearer. */
export const OPERATOR_ACCOUNT = 'operator';

/** Starts an attempt on `account` from the request's client, or throws 429 with retry-after. */
export async function beginAttempt(guard: AttemptGuard, req: IncomingMessage, account: string): Promise<Subjects> {
  const subjects: Subjects = { account, address: attemptAddress(guard, req) };
  const waitMs = await guard.throttle.begin(subjects);
  if (waitMs > 0) {
    const seconds = String(Math.ceil(waitMs / 1000));
    throw new GatewayError('rate_limited', 'Too many failed sign-ins; try again later.', { headers: { 'retry-after': seconds } });
  }
  return subjects;
}

/** The client behind a trusted proxy, IPv6 grouped by /64: the same address rule as the key throttle. */
function attemptAddress(guard: AttemptGuard, req: IncomingMessage): string {
  return addressGroup(clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], guard.trustedProxies));
}
