// Every environment variable the deployment files set is one the gateway reads (SETTING_NAMES, the
// list its configuration loader reads through, and PROVIDER_SETTING_NAMES, the cloud credentials of
// the models file's providers), and the values they set are accepted by that loader: a misspelt or
// retired setting in deploy/ would otherwise be ignored without a word.
import t from 'tap';
import { parse } from 'yaml';
import { loadConfig } from '../../../src/config/config.js';
import { ALL_SETTING_NAMES } from '../../../src/config/setting-names.js';
import {
  composeEnv,
  composeFile,
  DOCKERFILE,
  gatewayServices,
  imageServices,
  kubeObject,
  kubeSettings,
  parseDockerfile,
  repoText,
  SECRET_EXAMPLE,
  type KubeObject,
  type WorkloadSpec,
} from './deploy-files.js';

const KNOWN = new Set<string>(ALL_SETTING_NAMES);

function unknownOf(names: Iterable<string>): string[] {
  return [...names].filter((n) => !KNOWN.has(n));
}

/** Names a pod template sets: `env` entries and the keys of what `envFrom` names (settings and Secret). */
function podEnvNames(object: KubeObject): string[] {
  const names: string[] = [];
  for (const c of (object.spec as WorkloadSpec).template.spec.containers) {
    names.push(...(c.env ?? []).map((e) => e.name));
    for (const from of c.envFrom ?? []) {
      if (from.configMapRef !== undefined) names.push(...Object.keys(kubeSettings()));
      if (from.secretRef !== undefined) names.push(...Object.keys(secretExample().stringData ?? {}));
    }
  }
  return names;
}

function secretExample(): KubeObject {
  return parse(repoText(SECRET_EXAMPLE)) as KubeObject;
}

t.test('compose: every variable of every service on the gateway image is a setting', async (t) => {
  const services = imageServices(composeFile());
  t.ok(services.length >= 4, 'three gateways and the migration');
  for (const [name, service] of services) t.same(unknownOf(Object.keys(composeEnv(service))), [], name);
});

t.test('compose: each gateway starts with the settings it is given', async (t) => {
  for (const [name, service] of gatewayServices(composeFile())) {
    const config = loadConfig(composeEnv(service));
    t.equal(config.production, true, `${name}: NODE_ENV=production, so it never falls back to the simulator`);
    t.match(config.databaseUrl, /^postgres:\/\//, `${name}: the shared PostgreSQL`);
    t.not(config.redisUrl, null, `${name}: the shared Redis`);
  }
});

t.test('Dockerfile: the ENV of the image it runs are settings', async (t) => {
  const runtime = parseDockerfile(repoText(DOCKERFILE)).at(-1);
  const names = (runtime?.instructions ?? []).filter((i) => i.keyword === 'ENV').map((i) => i.args.split(/[=\s]/)[0]);
  t.ok(names.length > 0, 'the image sets NODE_ENV');
  t.same(unknownOf(names), []);
});

t.test('Kubernetes: the ConfigMap, the Secret and the pods set only settings, and a pod starts with them', async (t) => {
  const settings = kubeSettings();
  t.same(unknownOf(Object.keys(settings)), [], 'settings.env');
  const secret = secretExample().stringData ?? {};
  t.same(unknownOf(Object.keys(secret)), [], 'secret.example.yaml');
  t.same(unknownOf(podEnvNames(kubeObject('Deployment'))), [], 'the Deployment');
  t.same(unknownOf(podEnvNames(kubeObject('Job', 'migrate'))), [], 'the migration Job');
  const config = loadConfig({ ...settings, ...secret });
  t.equal(config.production, true);
  t.match(config.databaseUrl, /^postgres:\/\//);
});

t.test('a variable the gateway does not read is caught', async (t) => {
  t.same(unknownOf(['GATEWAY_DRAIN_DELAY_MS', 'GATEWAY_DRAIN_DELAY']), ['GATEWAY_DRAIN_DELAY']);
});
