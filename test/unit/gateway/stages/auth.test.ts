// The auth stage alone: reads the credential headers and the key cache, writes ctx.principal, answers
// 401 / 429 / 503 as GatewayErrors (thrown synchronously when no lookup is awaited: compose turns that
// into a rejection), and counts what it saw in the metrics.
import t from 'tap';
import { authStage } from '../../../../src/gateway/stages/auth.js';
import { GatewayError } from '../../../../src/dialects/errors/codes.js';
import type { AuthResult, KeyCache } from '../../../../src/keys/key-cache.js';
import { AuthThrottle } from '../../../../src/policy/ratelimit/auth-throttle.js';
import type { GatewayConfig } from '../../../../src/config/config.js';
import { AddressRanges } from '../../../../src/lib/net/address-ranges.js';
import { principal, recordingMetrics, recordingNext, runtimeWith, stageContext } from './stage-context.js';

const known = principal({ keyId: 'good' });

/** A key cache knowing one key, `mgw_good`, in memory; `store` answers what a store lookup would. */
function keysWith(store: (raw: string | undefined) => AuthResult | Promise<AuthResult>): Pick<KeyCache, 'authenticate' | 'authenticateAsync'> {
  const memory = (raw: string | undefined): AuthResult | null => (raw === 'mgw_good' ? { ok: true, principal: known } : null);
  return {
    authenticate: (raw) => memory(raw) ?? { ok: false, reason: raw === undefined ? 'missing' : 'unknown' },
    authenticateAsync: (raw) => memory(raw) ?? store(raw),
  };
}

function build(opts: { store?: (raw: string | undefined) => AuthResult | Promise<AuthResult>; throttle?: AuthThrottle | null; acceptXApiKey?: boolean } = {}) {
  const metrics = recordingMetrics();
  const rt = runtimeWith({
    keys: keysWith(opts.store ?? (async () => ({ ok: false, reason: 'unknown' }))) as KeyCache,
    metrics,
    authThrottle: opts.throttle ?? null,
    config: { rateLimits: { trustedProxies: AddressRanges.none } } as unknown as GatewayConfig,
  });
  return { stage: authStage(rt, { acceptXApiKey: opts.acceptXApiKey ?? false }), metrics };
}

t.test('a key in memory: the principal is written and the rest of the chain runs', async (t) => {
  const { stage, metrics } = build();
  const ctx = stageContext({ headers: { authorization: 'Bearer mgw_good' } });
  const next = recordingNext();
  await stage(ctx, next);
  t.equal(ctx.principal, known);
  t.same(next.calls, [ctx]);
  t.same(metrics.calls, ['keyCache(true)']);
});

t.test('x-api-key is read only where the route accepts it, and then wins over Authorization', async (t) => {
  const accepting = build({ acceptXApiKey: true });
  const ctx = stageContext({ headers: { 'x-api-key': 'mgw_good', authorization: 'Bearer mgw_other' } });
  await accepting.stage(ctx, recordingNext());
  t.equal(ctx.principal, known);
  const refusing = build();
  await t.rejects(async () => refusing.stage(stageContext({ headers: { 'x-api-key': 'mgw_good' } }), recordingNext()), { code: 'invalid_api_key' });
});

t.test('refusals: 401 with the reason, the chain not run, nothing written', async (t) => {
  const cases: Array<[string, Record<string, string>, AuthResult, RegExp]> = [
    ['missing', {}, { ok: false, reason: 'missing' }, /Missing API key/],
    ['revoked', { authorization: 'Bearer mgw_x' }, { ok: false, reason: 'revoked' }, /revoked/],
    ['expired', { authorization: 'Bearer mgw_x' }, { ok: false, reason: 'expired' }, /expired/],
    ['unknown', { authorization: 'Bearer mgw_x' }, { ok: false, reason: 'unknown' }, /^Invalid API key\.$/],
  ];
  for (const [name, headers, result, message] of cases) {
    const { stage, metrics } = build({ store: async () => result });
    const ctx = stageContext({ headers });
    const next = recordingNext();
    const err = await (async () => stage(ctx, next))().then(() => null, (e: unknown) => e);
    t.ok(err instanceof GatewayError, name);
    t.match(err, { code: 'invalid_api_key', message }, name);
    t.equal(ctx.principal, null, `${name}: no principal`);
    t.same(next.calls, [], `${name}: the chain stops`);
    t.ok(metrics.calls.includes(`authFailure("${result.ok ? '' : result.reason}")`), `${name}: counted`);
  }
});

t.test('a store that cannot answer: 503 with retry-after, never 401, and no throttle strike', async (t) => {
  const throttle = new AuthThrottle(1, () => 0);
  const { stage } = build({ store: async () => ({ ok: false, reason: 'unavailable' }), throttle });
  await t.rejects(async () => stage(stageContext({ headers: { authorization: 'Bearer mgw_x' } }), recordingNext()), { code: 'overloaded', headers: { 'retry-after': '5' } });
  t.equal(throttle.size, 0);
});

t.test('an address over its failure budget: 429 before the store is asked, yet a key in memory still passes', async (t) => {
  const throttle = new AuthThrottle(1, () => 0);
  let asked = 0;
  const { stage, metrics } = build({ throttle, store: async () => (asked++, { ok: false, reason: 'unknown' }) });
  const bad = () => stageContext({ headers: { authorization: 'Bearer mgw_x' }, remoteAddress: '198.51.100.7' });
  await t.rejects(async () => stage(bad(), recordingNext()), { code: 'invalid_api_key' });
  t.equal(asked, 1);
  await t.rejects(async () => stage(bad(), recordingNext()), { code: 'rate_limited' });
  t.equal(asked, 1, 'the store was not asked while the address is blocked');
  t.ok(metrics.calls.includes('rateLimited("messages", "auth")'));
  const good = stageContext({ headers: { authorization: 'Bearer mgw_good' }, remoteAddress: '198.51.100.7' });
  await stage(good, recordingNext());
  t.equal(good.principal, known);
});
