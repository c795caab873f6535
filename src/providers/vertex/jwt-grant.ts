// The OAuth 2.0 JWT-bearer grant (RFC 7523) a service account exchanges for an access token: a JWT
// signed RS256 with the account's key (node:crypto), claiming who it is (`iss`), where it is sent
// (`aud`: the token endpoint), what for (`scope`) and for how long (`iat` to `exp`, an hour at most).
import { sign } from 'node:crypto';
import type { ServiceAccount } from './service-account.js';

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** The scope Vertex AI's prediction calls need. */
export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** The longest lifetime Google accepts for a grant's JWT. */
export const MAX_ASSERTION_SECONDS = 3600;

function part(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** The signed JWT for a grant made at `nowMs`. */
export function jwtAssertion(account: ServiceAccount, nowMs: number, scope: string = CLOUD_PLATFORM_SCOPE): string {
  const iat = Math.floor(nowMs / 1000);
  const header = account.privateKeyId === null ? { alg: 'RS256', typ: 'JWT' } : { alg: 'RS256', typ: 'JWT', kid: account.privateKeyId };
  const claims = { iss: account.clientEmail, scope, aud: account.tokenUri, iat, exp: iat + MAX_ASSERTION_SECONDS };
  const signingInput = `${part(header)}.${part(claims)}`;
  const signature = sign('sha256', Buffer.from(signingInput, 'utf8'), account.privateKey).toString('base64url');
  return `${signingInput}.${signature}`;
}

/** The form body of the grant request. */
export function grantRequestBody(assertion: string): string {
  return new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion }).toString();
}
