// The simulator's Vertex token endpoint memory alone: a token issued for an account is found with its
// scopes until its lifetime ends by the simulator's clock, an unknown one never is, and expired grants
// are dropped as new ones are issued.
import t from 'tap';
import { generateKeyPairSync } from 'node:crypto';
import { IssuedTokens } from '../../../../../src/apps/simulator/vertex/issued-tokens.js';
import { VertexAccount } from '../../../../../src/apps/simulator/accounts/accounts.js';
import { modelOfVertexId } from '../../../../../src/apps/simulator/vertex/model-ids.js';

const publicKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
const account = new VertexAccount('vertex-1', { clientEmail: 'sim@example.iam.gserviceaccount.com', publicKey, tokenLifetimeSeconds: 60 });
const SCOPES = ['https://www.googleapis.com/auth/cloud-platform'];

t.test('a token is found with its account and scopes until it expires', async (t) => {
  const tokens = new IssuedTokens();
  const { token, expiresIn } = tokens.issue(account, SCOPES, 1_000);
  t.match(token, /^ya29\.sim\.[A-Za-z0-9_-]{32}$/);
  t.equal(expiresIn, 60);
  t.match(tokens.find(token, 1_000), { account, scopes: SCOPES, expiresAt: 61_000 });
  t.ok(tokens.find(token, 60_999) !== null, 'valid to the last millisecond');
  t.equal(tokens.find(token, 61_000), null, 'expired at its lifetime');
  t.equal(tokens.find('ya29.sim.unknown', 1_000), null);
});

t.test('every token is new, and an expired grant is forgotten when the next is issued', async (t) => {
  const tokens = new IssuedTokens();
  const first = tokens.issue(account, SCOPES, 0).token;
  const second = tokens.issue(account, SCOPES, 70_000).token;
  t.not(first, second);
  t.equal(tokens.find(first, 0), null, 'gone, even asked at a time it was valid');
  t.ok(tokens.find(second, 70_000) !== null);
});

t.test('Vertex model ids: the version after @ is dropped', async (t) => {
  t.equal(modelOfVertexId('claude-sonnet-4-6@20260217'), 'claude-sonnet-4-6');
  t.equal(modelOfVertexId('claude-haiku-4-5'), 'claude-haiku-4-5');
});
