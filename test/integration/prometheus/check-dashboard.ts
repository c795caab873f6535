// The reusable check: a real Prometheus scrapes `targetUrl` while `drive` sends traffic, then
// every PromQL expression of the Grafana dashboard must be valid and return at least one series,
// and every customer/model variable must list at least one value.
//
// Pointing it at the real gateway: pass the gateway's `<url>/metrics` and a `drive` that sends
// requests through both surfaces (see grafana/README.md, "Testing the dashboard").
import type { Test } from 'tap';
import { dashboardTargets, labelVariables } from './dashboard-exprs.js';
import { findPrometheus, startPrometheus, type PrometheusServer } from './prometheus-server.js';

export interface DashboardCheckOptions {
  /** The scrape URL, e.g. `http://127.0.0.1:8080/metrics`. */
  targetUrl: string;
  /** Sends one round of traffic; called `rounds` times with a scrape in between. */
  drive: (round: number) => Promise<void>;
  rounds?: number;
  /**
   * Metric names the traffic cannot produce (e.g. a circuit breaker that never trips): an
   * expression reading only these may return no series. Validity is still checked.
   */
  mayBeEmpty?: readonly string[];
}

const INSTALL_HINT = 'install it with `bash scripts/ci-install-system-deps.sh` (Debian package `prometheus`)';

export async function checkDashboardQueries(t: Test, opts: DashboardCheckOptions): Promise<void> {
  const binary = findPrometheus();
  if (binary === null) {
    const reason = `PROMETHEUS NOT INSTALLED: the dashboard queries were NOT checked; ${INSTALL_HINT}`;
    process.stderr.write(`\n${'!'.repeat(reason.length)}\n${reason}\n${'!'.repeat(reason.length)}\n\n`);
    t.pass(`skipped: ${reason}`, { skip: reason });
    return;
  }
  const prometheus = await startPrometheus(binary, new URL(opts.targetUrl));
  t.teardown(() => prometheus.stop());

  await scrapeWhileDriving(prometheus, opts);
  await assertTargets(t, prometheus, opts.mayBeEmpty ?? []);
  await assertVariables(t, prometheus);
}

async function scrapeWhileDriving(prometheus: PrometheusServer, opts: DashboardCheckOptions): Promise<void> {
  await prometheus.waitForScrapes(1);
  const rounds = opts.rounds ?? 3;
  for (let round = 0; round < rounds; round++) {
    await opts.drive(round);
    await prometheus.waitForScrapes(1);
  }
  // Two more scrapes, so every rate() window holds at least two samples after the last round.
  await prometheus.waitForScrapes(2);
}

async function assertTargets(t: Test, prometheus: PrometheusServer, mayBeEmpty: readonly string[]): Promise<void> {
  const targets = dashboardTargets();
  t.ok(targets.length > 0, 'the dashboard has queries');
  for (const target of targets) {
    const name = `${target.panel} [${target.refId}]`;
    const r = await prometheus.query(target.expr);
    t.equal(r.status, 'success', `${name}: valid PromQL`, { expr: target.expr, error: r.error });
    const series = r.data?.resultType === 'scalar' ? 1 : Array.isArray(r.data?.result) ? r.data.result.length : 0;
    const optional = mayBeEmpty.length > 0 && [...target.expr.matchAll(/\bmodel_gateway_\w+/g)].every((m) => mayBeEmpty.some((n) => m[0].startsWith(n)));
    if (optional && series === 0) t.pass(`${name}: no series (allowed: the traffic cannot produce it)`);
    else t.ok(series >= 1, `${name}: returns at least one series`, { expr: target.expr, series });
  }
}

async function assertVariables(t: Test, prometheus: PrometheusServer): Promise<void> {
  for (const v of labelVariables()) {
    const values = await prometheus.labelValues(v.label, v.metric);
    t.ok(values.length >= 1, `variable $${v.name} lists values (${values.join(', ')})`);
  }
}
