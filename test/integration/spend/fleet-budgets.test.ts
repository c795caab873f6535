// Three gateway instances on one key store and one Redis: a key's hard budget is the fleet's. 50 parallel
// requests spread over the instances spend at most the budget (each reservation had to fit in Redis's
// counter), the counter ends at the sum of the real costs, and a fresh instance seeded after a Redis flush
// starts from the usage store instead of from zero.
import t from 'tap';
import type { Budget } from '../../../src/keys/budget.js';
import { bearer, call } from '../../helpers/http.js';
import { INPUT_CUSHION } from '../../../src/policy/budgets/budget-rules.js';
import { startRedisFleet } from '../../helpers/redis-fleet.js';
import { waitFor } from '../../helpers/wait.js';
import { deleteKeys } from '../../unit/policy/ratelimit/redis/redis-test-env.js';

const MODEL = 'claude-sonnet-4-6';
const INPUT = 3000;
const OUTPUT = 15_000;
const body = JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
const RESERVE = 16 * OUTPUT + Math.ceil(Buffer.byteLength(body) / 4) * INPUT;
// What each holds while others are in flight: its input estimate cushioned (docs/spend.md, "Why a hard budget holds").
const HOLD = 16 * OUTPUT + INPUT_CUSHION * Math.ceil(Buffer.byteLength(body) / 4) * INPUT;

t.test('a hard budget holds across three instances sharing Redis; a flush does not reset it', async (t) => {
  const { redis, prefix, instances: fleet } = await startRedisFleet(t, 3);
  const [a, , last] = fleet;
  const amount = 10 * RESERVE;
  const budget: Budget = { amountNanoUsd: amount, period: 'month', mode: 'hard' };
  const { key } = await a.createKey({ budget });

  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, i) => call(`${fleet[i % 3].url}/gateway/v1/messages`, { body, headers: bearer(key) })),
  );
  const served = answers.filter((r) => r.status === 200);
  const costs = served.map((r) => {
    const u = r.json().usage as { input_tokens: number; output_tokens: number };
    return u.input_tokens * INPUT + u.output_tokens * OUTPUT;
  });
  const spent = costs.reduce((x, y) => x + y, 0);
  const fit = Math.floor(amount / HOLD);
  t.ok(served.length >= fit, `at least the ${fit} cushioned holds that fit were served (${served.length})`);
  t.ok(answers.every((r) => r.status === 200 || r.status === 429), 'the others were refused with 429');
  t.ok(answers.some((r) => r.status === 429), 'some were refused: not 10 per instance');
  t.ok(spent <= amount, `the fleet spent ${spent} of ${amount}: no overshoot at all when every request costs less than it reserved`);

  const counters: string[] = [];
  for await (const keys of redis.scanIterator({ MATCH: `${prefix}*budget:key:*`, COUNT: 100 })) counters.push(...keys.filter((k) => !/:(flight|lease|lease-end)$/.test(k)));
  t.equal(counters.length, 1, 'one counter in Redis for the key and month');
  // The counter also holds the instances' leases (the slices each may spend alone): left out here.
  const leased = async () => (await redis.hVals(`${counters[0]}:lease`)).reduce((sum, l) => sum + Number(l), 0);
  await waitFor(async () => Number(await redis.get(counters[0])) - (await leased()) === spent, 5000);
  t.pass('the counter ends at the sum of the real costs and the leases (every reservation settled)');

  // The usage rows reach the store; a Redis flush then seeds the counter from them, not from zero.
  await waitFor(async () => (await a.built.stores.usage.totals({})).costNanoUsd === BigInt(spent), 30_000);
  await deleteKeys(redis, prefix);
  const after = await call(`${last.url}/gateway/v1/messages`, { body, headers: bearer(key) });
  const remaining = Number(after.headers['x-gateway-budget-remaining'] ?? 'NaN') * 1e9;
  if (after.status === 200) t.ok(Math.abs(remaining - (amount - spent - RESERVE)) < 1, 'seeded from the usage store after the flush');
  else t.equal(after.status, 429, 'still spent after the flush');
});
