// The JWT-bearer grant: an RS256 JWT that the account's public key verifies, with the claims Google checks.
import { createPublicKey, verify } from 'node:crypto';
import t from 'tap';
import { generateServiceAccount, serviceAccountJson } from '../../../../src/apps/simulator/index.js';
import { CLOUD_PLATFORM_SCOPE, grantRequestBody, JWT_BEARER_GRANT, jwtAssertion } from '../../../../src/providers/vertex/jwt-grant.js';
import { parseServiceAccount } from '../../../../src/providers/vertex/service-account.js';

const generated = generateServiceAccount();
const account = parseServiceAccount(JSON.stringify(serviceAccountJson(generated, 'https://oauth2.example.test/token')), 'sa.json');
const part = (s: string) => JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Record<string, unknown>;

t.test('header, claims and an RS256 signature the public key verifies', async (t) => {
  const jwt = jwtAssertion(account, Date.UTC(2026, 10, 28, 10, 0, 0, 999));
  const [header, claims, signature] = jwt.split('.') as [string, string, string];
  t.same(part(header), { alg: 'RS256', typ: 'JWT', kid: generated.privateKeyId });
  const iat = Date.UTC(2026, 10, 28, 10, 0, 0) / 1000;
  t.same(part(claims), { iss: generated.clientEmail, scope: CLOUD_PLATFORM_SCOPE, aud: 'https://oauth2.example.test/token', iat, exp: iat + 3600 });
  t.ok(verify('sha256', Buffer.from(`${header}.${claims}`), createPublicKey(generated.publicKeyPem), Buffer.from(signature, 'base64url')));
  t.notOk(verify('sha256', Buffer.from(`${header}.${claims}x`), createPublicKey(generated.publicKeyPem), Buffer.from(signature, 'base64url')), 'and only that content');
});

t.test('the grant request body', async (t) => {
  const form = new URLSearchParams(grantRequestBody('a.b.c'));
  t.equal(form.get('grant_type'), JWT_BEARER_GRANT);
  t.equal(form.get('assertion'), 'a.b.c');
});
