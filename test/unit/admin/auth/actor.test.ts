import type { IncomingMessage } from 'node:http';
import t from 'tap';
import { bearerToken, identify } from '../../../../src/admin/auth/actor.js';
import type { ActorDeps } from '../../../../src/admin/auth/actor.js';
import type { SessionStore } from '../../../../src/admin/auth/session-store.js';
import { SignInThrottle } from '../../../../src/admin/auth/throttle.js';
import { AddressRanges } from '../../../../src/lib/net/address-ranges.js';
import type { UserStore } from '../../../../src/stores/user-store.js';
import { GatewayError } from '../../../../src/dialects/errors/codes.js';

t.test('only "Bearer <token>" yields a token, never an empty one', async (t) => {
  const cases: Array<[authorization: string, token: string | null]> = [
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['Bearer   abc  ', 'abc'],
    ['', null],
    [' ', null],
    ['Bearer', null],
    ['Bearer ', null],
    ['Bearer a b', null],
    ['abc', null],
    ['Basic YTpi', null],
    ['Token abc', null],
  ];
  for (const [authorization, token] of cases) t.equal(bearerToken(authorization), token, JSON.stringify(authorization));
});

/** What identify reads of a request carrying this Authorization header. */
function requestWith(authorization: string, address = '192.0.2.1'): IncomingMessage {
  return { headers: { authorization }, socket: { remoteAddress: address } } as unknown as IncomingMessage;
}

function depsWith(adminToken: string): ActorDeps {
  const unused = new Proxy({}, { get: () => () => Promise.reject(new Error('not expected')) });
  return { adminToken, sessions: unused as SessionStore, users: unused as UserStore, throttle: new SignInThrottle(), trustedProxies: AddressRanges.none };
}

t.test('a malformed Authorization is refused even if the admin token were empty', async (t) => {
  // The start refuses an empty token; this checks the second line of defence on its own.
  const deps = depsWith('');
  for (const [i, authorization] of ['', 'Bearer', 'Bearer ', 'Basic YTpi', 'garbage'].entries()) {
    const err = await identify(requestWith(authorization, `192.0.2.${i}`), deps).then(
      () => null,
      (e: unknown) => e,
    );
    t.ok(err instanceof GatewayError && err.code === 'unauthenticated', `${JSON.stringify(authorization)} → unauthenticated`);
  }
});

t.test('the admin token as a bearer is an operator; a wrong one is counted by the throttle', async (t) => {
  const token = 'mgwadm_unit_admin_token_0123456789';
  const deps = depsWith(token);
  t.same(await identify(requestWith(`Bearer ${token}`), deps), { actor: { role: 'operator' }, session: null });
  const statuses: number[] = [];
  for (let i = 0; i < 8; i++) {
    statuses.push(await identify(requestWith('Bearer wrong', '203.0.113.1'), deps).then(() => 200, (e: GatewayError) => e.status));
  }
  t.same(statuses.slice(0, 3), [401, 401, 401]);
  t.same(statuses.slice(3), [429, 429, 429, 429, 429], 'then the address waits');
  t.same(await identify(requestWith(`Bearer ${token}`, '198.51.100.1'), deps), { actor: { role: 'operator' }, session: null }, 'another address is not kept out');
});
