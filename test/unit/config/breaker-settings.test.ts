import t from 'tap';
import { ConfigError } from '../../../src/config/config-error.js';
import { loadConfig } from '../../../src/config/config.js';

const breaker = (env: Record<string, string>) => loadConfig(env).breaker;

t.test('defaults: 50% of at least 20 calls in 30 s, 30 s cool-down', async (t) => {
  t.same(breaker({}), { minCalls: 20, failurePercent: 50, windowMs: 30_000, coolDownMs: 30_000 });
});

t.test('every setting is read from its variable', async (t) => {
  const env = { GATEWAY_BREAKER_MIN_CALLS: '8', GATEWAY_BREAKER_FAILURE_PERCENT: '75', GATEWAY_BREAKER_WINDOW_MS: '10000', GATEWAY_BREAKER_COOLDOWN_MS: '500' };
  t.same(breaker(env), { minCalls: 8, failurePercent: 75, windowMs: 10_000, coolDownMs: 500 });
});

t.test('the older GATEWAY_BREAKER_FAILURES is the minimum volume when the new name is unset', async (t) => {
  t.equal(breaker({ GATEWAY_BREAKER_FAILURES: '0' }).minCalls, 0, '0 still switches the breakers off');
  t.equal(breaker({ GATEWAY_BREAKER_FAILURES: '5' }).minCalls, 5);
  t.equal(breaker({ GATEWAY_BREAKER_FAILURES: '5', GATEWAY_BREAKER_MIN_CALLS: '30' }).minCalls, 30, 'the new name wins');
});

t.test('out-of-range values are refused at start', async (t) => {
  const refused: Array<Record<string, string>> = [
    { GATEWAY_BREAKER_FAILURE_PERCENT: '0' },
    { GATEWAY_BREAKER_FAILURE_PERCENT: '101' },
    { GATEWAY_BREAKER_FAILURE_PERCENT: '50.5' },
    { GATEWAY_BREAKER_MIN_CALLS: '-1' },
    { GATEWAY_BREAKER_WINDOW_MS: '5' },
  ];
  for (const env of refused) {
    const name = Object.keys(env)[0];
    try {
      breaker(env);
      t.fail(`${JSON.stringify(env)} was accepted`);
    } catch (err) {
      t.ok(err instanceof ConfigError && err.message.startsWith(name), `${JSON.stringify(env)}: ${(err as Error).message}`);
    }
  }
});
