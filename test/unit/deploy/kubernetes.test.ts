// deploy/kubernetes/ against the code: probes on the gateway's readiness and liveness paths and ports,
// a termination grace that covers preStop + the drain + in-flight requests + the last flush, readiness
// checks that take a draining pod out before its drain delay ends, the migration Job running `migrate`
// on the Deployment's image, and the pieces (Service, HPA, PDB, ConfigMap, Secret) naming each other.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { parse } from 'yaml';
import { loadConfig, MIN_OPERATOR_SECRET_LENGTH } from '../../../src/config/config.js';
import { drainDelayFor } from '../../../src/apps/fleet/haproxy-config.js';
import {
  kubeObject,
  kubeSettings,
  KUBERNETES_DIR,
  kustomization,
  repoText,
  ROOT,
  SECRET_EXAMPLE,
  stopAllowanceMs,
  type Container,
  type KubeObject,
  type WorkloadSpec,
} from './deploy-files.js';

const kustomize = kustomization();
const secret = parse(repoText(SECRET_EXAMPLE)) as KubeObject & { metadata: { namespace?: string } };
const config = loadConfig({ ...kubeSettings(), ...secret.stringData });
const deployment = kubeObject('Deployment');
const spec = deployment.spec as WorkloadSpec & { replicas?: number };
const pod = spec.template;
const gateway: Container = pod.spec.containers[0];

function portNumber(container: Container, port: string | number): number | undefined {
  return typeof port === 'number' ? port : container.ports?.find((p) => p.name === port)?.containerPort;
}

function matches(selector: Readonly<Record<string, string>>, labels: Readonly<Record<string, string>>): boolean {
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

t.test('kustomization: every manifest listed, the Secret left out', async (t) => {
  const yamlFiles = readdirSync(join(ROOT, KUBERNETES_DIR)).filter((f) => f.endsWith('.yaml'));
  for (const file of kustomize.resources) t.ok(existsSync(join(ROOT, KUBERNETES_DIR, file)), file);
  const unlisted = yamlFiles.filter((f) => f !== 'kustomization.yaml' && !kustomize.resources.includes(f));
  t.same(unlisted, ['secret.example.yaml'], 'only the Secret example is not applied (it would overwrite the real one)');
  t.equal(secret.kind, 'Secret');
  t.equal(secret.metadata.namespace, kustomize.namespace, 'in the namespace the kustomization deploys to');
  for (const kind of ['Deployment', 'Service', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'Job']) t.ok(kubeObject(kind), kind);
});

t.test('settings from the ConfigMap, credentials from the Secret', async (t) => {
  const refs = gateway.envFrom ?? [];
  const generated = (kustomize.configMapGenerator ?? []).map((g) => g.name);
  t.same(refs.flatMap((r) => (r.configMapRef ? [r.configMapRef.name] : [])), generated, 'the generated ConfigMap');
  t.same(refs.flatMap((r) => (r.secretRef ? [r.secretRef.name] : [])), [secret.metadata.name], 'the Secret');
  const keys = Object.keys(secret.stringData ?? {}).sort();
  t.same(keys, ['ANTHROPIC_API_KEY', 'DATABASE_URL', 'GATEWAY_ADMIN_TOKEN', 'REDIS_URL'], 'the credentials, in the Secret');
  t.same(Object.keys(kubeSettings()).filter((k) => keys.includes(k)), [], 'none of them in the ConfigMap');
  t.match(config.databaseUrl, /^postgres:\/\//, 'a shared PostgreSQL');
  t.ok((config.adminToken ?? '').length >= MIN_OPERATOR_SECRET_LENGTH, 'the example token is as long as serve requires');
});

t.test('X-Forwarded-For believed from the pod network the ingress controller runs in', async (t) => {
  const trusted = config.rateLimits.trustedProxies;
  t.notOk(trusted.isEmpty, 'GATEWAY_TRUSTED_PROXIES is set');
  for (const pod of ['10.244.3.17', '10.42.0.9', '::ffff:10.244.3.17']) t.ok(trusted.has(pod), `an ingress pod at ${pod}`);
  t.notOk(trusted.has('203.0.113.9'), 'a public client address is not a proxy');
  t.match(repoText(`${KUBERNETES_DIR}/settings.env`), /Adjust it to your cluster's pod CIDR/, 'the file tells operators to adjust it');
});

t.test('ports and probes: the gateway\'s paths on its ports', async (t) => {
  t.equal(gateway.readinessProbe?.httpGet.path, '/readyz');
  t.equal(gateway.livenessProbe?.httpGet.path, '/healthz');
  t.equal(gateway.startupProbe?.httpGet.path, '/healthz');
  for (const probe of [gateway.readinessProbe, gateway.livenessProbe, gateway.startupProbe]) {
    t.equal(portNumber(gateway, probe?.httpGet.port ?? ''), config.port, 'on PORT');
  }
  t.not(config.metrics.port, null, '/metrics on a port of its own');
  t.equal(portNumber(gateway, 'metrics'), config.metrics.port, 'the metrics container port is GATEWAY_METRICS_PORT');
  const annotations = pod.metadata.annotations ?? {};
  t.equal(Number(annotations['prometheus.io/port']), config.metrics.port, 'scraped on that port');
  t.equal(annotations['prometheus.io/path'], '/metrics');
});

t.test('termination grace ≥ preStop + drain delay + in-flight grace + last flush', async (t) => {
  const preStop = gateway.lifecycle?.preStop;
  const command = preStop?.exec?.command ?? [];
  const preStopSeconds = preStop?.sleep?.seconds ?? (command[0] === 'sleep' ? Number(command[1]) : NaN);
  t.ok(preStopSeconds > 0, `preStop sleeps (${preStopSeconds} s) while the endpoints drop the pod`);
  const grace = pod.spec.terminationGracePeriodSeconds ?? 30;
  const needed = preStopSeconds * 1000 + stopAllowanceMs(config);
  t.ok(grace * 1000 >= needed, `terminationGracePeriodSeconds ${grace} s ≥ ${needed / 1000} s`);
});

t.test('readiness takes a draining pod out before its drain delay ends', async (t) => {
  const probe = gateway.readinessProbe;
  const check = { interMs: (probe?.periodSeconds ?? 10) * 1000, fall: probe?.failureThreshold ?? 3, rise: probe?.successThreshold ?? 1 };
  t.ok(drainDelayFor(check) <= config.timeouts.drainDelayMs, `period ${check.interMs} ms × ${check.fall} failures + 1 s ≤ GATEWAY_DRAIN_DELAY_MS ${config.timeouts.drainDelayMs}`);
  t.equal(spec.strategy?.rollingUpdate?.maxUnavailable, 0, 'a rollout removes no pod before its replacement is ready');
});

t.test('the migration Job runs `model-gateway migrate` on the same image, with the same database', async (t) => {
  const job = kubeObject('Job', 'migrate');
  const jobSpec = job.spec as WorkloadSpec;
  const container = jobSpec.template.spec.containers[0];
  t.same(container.args, ['model-gateway', 'migrate']);
  t.equal(container.command, undefined, "the image's entrypoint (tini) stays");
  t.equal(container.image, gateway.image, 'the image the Deployment runs');
  t.ok(kustomize.images?.some((i) => i.name === gateway.image), 'set once, by the kustomization');
  const db = container.env?.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef;
  t.same(db, { name: secret.metadata.name, key: 'DATABASE_URL' });
  t.equal((jobSpec.template.spec as { restartPolicy?: string }).restartPolicy, 'Never');
  t.equal(job.metadata.labels?.['app.kubernetes.io/component'], 'migrate', 'selectable alone: apply -l app.kubernetes.io/component=migrate');
  t.notOk(matches(spec.selector?.matchLabels ?? {}, jobSpec.template.metadata.labels), "its pod is not one of the Deployment's");
});

t.test('Service, HPA and PDB select the gateway pods', async (t) => {
  const labels = pod.metadata.labels;
  t.ok(matches(spec.selector?.matchLabels ?? {}, labels), 'the Deployment its own pods');
  const service = kubeObject('Service').spec as { selector: Record<string, string>; ports: { name: string; targetPort: string | number }[] };
  t.ok(matches(service.selector, labels), 'the Service');
  t.equal(portNumber(gateway, service.ports.find((p) => p.name === 'http')?.targetPort ?? ''), config.port, 'the Service sends to PORT');
  const pdb = kubeObject('PodDisruptionBudget').spec as { selector: { matchLabels: Record<string, string> }; maxUnavailable?: number };
  t.ok(matches(pdb.selector.matchLabels, labels), 'the PDB');
  t.equal(pdb.maxUnavailable, 1, 'one pod at a time');
  const hpa = kubeObject('HorizontalPodAutoscaler').spec as { scaleTargetRef: { kind: string; name: string }; minReplicas: number; maxReplicas: number };
  t.same(hpa.scaleTargetRef, { apiVersion: 'apps/v1', kind: 'Deployment', name: deployment.metadata.name }, 'the HPA scales the Deployment');
  t.ok(hpa.minReplicas >= 2, 'never a single instance');
  t.equal(spec.replicas, undefined, 'the Deployment leaves the count to the HPA');

  // Each instance holds the pool plus the key listener; a rollout adds maxSurge instances; the migration
  // Job and the command line take a few more. A default server allows 100 less 3 reserved.
  const surge = Number(spec.strategy?.rollingUpdate?.maxSurge ?? 1);
  const connections = (hpa.maxReplicas + surge) * (config.database.poolMax + 1) + 5;
  t.ok(connections <= 97, `at most ${connections} PostgreSQL connections at maxReplicas`);
});

t.test('kubectl renders the kustomization', async (t) => {
  const rendered = spawnSync('kubectl', ['kustomize', join(ROOT, KUBERNETES_DIR)], { encoding: 'utf8' });
  if (rendered.error !== undefined) {
    t.comment('kubectl is not installed: the files were checked one by one only');
    return;
  }
  t.equal(rendered.status, 0, rendered.stderr);
  const image = kustomize.images?.[0];
  t.match(rendered.stdout, `image: ${image?.newName}:${image?.newTag}`, 'the image set once reaches both workloads');
  t.equal(rendered.stdout.split(`image: ${image?.newName}:${image?.newTag}`).length - 1, 2);
});
