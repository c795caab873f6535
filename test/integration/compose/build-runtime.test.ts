// The composition root: buildRuntime hands every stage the same resilience services, and chooses the
// rate limiter and failed-authentication throttle from the configuration (a cluster worker's are the
// primary's: test/integration/cluster/workers.test.ts).
import t from 'tap';
import { buildRuntime } from '../../../src/apps/serve/build-runtime.js';
import { loadConfig } from '../../../src/config/config.js';
import { AuthThrottle } from '../../../src/policy/ratelimit/auth-throttle.js';
import { MemoryRateLimiter } from '../../../src/policy/ratelimit/memory-limiter.js';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';

const HAIKU = 'claude-haiku-4-5-20251001';

t.test('a single process keeps its own limiter, and a throttle only when failures are counted', async (t) => {
  const env = { DATABASE_URL: 'file::memory:', GATEWAY_ADMIN_TOKEN: 'x'.repeat(32), LOG_LEVEL: 'silent', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' };
  const counted = await buildRuntime(loadConfig({ ...env, GATEWAY_AUTH_FAILURES_PER_MINUTE: '5' }));
  t.teardown(() => counted.close());
  t.ok(counted.runtime.limiter instanceof MemoryRateLimiter, 'the limiter is this process’s buckets');
  t.ok(counted.runtime.authThrottle instanceof AuthThrottle);
  const uncounted = await buildRuntime(loadConfig({ ...env, GATEWAY_AUTH_FAILURES_PER_MINUTE: '0' }));
  t.teardown(() => uncounted.close());
  t.equal(uncounted.runtime.authThrottle, null, 'GATEWAY_AUTH_FAILURES_PER_MINUTE=0: no throttle');
  t.not(uncounted.runtime.routes, counted.runtime.routes, 'each runtime has services of its own');
});

t.test('/readyz reports the breakers the routes use', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const res = await call(`${h.url}/gateway/v1/messages`, {
    body: JSON.stringify({ model: HAIKU, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    headers: bearer(key),
  });
  t.equal(res.status, 200, res.text);
  t.same(h.runtime.routes.all().map((s) => [s.route.name, s.breaker.state]), [[HAIKU, 'closed']], 'the call made its route (and its breaker) in the runtime’s table');
  const ready = await call(`${h.url}/readyz`);
  t.same(ready.json().circuits, { [HAIKU]: 'closed' });
});
