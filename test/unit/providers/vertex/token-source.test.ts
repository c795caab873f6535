// The token source against the simulator's real token endpoint over HTTP on 127.0.0.1, the simulator
// and the source on one injected clock: tokens held until shortly before they expire, a token that
// expires during the run replaced, concurrent callers sharing one grant, refusals as TokenRefreshError.
import { createServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { generateServiceAccount, startSimulator, writeServiceAccountFile, type Simulator } from '../../../../src/apps/simulator/index.js';
import { readServiceAccountFile, type ServiceAccount } from '../../../../src/providers/vertex/service-account.js';
import { TokenRefreshError, VertexTokenSource } from '../../../../src/providers/vertex/token-source.js';
import { vertexPredictPath } from '../../../../src/providers/vertex/predict-path.js';
import { closedPort } from '../../../helpers/ports.js';

const LIFETIME_S = 600;
let now = Date.UTC(2026, 10, 28, 10, 0, 0);
const clock = () => now;
const generated = generateServiceAccount({ projectId: 'proj-t' });
let sim: Simulator;
let dir: string;
let account: ServiceAccount;

t.before(async () => {
  sim = await startSimulator({ record: true, now: clock, vertex: [{ id: 'v', clientEmail: generated.clientEmail, publicKey: generated.publicKeyPem, tokenLifetimeSeconds: LIFETIME_S }] });
  dir = await mkdtemp(join(tmpdir(), 'token-source-'));
  await writeServiceAccountFile(join(dir, 'sa.json'), generated, sim.tokenUrl);
  account = await readServiceAccountFile(join(dir, 'sa.json'));
});
t.teardown(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

const grants = () => sim.received.filter((r) => r.url === '/token').length;

async function predict(token: string): Promise<number> {
  const res = await fetch(`${sim.url}${vertexPredictPath('proj-t', 'europe-west1', 'claude-sonnet-4-6@20260217', false)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ anthropic_version: 'vertex-2023-10-16', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await res.arrayBuffer();
  return res.status;
}

t.test('a token is fetched once, held, and works; when it expires during the run a new one replaces it', async (t) => {
  const source = VertexTokenSource.forAccount(account, { now: clock });
  t.teardown(() => source.close());
  const before = grants();
  const first = await source.token();
  t.match(first, /^ya29\./);
  t.equal(await source.token(), first, 'held');
  t.equal(grants(), before + 1, 'one grant');
  t.equal(await predict(first), 200);

  now += LIFETIME_S * 1000 + 1;
  t.equal(await predict(first), 401, 'the simulator no longer takes the old token');
  const second = await source.token();
  t.not(second, first);
  t.equal(await predict(second), 200);
  t.equal(grants(), before + 2);
});

t.test('inside the refresh margin the held token is returned at once and one refresh runs behind it', async (t) => {
  const source = VertexTokenSource.forAccount(account, { now: clock });
  t.teardown(() => source.close());
  const held = await source.token();
  const before = grants();
  // Lifetime 600 s: the margin is half of it (less than the default 5 minutes).
  now += 301_000;
  t.equal(await source.token(), held, 'still valid: no wait');
  t.equal(await source.token(), held, 'asked again while the refresh runs');
  now += 300_000;
  const next = await source.token();
  t.not(next, held, 'past expiry, the caller waits for the refresh already under way');
  t.equal(grants(), before + 1, 'one grant for all three calls');
});

t.test('a token the caller reports stale is dropped: the next call fetches a new one', async (t) => {
  const source = VertexTokenSource.forAccount(account, { now: clock });
  t.teardown(() => source.close());
  const first = await source.token();
  source.invalidate('ya29.some-other-token');
  t.equal(await source.token(), first, 'another token: nothing dropped');
  source.invalidate(first);
  const second = await source.token();
  t.not(second, first);
  t.equal(await predict(second), 200);
});

t.test('concurrent callers without a token share one grant', async (t) => {
  const source = VertexTokenSource.forAccount(account, { now: clock });
  t.teardown(() => source.close());
  const before = grants();
  const tokens = await Promise.all(Array.from({ length: 10 }, () => source.token()));
  t.equal(new Set(tokens).size, 1);
  t.equal(grants(), before + 1);
});

t.test('a refused grant is a TokenRefreshError naming the file and Google\'s reason; the next call tries again', async (t) => {
  const stranger = generateServiceAccount({ clientEmail: 'stranger@proj-t.iam.gserviceaccount.com' });
  await writeServiceAccountFile(join(dir, 'stranger.json'), stranger, sim.tokenUrl);
  const source = VertexTokenSource.forAccount(await readServiceAccountFile(join(dir, 'stranger.json')), { now: clock });
  t.teardown(() => source.close());
  const before = grants();
  const failures = await Promise.allSettled([source.token(), source.token()]);
  t.equal(grants(), before + 1, 'concurrent callers shared the failed grant too');
  for (const f of failures) {
    t.equal(f.status, 'rejected');
    const err = (f as PromiseRejectedResult).reason as TokenRefreshError;
    t.ok(err instanceof TokenRefreshError);
    t.match(err, { failure: 'refused', status: 400 });
    t.equal(err.message, `${join(dir, 'stranger.json')}: the token endpoint refused the grant (HTTP 400 invalid_grant: Invalid grant: account not found)`);
  }
  await t.rejects(source.token(), TokenRefreshError);
  t.equal(grants(), before + 2, 'tried again');
});

t.test('an unreachable token endpoint, and an answer that is not a token', async (t) => {
  const port = await closedPort();
  await writeServiceAccountFile(join(dir, 'closed.json'), generated, `http://127.0.0.1:${port}/token`);
  const closed = VertexTokenSource.forAccount(await readServiceAccountFile(join(dir, 'closed.json')), { now: clock });
  t.teardown(() => closed.close());
  await t.rejects(closed.token(), { name: 'TokenRefreshError', failure: 'unreachable', status: null, message: /closed\.json: the token endpoint could not be reached \(ECONNREFUSED\)$/ });

  const odd = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"token":"x"}'));
  await new Promise<void>((r) => odd.listen(0, '127.0.0.1', () => r()));
  t.teardown(() => new Promise<void>((r) => odd.close(() => r())));
  await writeServiceAccountFile(join(dir, 'odd.json'), generated, `http://127.0.0.1:${(odd.address() as { port: number }).port}/oauth/token`);
  const source = VertexTokenSource.forAccount(await readServiceAccountFile(join(dir, 'odd.json')), { now: clock });
  t.teardown(() => source.close());
  await t.rejects(source.token(), { name: 'TokenRefreshError', failure: 'bad_answer', status: 200 });
});
