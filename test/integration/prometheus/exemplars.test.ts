// From a slow bucket to its trace, with the real thing: a gateway with tracing on, scraped by a real
// Prometheus with exemplar storage on. Prometheus asks for OpenMetrics, takes the exposition (the
// target is up, so its parser accepted every line) and stores the trace id of the request on the
// duration and time-to-first-token buckets, where a Grafana panel reads it.
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';
import { startOtlpReceiver } from '../../helpers/otlp-receiver.js';
import { waitFor } from '../../helpers/wait.js';
import { findPrometheus, startPrometheus } from './prometheus-server.js';

interface ExemplarSeries {
  seriesLabels: Record<string, string>;
  exemplars: Array<{ labels: Record<string, string>; value: string; timestamp: number }>;
}

t.test('Prometheus stores the trace id of a request as the exemplar of its buckets', async (t) => {
  const binary = findPrometheus();
  if (binary === null) {
    const reason = 'PROMETHEUS NOT INSTALLED: exemplars were NOT checked against Prometheus; install it with `bash scripts/ci-install-system-deps.sh`';
    process.stderr.write(`\n${reason}\n\n`);
    t.pass(`skipped: ${reason}`, { skip: reason });
    return;
  }
  const receiver = await startOtlpReceiver();
  t.teardown(() => receiver.close());
  const h = await startHarness({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '10' } });
  t.teardown(() => h.close());
  const { key } = await h.createKey({ customer: 'acme' });
  const traceId = randomBytes(16).toString('hex');
  const res = await call(`${h.url}/gateway/v1/messages`, {
    body: JSON.stringify({ model: 'claude-haiku-4-5-20251001', max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    headers: bearer(key, { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` }),
  });
  t.equal(res.status, 200);

  const prometheus = await startPrometheus(binary, new URL(`${h.url}/metrics`), { flags: ['--enable-feature=exemplar-storage'] });
  t.teardown(() => prometheus.stop());
  await prometheus.waitForScrapes(2);
  const up = await prometheus.query('up{job="model-gateway"}');
  t.equal((up.data?.result as { value: [number, string] }[])[0]?.value[1], '1', `the OpenMetrics exposition was accepted\n${prometheus.log()}`);

  const exemplarsOf = async (metric: string): Promise<ExemplarSeries[]> => {
    const now = Date.now() / 1000;
    const r = await fetch(`${prometheus.url}/api/v1/query_exemplars?query=${encodeURIComponent(metric)}&start=${now - 600}&end=${now + 60}`);
    return ((await r.json()) as { data: ExemplarSeries[] }).data ?? [];
  };
  for (const metric of ['model_gateway_request_duration_seconds_bucket', 'model_gateway_time_to_first_token_seconds_bucket']) {
    let series: ExemplarSeries[] = [];
    await waitFor(async () => (series = await exemplarsOf(metric)).length > 0, 15_000);
    const traced = series.flatMap((s) => s.exemplars.map((e) => ({ le: s.seriesLabels.le, surface: s.seriesLabels.surface, traceId: e.labels.trace_id })));
    t.same(traced.map((e) => e.traceId), [traceId], `${metric}: one exemplar, the request's trace`);
    t.equal(traced[0]?.surface, 'messages');
  }
});
