// deploy/compose.yaml and the files it mounts, against the code: three gateways after a one-shot
// migration, HAProxy taking a draining instance out before its drain delay ends, stop grace periods
// that cover the drain, Prometheus scraping every instance's metrics port, Grafana loading the
// repository's own dashboard and provisioning files.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import t from 'tap';
import { loadConfig, type GatewayConfig } from '../../../src/config/config.js';
import { requireHaproxy } from '../../../src/apps/fleet/haproxy.js';
import { drainDelayFor } from '../../../src/apps/fleet/haproxy-config.js';
import {
  composeEnv,
  composeFile,
  directiveValue,
  DOCKERFILE,
  durationMs,
  gatewayServices,
  haproxyTimeMs,
  imageServices,
  parseDockerfile,
  parseHaproxyConfig,
  repoText,
  repoYaml,
  ROOT,
  stopAllowanceMs,
  type ComposeService,
} from './deploy-files.js';

const compose = composeFile();
const gateways = gatewayServices(compose);
const configs: [string, GatewayConfig][] = gateways.map(([name, s]) => [name, loadConfig(composeEnv(s))]);
const DEPLOY_DIR = join(ROOT, 'deploy');

function service(name: string): ComposeService {
  const s = compose.services[name];
  if (s === undefined) throw new Error(`no service ${name}`);
  return s;
}

/** A service's bind mounts: host path (resolved from deploy/) → path in the container. */
function binds(s: ComposeService): Map<string, string> {
  const out = new Map<string, string>();
  for (const v of s.volumes ?? []) {
    const [source, target] = v.split(':');
    if (source.startsWith('.') || source.startsWith('/')) out.set(resolve(DEPLOY_DIR, source), target);
  }
  return out;
}

function mountOf(s: ComposeService, repoPath: string): string | undefined {
  return binds(s).get(join(ROOT, repoPath));
}

function dependsOn(s: ComposeService, name: string): string | undefined {
  const deps = s.depends_on;
  if (deps === undefined || Array.isArray(deps)) return undefined;
  return (deps as Record<string, { condition?: string }>)[name]?.condition;
}

/** The service whose image starts with `image` (postgres, redis, haproxy, ...). */
function serviceByImage(prefix: RegExp): [string, ComposeService] {
  const found = Object.entries(compose.services).filter(([, s]) => prefix.test(s.image ?? ''));
  if (found.length !== 1) throw new Error(`expected one service with image ${prefix}, found ${found.length}`);
  return found[0];
}

t.test('three gateways, PostgreSQL, Redis, a load balancer, Prometheus, Grafana', async (t) => {
  t.equal(gateways.length, 3, 'three gateway instances');
  for (const image of [/^postgres:/, /^redis:/, /^haproxy:/, /^prom\/prometheus:/, /^grafana\/grafana:/]) t.ok(serviceByImage(image), String(image));
  const [pg] = serviceByImage(/^postgres:/);
  const [redis] = serviceByImage(/^redis:/);
  for (const [name, config] of configs) {
    t.equal(new URL(config.databaseUrl).hostname, pg, `${name} uses the postgres service`);
    t.equal(new URL(config.redisUrl ?? 'redis://none').hostname, redis, `${name} uses the redis service`);
    t.ok(composeEnv(service(name)).GATEWAY_ADMIN_TOKEN, `${name}: the admin token a shared database requires`);
  }
  t.equal(new Set(configs.map(([, c]) => c.databaseUrl)).size, 1, 'one database for all');
});

t.test('a one-shot migration runs `migrate` before any gateway starts', async (t) => {
  const migrations = imageServices(compose).filter(([, s]) => s.command !== undefined && s.command.at(-1) === 'migrate');
  t.equal(migrations.length, 1, 'one service runs migrate');
  const [name, migrate] = migrations[0];
  t.same(migrate.command, ['model-gateway', 'migrate'], 'the command line of the README');
  t.equal(migrate.restart, 'no', 'never restarted once done');
  t.equal(composeEnv(migrate).DATABASE_URL, configs[0][1].databaseUrl, 'on the gateways\' database');
  t.equal(dependsOn(migrate, serviceByImage(/^postgres:/)[0]), 'service_healthy', 'once PostgreSQL answers');
  for (const [gw, s] of gateways) t.equal(dependsOn(s, name), 'service_completed_successfully', gw);
});

t.test('stop_grace_period covers the drain delay, the in-flight grace and the last flush', async (t) => {
  for (const [name, config] of configs) {
    const grace = service(name).stop_grace_period;
    t.ok(grace, `${name} sets stop_grace_period (docker's default, 10 s, would cut the drain short)`);
    t.ok(durationMs(grace ?? '0s') >= stopAllowanceMs(config), `${name}: ${grace} ≥ ${stopAllowanceMs(config)} ms`);
  }
});

t.test('HAProxy: /readyz checks over every gateway, out of rotation before the drain delay ends', async (t) => {
  const [, lb] = serviceByImage(/^haproxy:/);
  const target = mountOf(lb, 'deploy/haproxy/haproxy.cfg');
  t.equal(target, '/usr/local/etc/haproxy/haproxy.cfg', 'the config file is mounted where the image reads it');
  const sections = parseHaproxyConfig(repoText('deploy/haproxy/haproxy.cfg'));
  const backends = [...sections.keys()].filter((k) => k.startsWith('backend '));
  t.equal(backends.length, 1, 'one backend');
  const backend = sections.get(backends[0]) ?? [];
  t.ok(backend.includes('option httpchk GET /readyz'), 'active checks of /readyz');
  t.ok(backend.includes('http-check expect status 200'));
  const servers = backend.filter((l) => l.startsWith('server ')).map((l) => l.split(' '));
  t.same(
    servers.map((w) => w[2]).sort(),
    configs.map(([name, c]) => `${name}:${c.port}`).sort(),
    'one server line per gateway service, at its PORT',
  );
  t.ok(servers.every((w) => w.includes('check')), 'every server checked');

  const defaults = (backend.find((l) => l.startsWith('default-server ')) ?? '').split(' ');
  const check = {
    interMs: haproxyTimeMs(directiveValue(defaults, 'inter') ?? '2s'),
    fall: Number(directiveValue(defaults, 'fall') ?? 3),
    rise: Number(directiveValue(defaults, 'rise') ?? 2),
  };
  for (const [name, config] of configs) {
    t.ok(drainDelayFor(check) <= config.timeouts.drainDelayMs, `${name}: inter ${check.interMs} ms × fall ${check.fall} + 1 s ≤ GATEWAY_DRAIN_DELAY_MS ${config.timeouts.drainDelayMs}`);
  }
  const timeoutCheck = (sections.get('defaults') ?? []).find((l) => l.startsWith('timeout check '))?.split(' ')[2];
  t.ok(timeoutCheck !== undefined && haproxyTimeMs(timeoutCheck) <= check.interMs, 'a check times out before the next one is due');

  const retryOn = (sections.get('defaults') ?? []).find((l) => l.startsWith('retry-on '));
  t.equal(retryOn, 'retry-on conn-failure', 'only requests that never reached an instance are replayed');
  const frontend = [...sections.entries()].find(([k, lines]) => k.startsWith('frontend ') && lines.some((l) => l.startsWith('default_backend')))?.[1] ?? [];
  const bindPort = (frontend.find((l) => l.startsWith('bind ')) ?? '').split(':').at(-1);
  t.ok((lb.ports ?? []).some((p) => p.endsWith(`:${bindPort}`)), `the frontend port ${bindPort} is published`);
  t.ok(frontend.includes('option forwardfor'), 'the client address goes on in X-Forwarded-For');
  const lbNetworks = lb.networks as Record<string, { ipv4_address?: string } | null>;
  const lbAddress = Object.values(lbNetworks).find((n) => n?.ipv4_address !== undefined)?.ipv4_address;
  for (const [name, config] of configs) t.same(config.rateLimits.trustedProxies.entries, [lbAddress], `${name} believes HAProxy's X-Forwarded-For alone`);
});

t.test('HAProxy accepts the configuration', async (t) => {
  requireHaproxy();
  const checked = spawnSync('haproxy', ['-c', '-f', join(ROOT, 'deploy/haproxy/haproxy.cfg')], { encoding: 'utf8' });
  t.equal(checked.status, 0, checked.stderr + checked.stdout);
  // The instances' names resolve only on the compose network; nothing else may warn.
  const warnings = (checked.stderr + checked.stdout).split('\n').filter((l) => l.includes('[WARNING]') && !/could not resolve address 'gw\d'/.test(l));
  t.same(warnings, []);
});

interface PrometheusConfig {
  global?: { scrape_interval?: string };
  scrape_configs: { job_name: string; metrics_path?: string; static_configs: { targets: string[] }[] }[];
}

t.test('Prometheus scrapes every gateway on its metrics port and path', async (t) => {
  const [, prometheus] = serviceByImage(/^prom\/prometheus:/);
  t.equal(mountOf(prometheus, 'deploy/prometheus/prometheus.yml'), '/etc/prometheus/prometheus.yml');
  const config = repoYaml<PrometheusConfig>('deploy/prometheus/prometheus.yml');
  const targets = config.scrape_configs.flatMap((job) => job.static_configs.flatMap((s) => s.targets.map((target) => ({ target, path: job.metrics_path ?? '/metrics' }))));
  for (const [name, c] of configs) {
    t.not(c.metrics.port, null, `${name} serves /metrics on a port of its own`);
    const scraped = targets.filter((x) => x.target === `${name}:${c.metrics.port}`);
    t.equal(scraped.length, 1, `${name}:${c.metrics.port} is scraped once`);
    t.equal(scraped[0]?.path, '/metrics', 'at the path the gateway serves');
  }
  t.equal(targets.length, configs.length, 'nothing else is scraped as a gateway');

  const promtool = spawnSync('promtool', ['check', 'config', join(ROOT, 'deploy/prometheus/prometheus.yml')], { encoding: 'utf8' });
  if (promtool.error !== undefined) t.comment('promtool is not installed: the file was checked as YAML only');
  else t.equal(promtool.status, 0, promtool.stderr + promtool.stdout);
});

interface DatasourceFile {
  datasources: { url: string; jsonData?: { timeInterval?: string } }[];
}
interface DashboardProviders {
  providers: { options: { path: string } }[];
}

t.test('Grafana: the repository\'s dashboards and provisioning, its data source pointed at the prometheus service', async (t) => {
  const [, grafana] = serviceByImage(/^grafana\/grafana:/);
  t.equal(mountOf(grafana, 'grafana/provisioning/dashboards'), '/etc/grafana/provisioning/dashboards', "the repository's dashboard provider");
  const provider = repoYaml<DashboardProviders>('grafana/provisioning/dashboards/model-gateway.yml');
  t.equal(mountOf(grafana, 'grafana/dashboards'), provider.providers[0].options.path, 'the dashboards folder where the provider looks');
  t.ok(existsSync(join(ROOT, 'grafana/dashboards/model-gateway.json')));

  t.equal(mountOf(grafana, 'deploy/grafana/datasources'), '/etc/grafana/provisioning/datasources');
  const ours = repoYaml<DatasourceFile>('deploy/grafana/datasources/prometheus.yml');
  const repos = repoYaml<DatasourceFile>('grafana/provisioning/datasources/prometheus.yml');
  t.same(ours.datasources.map((d) => ({ ...d, url: '' })), repos.datasources.map((d) => ({ ...d, url: '' })), "the repository's data source but for its url");
  const [promName, prometheus] = serviceByImage(/^prom\/prometheus:/);
  const url = new URL(ours.datasources[0].url);
  t.equal(url.hostname, promName, 'the prometheus service');
  t.ok((prometheus.ports ?? []).some((p) => p.endsWith(`:${url.port}`)), `on the port Prometheus listens on (${url.port})`);
  const scrape = repoYaml<PrometheusConfig>('deploy/prometheus/prometheus.yml').global?.scrape_interval;
  t.equal(ours.datasources[0].jsonData?.timeInterval, scrape, 'timeInterval = the scrape interval ($__rate_interval)');
});

t.test('each gateway keeps its data folder (the usage spill file) on a volume of its own', async (t) => {
  const workdir = parseDockerfile(repoText(DOCKERFILE)).at(-1)?.instructions.filter((i) => i.keyword === 'WORKDIR').at(-1)?.args ?? '/';
  const volumes = configs.map(([name, config]) => {
    const dataDir = resolve(workdir, config.dataDir);
    const volume = (service(name).volumes ?? []).map((v) => v.split(':')).find(([, target]) => target === dataDir)?.[0];
    t.ok(volume !== undefined && /^[\w-]+$/.test(volume), `${name}: a named volume at ${dataDir}`);
    return volume;
  });
  t.equal(new Set(volumes).size, configs.length, 'not shared: each spill file belongs to one instance');
});

t.test('every file a service mounts exists', async (t) => {
  for (const [name, s] of Object.entries(compose.services)) {
    for (const source of binds(s).keys()) t.ok(existsSync(source), `${name}: ${source}`);
  }
});
