// Where /metrics is served and who may read it: open on the main port by default; with
// GATEWAY_METRICS_PORT only on a listener of its own (the main port answers 404); with
// GATEWAY_METRICS_TOKEN only to `Authorization: Bearer <token>`.
import { request } from 'node:http';
import t from 'tap';
import type { Test } from 'tap';
import { listenMetrics } from '../../../src/gateway/metrics-listener.js';
import { startHarness } from '../../helpers/harness.js';
import type { Harness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';
import { startMetricsPort } from '../../helpers/metrics-port.js';

const TOKEN = 'metrics_test_token_0123456789abcdef_XYZ';

async function harness(t: Test, env: Record<string, string>): Promise<Harness> {
  const h = await startHarness({ env });
  t.teardown(() => h.close());
  return h;
}

function isPrometheusText(t: Test, res: { status: number; headers: Record<string, unknown>; text: string }): void {
  t.equal(res.status, 200, 'a scrape is answered');
  t.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  t.match(res.text, /^# HELP model_gateway_requests_total /m);
}

t.test('by default /metrics is open on the main port, as before', async (t) => {
  const h = await harness(t, {});
  t.equal(await listenMetrics(h.runtime), null, 'no listener of its own');
  isPrometheusText(t, await call(`${h.url}/metrics`));
});

t.test('GATEWAY_METRICS_PORT: only the metrics port serves /metrics, and it serves nothing else', async (t) => {
  const h = await harness(t, { GATEWAY_METRICS_PORT: '0' });
  const metrics = await startMetricsPort(t, h.runtime);
  const { key } = await h.createKey();

  const onMain = await call(`${h.url}/metrics`);
  t.equal(onMain.status, 404, 'the main port has no /metrics');
  t.equal(onMain.json().error.code, 'not_found');
  t.equal((await call(`${h.url}/gateway/openai/v1/models`, { headers: bearer(key) })).status, 200, 'the main port serves the API');

  const scrape = await call(`${metrics}/metrics`);
  isPrometheusText(t, scrape);
  t.ok(scrape.headers['request-id'], 'a request id, as on every response');
  t.match(scrape.text, /model_gateway_requests_total\{[^}]*surface="models"[^}]*\} 1/, 'the main port’s traffic is counted');

  const api = await call(`${metrics}/gateway/openai/v1/models`, { headers: bearer(key) });
  t.equal(api.status, 404, 'no model surface on the metrics port');
  t.equal((await call(`${metrics}/healthz`)).status, 404);
  t.equal((await call(`${metrics}/metrics`, { method: 'POST', body: '{}' })).status, 405);
});

t.test('GATEWAY_METRICS_TOKEN: 401 with a Bearer challenge unless the token is presented', async (t) => {
  const h = await harness(t, { GATEWAY_METRICS_TOKEN: TOKEN });
  const wrong = `${TOKEN.slice(0, -1)}Q`;
  const refusals = [
    await call(`${h.url}/metrics`),
    await call(`${h.url}/metrics`, { headers: { authorization: `Bearer ${wrong}` } }),
    await call(`${h.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN.slice(0, 32)}` } }),
    await call(`${h.url}/metrics`, { headers: { authorization: `Basic ${Buffer.from(`prometheus:${TOKEN}`).toString('base64')}` } }),
    await call(`${h.url}/metrics`, { headers: { 'x-api-key': TOKEN } }),
  ];
  for (const res of refusals) {
    t.equal(res.status, 401);
    t.equal(res.headers['www-authenticate'], 'Bearer realm="metrics"');
    t.equal(res.json().error.code, 'unauthenticated');
    t.notMatch(res.text, /model_gateway_/, 'no metrics in a refusal');
    t.notMatch(res.text, wrong, 'the presented value is not echoed');
  }
  isPrometheusText(t, await call(`${h.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } }));
  isPrometheusText(t, await call(`${h.url}/metrics`, { headers: { authorization: `bearer   ${TOKEN}` } }));
  t.equal((await call(`${h.url}/healthz`)).status, 200, 'health checks need no token');
  t.notMatch(h.logText(), TOKEN.slice(8), 'the token is never logged');
});

t.test('both: the token guards the metrics port, the main port still has no /metrics', async (t) => {
  const h = await harness(t, { GATEWAY_METRICS_PORT: '0', GATEWAY_METRICS_TOKEN: TOKEN });
  const metrics = await startMetricsPort(t, h.runtime);
  t.equal((await call(`${h.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status, 404);
  t.equal((await call(`${metrics}/metrics`)).status, 401);
  isPrometheusText(t, await call(`${metrics}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } }));
});

t.test('the metrics port keeps the main port’s header limit', async (t) => {
  const h = await harness(t, { GATEWAY_METRICS_PORT: '0', GATEWAY_MAX_HEADER_BYTES: '2048' });
  const port = Number(new URL(await startMetricsPort(t, h.runtime)).port);
  const status = await new Promise<number>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/metrics', headers: { 'x-pad': 'a'.repeat(4096) } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
  t.equal(status, 431);
});
