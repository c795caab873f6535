// The dashboard's PromQL against the real gateway: a real Prometheus scrapes the gateway's
// GET /metrics while real requests go through both surfaces to the simulator.
import t from 'tap';
import { startHarness } from '../../helpers/harness.js';
import { checkDashboardQueries } from './check-dashboard.js';
import { driveGateway } from './gateway-traffic.js';

t.test('dashboard queries against a running gateway', async (t) => {
  // Retries on (the test harness turns them off by default), with short pauses.
  const h = await startHarness({ env: { GATEWAY_RETRY_ATTEMPTS: '3', GATEWAY_RETRY_BASE_DELAY_MS: '10' } });
  t.teardown(() => h.close());
  const { key } = await h.createKey({ customer: 'acme' });
  const { key: limitedKey } = await h.createKey({ customer: 'globex', rpm: 1 });
  // A soft budget: acme's requests are counted against it (the utilisation panel) and never refused.
  const acme = await h.built.stores.keys.getCustomerByName('acme');
  await h.built.stores.keys.setCustomerBudget(acme!.id, { amountNanoUsd: 1_000_000_000, period: 'month', mode: 'soft' });
  await h.runtime.keys.refresh();
  await checkDashboardQueries(t, {
    targetUrl: `${h.url}/metrics`,
    drive: async () => {
      await driveGateway({ url: h.url, simulator: h.simulator, key, limitedKey });
      collectYoungGeneration();
    },
    // A gateway without REDIS_URL has no shared store to report (the synthetic target's test covers the panel).
    mayBeEmpty: ['model_gateway_shared_store_up'],
  });
});

/**
 * The gateway runs in this process, and light traffic may not fill its young generation between two
 * scrapes: the GC panel's rate() then has no two samples. Garbage well over the largest young
 * generation makes a collection happen in every round, whatever else the machine is doing.
 */
function collectYoungGeneration(): void {
  // Stored into a ring, so no optimisation can leave the objects unallocated: ~400,000 × 32 bytes.
  const ring: object[] = new Array(1024);
  for (let i = 0; i < 400_000; i++) ring[i & 1023] = { i, round: ring.length };
}
