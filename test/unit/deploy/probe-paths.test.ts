// The paths the deployment files probe and scrape, asked of a real gateway (in-process, SQLite, metrics
// on a port of their own as the files set it): readiness paths answer 200 and turn 503 while draining,
// liveness paths stay 200 while draining (a failing liveness probe would kill a pod mid-drain), and the
// scrape paths are served on the metrics port.
import t from 'tap';
import { parse } from 'yaml';
import { startHarness } from '../../helpers/harness.js';
import { startMetricsPort } from '../../helpers/metrics-port.js';
import { DOCKERFILE, kubeObject, parseDockerfile, parseHaproxyConfig, repoText, type WorkloadSpec } from './deploy-files.js';

const container = (kubeObject('Deployment').spec as WorkloadSpec).template.spec.containers[0];
const annotations = (kubeObject('Deployment').spec as WorkloadSpec).template.metadata.annotations ?? {};
const haproxyCheck = [...parseHaproxyConfig(repoText('deploy/haproxy/haproxy.cfg')).values()].flat().find((l) => l.startsWith('option httpchk '));
const healthcheck = parseDockerfile(repoText(DOCKERFILE)).at(-1)?.instructions.find((i) => i.keyword === 'HEALTHCHECK')?.args ?? '';
const prometheus = parse(repoText('deploy/prometheus/prometheus.yml')) as { scrape_configs: { metrics_path?: string }[] };

const readiness: [string, string | undefined][] = [
  ['Kubernetes readinessProbe', container.readinessProbe?.httpGet.path],
  ['HAProxy httpchk', haproxyCheck?.split(' ').at(-1)],
];
const liveness: [string, string | undefined][] = [
  ['Kubernetes livenessProbe', container.livenessProbe?.httpGet.path],
  ['Kubernetes startupProbe', container.startupProbe?.httpGet.path],
  ['Dockerfile HEALTHCHECK', /(\/[a-z]+)'\)/.exec(healthcheck)?.[1]],
];
const scrapes: [string, string | undefined][] = [
  ...prometheus.scrape_configs.map((c, i): [string, string | undefined] => [`compose Prometheus job ${i + 1}`, c.metrics_path ?? '/metrics']),
  ['Kubernetes prometheus.io/path', annotations['prometheus.io/path']],
];

t.test('the probed and scraped paths, on a real gateway', async (t) => {
  const h = await startHarness({ env: { GATEWAY_METRICS_PORT: '0' } });
  t.teardown(() => h.close());
  const metricsUrl = await startMetricsPort(t, h.runtime);
  const status = async (url: string) => {
    const res = await fetch(url);
    await res.arrayBuffer();
    return res.status;
  };

  for (const [who, path] of [...readiness, ...liveness, ...scrapes]) t.ok(path?.startsWith('/'), `${who} names a path (${path})`);
  for (const [who, path] of readiness) t.equal(await status(h.url + path), 200, `${who} ${path}: 200 when ready`);
  for (const [who, path] of liveness) t.equal(await status(h.url + path), 200, `${who} ${path}: 200`);
  for (const [who, path] of scrapes) {
    t.equal(await status(metricsUrl + path), 200, `${who} ${path}: served on the metrics port`);
    t.equal(await status(h.url + path), 404, `${who} ${path}: not on the API port`);
  }

  // What the drain does to each: readiness fails at once, liveness does not.
  h.runtime.lifecycle.draining = true;
  for (const [who, path] of readiness) t.equal(await status(h.url + path), 503, `${who} ${path}: 503 while draining`);
  for (const [who, path] of liveness) t.equal(await status(h.url + path), 200, `${who} ${path}: still 200 while draining`);
  h.runtime.lifecycle.draining = false;
});
