// Every PromQL expression of grafana/dashboards/model-gateway.json, run by a real Prometheus
// against a scrape target fed with traffic on both surfaces: valid, and at least one series each.
import t from 'tap';
import { checkDashboardQueries } from './check-dashboard.js';
import { startSyntheticTarget } from './synthetic-target.js';

t.test('dashboard queries against the metrics registry fed with synthetic traffic', async (t) => {
  const target = await startSyntheticTarget();
  t.teardown(() => target.close());
  await checkDashboardQueries(t, { targetUrl: target.url, drive: (round) => target.drive(round) });
});
