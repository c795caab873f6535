// A real Prometheus scraping a gateway whose /metrics has a port of its own and a token: with the
// scrape config's `authorization` block the target is up and its series are stored; without it the
// target is down (401), so an operator's config can be checked against the real thing.
import t from 'tap';
import type { Test } from 'tap';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';
import { startMetricsPort } from '../../helpers/metrics-port.js';
import { findPrometheus, startPrometheus, type PrometheusServer, type ScrapeOptions } from './prometheus-server.js';

const TOKEN = 'prometheus_scrape_token_0123456789abcdef';

async function scrapedUp(t: Test, binary: string, target: URL, options: ScrapeOptions): Promise<{ up: number; prometheus: PrometheusServer }> {
  const prometheus = await startPrometheus(binary, target, options);
  t.teardown(() => prometheus.stop());
  await prometheus.waitForScrapes(1);
  const result = await prometheus.query('up{job="model-gateway"}');
  const sample = (result.data?.result as { value: [number, string] }[] | undefined)?.[0];
  return { up: Number(sample?.value[1]), prometheus };
}

/** Prometheus's own word on why the target's last scrape failed. */
async function lastScrapeError(prometheus: PrometheusServer): Promise<string> {
  const res = await fetch(`${prometheus.url}/api/v1/targets`);
  const body = (await res.json()) as { data: { activeTargets: { lastError: string }[] } };
  return body.data.activeTargets.map((target) => target.lastError).join('; ');
}

t.test('Prometheus scrapes the metrics port with a bearer token, and is refused without it', async (t) => {
  const binary = findPrometheus();
  if (binary === null) {
    const reason = 'PROMETHEUS NOT INSTALLED: the bearer-token scrape was NOT checked; install it with `bash scripts/ci-install-system-deps.sh`';
    process.stderr.write(`\n${reason}\n\n`);
    t.pass(`skipped: ${reason}`, { skip: reason });
    return;
  }
  const h = await startHarness({ env: { GATEWAY_METRICS_PORT: '0', GATEWAY_METRICS_TOKEN: TOKEN } });
  t.teardown(() => h.close());
  const target = new URL(`${await startMetricsPort(t, h.runtime)}/metrics`);
  const { key } = await h.createKey({ customer: 'acme' });
  t.equal((await call(`${h.url}/gateway/openai/v1/models`, { headers: bearer(key) })).status, 200);

  const authorized = await scrapedUp(t, binary, target, { bearerToken: TOKEN });
  t.equal(authorized.up, 1, `the scrape with the token succeeds\n${authorized.prometheus.log()}`);
  const stored = await authorized.prometheus.query('sum(model_gateway_requests_total{job="model-gateway",surface="models"})');
  const total = (stored.data?.result as { value: [number, string] }[] | undefined)?.[0]?.value[1];
  t.equal(Number(total), 1, 'the gateway’s series reached Prometheus');

  const refused = await scrapedUp(t, binary, target, {});
  t.equal(refused.up, 0, 'without the token the target is down');
  t.match(await lastScrapeError(refused.prometheus), /401/, 'refused with 401');
});
