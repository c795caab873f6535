// The Grafana dashboard, read as data: fixed identity, a Prometheus data-source variable used by
// every query, customer and model variables, and PromQL that reads only metrics the gateway
// exports (Prometheus itself runs the queries in test/integration/prometheus/).
import t from 'tap';
import { createMetrics, METRIC_NAMES } from '../../../src/observability/metrics.js';
import { dashboardTargets, labelVariables, loadDashboard, metricNamesIn, substituteVariables } from '../../integration/prometheus/dashboard-exprs.js';
import { parseExposition } from './exposition.js';

const dashboard = loadDashboard();

async function exportedNames(): Promise<Set<string>> {
  const m = createMetrics({ knownModels: () => new Set(['m']) });
  // Histograms export only once observed, so observe everything once.
  m.requestFinished({
    surface: 'chat',
    model: 'm',
    customer: 'c',
    status: 200,
    outcome: 'ok',
    durationSec: 1,
    upstreamHeadersSec: 0.5,
    ttftSec: 0.5,
    usage: { input: 1, output: 3, cacheRead: 1, cacheWrite: 1 },
    streamed: true,
    generationSec: 1,
    traceId: null,
  });
  m.retry('x');
  m.circuitState('u', 'open');
  m.translationWarning('k');
  // Only a gateway with REDIS_URL reports the shared store.
  m.sharedStoreUp('redis', true);
  // Spend and a customer budget's utilisation appear once a request is priced and a budget used.
  m.spent('m', 'c', { nanoUsd: 1000, priced: true });
  m.budgetUtilisation('c', 'month', 0.5);
  // The routes' families appear once a route was tried and is watched.
  m.routeAttempt('m@a', 'a', 'ok');
  m.watchRoutes(() => [{ route: 'm@a', provider: 'a', cooling: 'throttled', headroom: { requests: 3 } }]);
  const names = new Set(parseExposition((await m.render()).body).map((s) => s.name));
  // GC histograms appear after the first collection; their names are fixed by prom-client.
  for (const suffix of ['_bucket', '_sum', '_count']) names.add(`model_gateway_nodejs_gc_duration_seconds${suffix}`);
  return names;
}

t.test('identity and schema', async (t) => {
  t.equal(dashboard.uid, 'model-gateway');
  t.equal(dashboard.title, 'Model gateway');
  t.ok(dashboard.schemaVersion >= 39, 'a current schema version');
});

t.test('a Prometheus data-source variable, used by every panel and target', async (t) => {
  const ds = dashboard.templating.list.find((v) => v.type === 'datasource');
  t.match(ds, { name: 'datasource', query: 'prometheus' });
  const raw = JSON.stringify(dashboard.panels);
  const uids = [...raw.matchAll(/"datasource":\{"type":"([^"]+)","uid":"([^"]+)"\}/g)].map((m) => `${m[1]}/${m[2]}`);
  t.ok(uids.length > 0);
  t.same(new Set(uids), new Set(['prometheus/${datasource}']));
});

t.test('customer and model variables list label values of gateway metrics', async (t) => {
  const vars = labelVariables();
  t.same(vars.map((v) => v.name).sort(), ['customer', 'model']);
  for (const v of vars) t.ok(Object.values(METRIC_NAMES).includes(v.metric as never), `${v.name} reads ${v.metric}`);
});

t.test('every expression reads only metrics the gateway exports', async (t) => {
  const names = await exportedNames();
  const targets = dashboardTargets();
  t.ok(targets.length >= 30, `${targets.length} queries`);
  for (const target of targets) {
    const used = metricNamesIn(target.expr);
    t.ok(used.length > 0, `${target.panel}: reads a gateway metric`);
    for (const n of used) t.ok(names.has(n), `${target.panel}: ${n} is exported`);
  }
});

t.test('panels that can filter by customer or model do', async (t) => {
  for (const target of dashboardTargets()) {
    if (/model_gateway_(requests|tokens)_total\{/.test(target.raw)) {
      t.match(target.raw, /customer=~"\$customer"/, `${target.panel} filters by customer`);
      t.match(target.raw, /model=~"\$model"/, `${target.panel} filters by model`);
    }
  }
});

t.test('template variables are substituted the way the Prometheus test needs', async (t) => {
  const table: [string, string][] = [
    ['rate(x{customer=~"$customer"}[$__rate_interval])', 'rate(x{customer=~".*"}[1m])'],
    ['increase(x{model=~"${model}"}[$__range])', 'increase(x{model=~".*"}[5m])'],
    ['x{model=~"${model:regex}"}', 'x{model=~".*"}'],
  ];
  for (const [input, want] of table) t.equal(substituteVariables(input), want);
});

t.test('panel ids are unique and every panel has a description', async (t) => {
  const ids = dashboard.panels.map((p) => (p as { id: number }).id);
  t.equal(new Set(ids).size, ids.length);
  for (const p of dashboard.panels as { type: string; title: string; description?: string }[]) {
    if (p.type !== 'row') t.ok((p.description ?? '').length > 10, `${p.title} is described`);
  }
});
