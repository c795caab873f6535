// The metrics-token stage alone: reads the Authorization header, writes nothing, runs the rest of the
// chain for the right bearer token, answers 401 unauthenticated with a Bearer challenge otherwise,
// never echoing what was presented.
import t from 'tap';
import { metricsTokenStage } from '../../../../../src/gateway/stages/ops/metrics-token.js';
import { recordingNext, stageContext } from '../stage-context.js';

const TOKEN = 'm'.repeat(40);
const stage = metricsTokenStage(TOKEN);

t.test('the right bearer token: the chain runs', async (t) => {
  const ctx = stageContext({ headers: { authorization: `Bearer ${TOKEN}` } });
  const next = recordingNext();
  await stage(ctx, next);
  t.same(next.calls, [ctx]);
});

t.test('anything else: 401 with the challenge, the chain not run, the presented value not echoed', async (t) => {
  const cases: Array<[string, Record<string, string>]> = [
    ['no header', {}],
    ['another token', { authorization: `Bearer ${'x'.repeat(40)}` }],
    ['the token as a prefix', { authorization: `Bearer ${TOKEN}x` }],
    ['a shorter token', { authorization: `Bearer ${TOKEN.slice(1)}` }],
    ['the token without a scheme', { authorization: TOKEN }],
    ['basic auth', { authorization: `Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}` }],
  ];
  for (const [name, headers] of cases) {
    const next = recordingNext();
    const err = await (async () => stage(stageContext({ headers }), next))().then(() => null, (e: unknown) => e as Error);
    t.match(err, { code: 'unauthenticated', status: 401, headers: { 'www-authenticate': 'Bearer realm="metrics"' } }, name);
    t.notMatch(err?.message ?? '', /x{10}|m{10}/, `${name}: nothing presented is echoed`);
    t.same(next.calls, [], `${name}: the chain stops`);
  }
});
