// The OAuth 2.0 token endpoint a Vertex service account's `token_uri` names: POST /token with the
// JWT-bearer grant (`grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=<JWT>`). The
// JWT must be signed RS256 by a service account the simulator knows (`iss`), be addressed to this
// endpoint (`aud`: the URL it was posted to), live an hour at most around now (`iat`, `exp`) and ask
// for a scope. Refusals are Google's: 400 `{"error": …, "error_description": …}`.
import { verify, type KeyObject } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { isRecord } from '../../../lib/is-record.js';
import { endJson } from '../../../lib/json-response.js';
import { JWT_BEARER_GRANT, MAX_ASSERTION_SECONDS } from '../../../providers/vertex/jwt-grant.js';
import type { Incoming, SimContext } from '../http/context.js';

/** How far a grant's `iat` may run ahead of the simulator's clock (clients' clocks drift). */
const CLOCK_SKEW_SECONDS = 300;
export const TOKEN_PATH = '/token';

function refuse(res: ServerResponse, error: string, description: string): void {
  endJson(res, 400, JSON.stringify({ error, error_description: description }), { 'cache-control': 'no-store' });
}

function decodePart(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
}

function signatureHolds(signed: Buffer, key: KeyObject, signature: string): boolean {
  try {
    return verify('sha256', signed, key, Buffer.from(signature, 'base64url'));
  } catch {
    return false;
  }
}

const BAD_TIMES = 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.';

export function handleToken(call: Incoming, sim: SimContext): void {
  const { res } = call;
  if (call.method !== 'POST') return refuse(res, 'invalid_request', 'The token endpoint takes POST requests.');
  const form = new URLSearchParams(call.body.toString('utf8'));
  const grantType = form.get('grant_type');
  if (grantType !== JWT_BEARER_GRANT) return refuse(res, 'unsupported_grant_type', `Invalid grant_type: ${grantType ?? ''}`.slice(0, 200));
  const assertion = form.get('assertion');
  if (assertion === null || assertion === '') return refuse(res, 'invalid_request', 'Missing required parameter: assertion');
  const parts = assertion.split('.');
  const header = parts.length === 3 ? decodePart(parts[0]!) : null;
  const claims = parts.length === 3 ? decodePart(parts[1]!) : null;
  if (!isRecord(header) || !isRecord(claims)) return refuse(res, 'invalid_grant', 'Invalid JWT: the assertion is not a signed JWT.');
  if (header.alg !== 'RS256') return refuse(res, 'invalid_grant', 'Invalid JWT Signature.');
  const account = typeof claims.iss === 'string' ? sim.accounts.vertex(claims.iss) : null;
  if (account === null) return refuse(res, 'invalid_grant', 'Invalid grant: account not found');
  const signed = Buffer.from(`${parts[0]}.${parts[1]}`, 'utf8');
  if (!signatureHolds(signed, account.publicKey, parts[2]!)) return refuse(res, 'invalid_grant', 'Invalid JWT Signature.');
  const audience = `http://${call.req.headers.host ?? ''}${TOKEN_PATH}`;
  if (claims.aud !== audience) return refuse(res, 'invalid_grant', `Invalid JWT: Failed audience check. The expected audience is ${audience}.`);
  const { iat, exp } = claims;
  const now = sim.clock.now() / 1000;
  if (typeof iat !== 'number' || typeof exp !== 'number' || exp <= iat || exp - iat > MAX_ASSERTION_SECONDS || iat > now + CLOCK_SKEW_SECONDS || exp <= now) {
    return refuse(res, 'invalid_grant', BAD_TIMES);
  }
  if (typeof claims.scope !== 'string' || claims.scope.trim() === '') return refuse(res, 'invalid_scope', 'Invalid OAuth scope or ID token audience provided.');
  const issued = sim.tokens.issue(account, claims.scope.trim().split(/\s+/), sim.clock.now());
  endJson(res, 200, JSON.stringify({ access_token: issued.token, expires_in: issued.expiresIn, token_type: 'Bearer' }), { 'cache-control': 'no-store' });
}
