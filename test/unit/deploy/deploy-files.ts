// Reads the deployment files under deploy/ for the checks in this folder: YAML through the `yaml`
// package, small parsers for what it does not cover (Dockerfile, haproxy.cfg, env files, compose's
// `${VAR}` interpolation), and the gateway's own configuration loader for what the files set, so
// every check compares a file with what the code does, never with a copy of a default.
import { parse } from 'yaml';
import type { GatewayConfig } from '../../../src/config/config.js';

import { REPO_ROOT, repoText } from '../../helpers/repo-root.js';

export const ROOT = REPO_ROOT;
export { repoText };

/** A YAML file of the repository; `<<:` merge keys (compose's shared blocks) are resolved. */
export function repoYaml<T>(path: string): T {
  return parse(repoText(path), { merge: true }) as T;
}

type Env = Record<string, string>;

// ---- Settings: what a file sets, as the gateway reads it ----

/**
 * Stand-ins for the secrets the files leave to the operator (compose's deploy/.env, the Kubernetes
 * Secret): long enough for every check the loader makes.
 */
export const SECRET_STAND_INS: Readonly<Env> = {
  POSTGRES_PASSWORD: 'postgres-password-stand-in',
  GATEWAY_ADMIN_TOKEN: 'admin-token-stand-in-0123456789abcdef',
  ANTHROPIC_API_KEY: 'sk-upstream-stand-in',
  GRAFANA_ADMIN_PASSWORD: 'grafana-password-stand-in',
};

/**
 * How long an instance may take from SIGTERM to its exit: the drain delay, the in-flight grace, and the
 * last usage flush plus closing the database, each bounded by the statement deadline.
 */
export function stopAllowanceMs(config: GatewayConfig): number {
  return config.timeouts.drainDelayMs + config.timeouts.shutdownGraceMs + 2 * config.database.timeoutMs;
}

/** KEY=VALUE lines (blank lines and # comments skipped), as kustomize's configMapGenerator `envs` reads them. */
export function parseEnvFile(text: string): Env {
  const env: Env = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) throw new Error(`not KEY=VALUE: ${line}`);
    env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return env;
}

/** Compose's interpolation: $$, ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error}. */
export function interpolate(value: string, vars: Readonly<Env>): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g, (_whole, name: string | undefined, op: string | undefined, arg: string | undefined) => {
    if (name === undefined) return '$';
    const set = vars[name];
    const empty = set === undefined || (op?.startsWith(':') === true && set === '');
    if (!empty) return set;
    if (op === undefined) return '';
    if (op.endsWith('-')) return arg ?? '';
    throw new Error(`${name}: ${arg}`);
  });
}

// ---- Durations ----

/** A Go-style duration as compose writes them ("140s", "2m20s", "1m30.5s", "500ms"). */
export function durationMs(text: string): number {
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001 };
  let total = 0;
  let rest = text.trim();
  while (rest !== '') {
    const m = /^(\d+(?:\.\d+)?)(ms|us|h|m|s)/.exec(rest);
    if (m === null) throw new Error(`not a duration: ${text}`);
    total += Number(m[1]) * units[m[2]];
    rest = rest.slice(m[0].length);
  }
  return total;
}

/** An HAProxy time: a number of milliseconds unless a unit follows (us, ms, s, m, h, d). */
export function haproxyTimeMs(text: string): number {
  const m = /^(\d+)(us|ms|s|m|h|d)?$/.exec(text);
  if (m === null) throw new Error(`not an HAProxy time: ${text}`);
  const units: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  return Number(m[1]) * units[m[2] ?? 'ms'];
}

// ---- Dockerfile ----

export interface DockerInstruction {
  readonly keyword: string;
  readonly args: string;
}

export interface DockerStage {
  readonly image: string;
  readonly name: string | null;
  readonly instructions: readonly DockerInstruction[];
}

/** The Dockerfile's stages, each with its instructions (continuation lines joined, comments dropped). */
export function parseDockerfile(text: string): DockerStage[] {
  const lines = text.replace(/\\\n/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  const stages: { image: string; name: string | null; instructions: DockerInstruction[] }[] = [];
  for (const line of lines) {
    const [keyword, ...rest] = line.split(/\s+/);
    const instruction = { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    if (instruction.keyword === 'FROM') {
      const m = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      if (m === null) throw new Error(`FROM not understood: ${line}`);
      stages.push({ image: m[1], name: m[2] ?? null, instructions: [] });
    } else if (stages.length > 0) {
      stages[stages.length - 1].instructions.push(instruction);
    }
  }
  return stages;
}

/** The exec form of CMD / ENTRYPOINT / RUN: a JSON array of strings. */
export function execForm(args: string): string[] {
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string')) throw new Error(`not the exec form: ${args}`);
  return parsed;
}

// ---- haproxy.cfg ----

/** Each section ("backend gateways", "defaults", ...) with its directive lines, comments dropped. */
export function parseHaproxyConfig(text: string): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*$/, '').trimEnd();
    if (line.trim() === '') continue;
    if (!/^\s/.test(line)) {
      current = [];
      sections.set(line.trim().replace(/\s+/g, ' '), current);
    } else if (current !== null) {
      current.push(line.trim().replace(/\s+/g, ' '));
    }
  }
  return sections;
}

/** The words after `keyword` on a directive line (`default-server inter 1s fall 2` → inter → 1s). */
export function directiveValue(words: readonly string[], keyword: string): string | undefined {
  const at = words.indexOf(keyword);
  return at < 0 ? undefined : words[at + 1];
}

// ---- deploy/compose.yaml ----

export const COMPOSE_FILE = 'deploy/compose.yaml';
export const DOCKERFILE = 'deploy/Dockerfile';

export interface ComposeService {
  readonly image?: string;
  readonly build?: { readonly context: string; readonly dockerfile?: string };
  readonly command?: readonly string[];
  readonly environment?: Readonly<Record<string, string | number | boolean | null>> | readonly string[];
  readonly depends_on?: Readonly<Record<string, { readonly condition?: string }>> | readonly string[];
  readonly stop_grace_period?: string;
  readonly restart?: string;
  readonly networks?: readonly string[] | Readonly<Record<string, { readonly ipv4_address?: string } | null>>;
  readonly volumes?: readonly string[];
  readonly ports?: readonly string[];
}

export interface ComposeFile {
  readonly services: Readonly<Record<string, ComposeService>>;
}

export function composeFile(): ComposeFile {
  return repoYaml<ComposeFile>(COMPOSE_FILE);
}

/** Services running the gateway's image (built from deploy/Dockerfile), by name. */
export function imageServices(compose: ComposeFile): [string, ComposeService][] {
  return Object.entries(compose.services).filter(([, s]) => s.build?.dockerfile === DOCKERFILE);
}

/** The gateway instances: the image with its own command (`serve`). */
export function gatewayServices(compose: ComposeFile): [string, ComposeService][] {
  return imageServices(compose).filter(([, s]) => s.command === undefined);
}

/** A service's environment after compose's interpolation, with the secrets' stand-ins. */
export function composeEnv(service: ComposeService, vars: Readonly<Env> = SECRET_STAND_INS): Env {
  const raw = service.environment ?? {};
  const pairs: [string, string][] = Array.isArray(raw)
    ? (raw as readonly string[]).map((entry) => [entry.split('=')[0], entry.slice(entry.indexOf('=') + 1)])
    : Object.entries(raw as Record<string, unknown>).map(([k, v]) => [k, v === null ? '' : String(v)]);
  return Object.fromEntries(pairs.map(([k, v]) => [k, interpolate(v, vars)]));
}

// ---- deploy/kubernetes/ ----

export const KUBERNETES_DIR = 'deploy/kubernetes';

export interface Kustomization {
  readonly namespace?: string;
  readonly resources: readonly string[];
  readonly configMapGenerator?: readonly { readonly name: string; readonly envs?: readonly string[] }[];
  readonly images?: readonly { readonly name: string; readonly newName?: string; readonly newTag?: string }[];
}

export interface KubeObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly labels?: Readonly<Record<string, string>> };
  readonly spec?: unknown;
  readonly stringData?: Readonly<Record<string, string>>;
}

export interface HttpProbe {
  readonly httpGet: { readonly path: string; readonly port: string | number };
  readonly periodSeconds?: number;
  readonly failureThreshold?: number;
  readonly successThreshold?: number;
}

export interface Container {
  readonly name: string;
  readonly image: string;
  readonly args?: readonly string[];
  readonly command?: readonly string[];
  readonly ports?: readonly { readonly name?: string; readonly containerPort: number }[];
  readonly env?: readonly { readonly name: string; readonly value?: string; readonly valueFrom?: { readonly secretKeyRef?: { readonly name: string; readonly key: string } } }[];
  readonly envFrom?: readonly { readonly configMapRef?: { readonly name: string }; readonly secretRef?: { readonly name: string } }[];
  readonly readinessProbe?: HttpProbe;
  readonly livenessProbe?: HttpProbe;
  readonly startupProbe?: HttpProbe;
  readonly lifecycle?: { readonly preStop?: { readonly exec?: { readonly command: readonly string[] }; readonly sleep?: { readonly seconds: number } } };
}

export interface PodTemplate {
  readonly metadata: { readonly labels: Readonly<Record<string, string>>; readonly annotations?: Readonly<Record<string, string>> };
  readonly spec: { readonly terminationGracePeriodSeconds?: number; readonly containers: readonly Container[] };
}

export interface WorkloadSpec {
  readonly selector?: { readonly matchLabels: Readonly<Record<string, string>> };
  readonly strategy?: { readonly rollingUpdate?: { readonly maxSurge?: number | string; readonly maxUnavailable?: number | string } };
  readonly template: PodTemplate;
}

export function kustomization(): Kustomization {
  return repoYaml<Kustomization>(`${KUBERNETES_DIR}/kustomization.yaml`);
}

/** Every object kustomization.yaml lists, in its order. */
export function kubeObjects(): KubeObject[] {
  return kustomization().resources.map((file) => repoYaml<KubeObject>(`${KUBERNETES_DIR}/${file}`));
}

export function kubeObject(kind: string, component?: string): KubeObject {
  const found = kubeObjects().filter((o) => o.kind === kind && (component === undefined || o.metadata.labels?.['app.kubernetes.io/component'] === component));
  if (found.length !== 1) throw new Error(`expected one ${kind}${component === undefined ? '' : ` (${component})`}, found ${found.length}`);
  return found[0];
}

/** The settings the configMapGenerator makes from its env file(s). */
export function kubeSettings(): Env {
  const generators = kustomization().configMapGenerator ?? [];
  return Object.assign({}, ...generators.flatMap((g) => (g.envs ?? []).map((file) => parseEnvFile(repoText(`${KUBERNETES_DIR}/${file}`)))));
}

/** The Secret's keys, from the example the operator copies (never applied by the kustomization). */
export const SECRET_EXAMPLE = `${KUBERNETES_DIR}/secret.example.yaml`;
