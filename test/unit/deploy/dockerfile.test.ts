// deploy/Dockerfile against the code: the command is `npm start`'s, the runtime holds the production
// dependencies and the compiled code only, it runs as a non-root user under an init process that
// forwards SIGTERM (the drain), and it exposes the ports the gateway and the deployment files use.
import t from 'tap';
import { loadConfig } from '../../../src/config/config.js';
import {
  composeEnv,
  composeFile,
  DOCKERFILE,
  execForm,
  gatewayServices,
  kubeSettings,
  parseDockerfile,
  repoText,
  type DockerInstruction,
  type DockerStage,
} from './deploy-files.js';

interface PackageJson {
  scripts: Record<string, string>;
  bin: Record<string, string>;
}

const pkg = JSON.parse(repoText('package.json')) as PackageJson;
const text = repoText(DOCKERFILE);
const stages = parseDockerfile(text);
const runtime = stages[stages.length - 1];

function all(stage: DockerStage, keyword: string): DockerInstruction[] {
  return stage.instructions.filter((i) => i.keyword === keyword);
}

function last(stage: DockerStage, keyword: string): DockerInstruction | undefined {
  return all(stage, keyword).at(-1);
}

/** The ARGs declared before the first FROM, with their defaults: what a FROM line may name. */
function globalArgs(): Record<string, string> {
  const head = text.slice(0, text.search(/^FROM\s/m));
  return Object.fromEntries([...head.matchAll(/^ARG\s+([A-Za-z_]+)=(\S+)/gm)].map((m) => [m[1], m[2]]));
}

/** The image a stage finally starts from, following stage names (`FROM toolchain AS build`) and ARGs. */
function baseImage(stage: DockerStage): string {
  const image = stage.image.replace(/\$\{?([A-Za-z_]+)\}?/g, (_, name: string) => globalArgs()[name] ?? '');
  const parent = stages.find((s) => s.name === image);
  return parent === undefined ? image : baseImage(parent);
}

function stageNamed(name: string | undefined): DockerStage {
  const stage = stages.find((s) => s.name === name);
  if (stage === undefined) throw new Error(`no stage ${name}`);
  return stage;
}

/** `COPY [--from=x] [--chown=..] src... dest` → { from, sources, dest }. */
function copies(stage: DockerStage): { from: string | undefined; sources: string[]; dest: string }[] {
  return all(stage, 'COPY').map((i) => {
    const words = i.args.split(/\s+/);
    const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
    const paths = words.filter((w) => !w.startsWith('--'));
    return { from, sources: paths.slice(0, -1), dest: paths[paths.length - 1] };
  });
}

function runs(stage: DockerStage): string {
  return all(stage, 'RUN').map((i) => i.args).join('\n');
}

t.test('multi-stage: built with the dev dependencies, run on Node 20 slim with the production ones', async (t) => {
  t.ok(stages.length >= 2, 'several stages');
  t.match(baseImage(runtime), /^node:20[.\w-]*-slim$/, 'the runtime is Node 20 slim');
  const fromContext = copies(runtime).filter((c) => c.from === undefined).flatMap((c) => c.sources);
  t.same(fromContext, ['package.json'], 'from the build context the runtime takes package.json alone ("type": "module")');

  const fromStages = copies(runtime).filter((c) => c.from !== undefined);
  const dist = fromStages.find((c) => c.sources.some((s) => s.includes('dist')));
  t.ok(dist, 'the runtime copies the compiled code from a build stage');
  t.same(dist?.sources.map((s) => s.replace(/^\/app\//, '')), ['dist/src'], 'dist/src only: no tests or benchmarks');
  const build = stageNamed(dist?.from);
  t.match(runs(build), /npm ci(?![^\n]*--omit)/, 'the build stage installs every dependency');
  t.match(runs(build), /npm run build/, 'and compiles');

  const modules = fromStages.find((c) => c.sources.some((s) => s.endsWith('node_modules')));
  t.ok(modules, 'the runtime copies node_modules from a stage');
  const deps = stageNamed(modules?.from);
  t.match(runs(deps), /npm ci --omit=dev/, 'installed without the dev dependencies');
  t.equal(baseImage(deps), baseImage(runtime), 'on the runtime base image, so native modules match its Node and libc');
});

t.test('the command is `npm start`\'s, under tini, stopped by SIGTERM', async (t) => {
  t.match(repoText('README.md'), /npm start\b/, 'the README starts the gateway with npm start');
  const cmd = last(runtime, 'CMD');
  t.same(execForm(cmd?.args ?? '[]'), pkg.scripts.start.split(/\s+/), 'CMD is package.json scripts.start, in exec form (no shell between)');
  const entrypoint = execForm(last(runtime, 'ENTRYPOINT')?.args ?? '[]');
  t.match(entrypoint[0] ?? '', /(^|\/)tini$/, 'tini is PID 1 and forwards signals');
  t.same(entrypoint.slice(1), ['--'], 'and passes the command through untouched');
  t.match(runs(runtime), /apt-get install[^\n]*\btini\b/, "tini from Debian's package");
  t.equal(last(runtime, 'STOPSIGNAL')?.args, 'SIGTERM', 'SIGTERM starts the drain');
});

t.test('runs as a non-root user', async (t) => {
  const user = last(runtime, 'USER')?.args;
  t.ok(user, 'USER is set');
  const [uid] = (user ?? '').split(':');
  t.not(uid, 'root');
  t.not(uid, '0');
  t.match(uid, /^\d+$/, 'numeric, so Kubernetes runAsNonRoot can verify it');
  const userAt = runtime.instructions.findIndex((i) => i.keyword === 'USER');
  t.ok(runtime.instructions.slice(userAt).every((i) => i.keyword !== 'RUN'), 'nothing runs as root after the switch');
});

t.test('`model-gateway` on PATH is the package\'s bin', async (t) => {
  t.match(runs(runtime), new RegExp(`ln -s /app/${pkg.bin['model-gateway']} /usr/local/bin/model-gateway`));
});

t.test('EXPOSE names the gateway port and the metrics port the deployments set', async (t) => {
  const exposed = all(runtime, 'EXPOSE').flatMap((i) => i.args.split(/\s+/)).map((p) => Number(p.replace(/\/tcp$/, '')));
  t.ok(exposed.includes(loadConfig({}).port), 'the default PORT');
  const metricsPorts = new Set([
    ...gatewayServices(composeFile()).map(([, s]) => loadConfig(composeEnv(s)).metrics.port),
    loadConfig({ ...kubeSettings(), ANTHROPIC_API_KEY: 'x' }).metrics.port,
  ]);
  for (const port of metricsPorts) t.ok(port !== null && exposed.includes(port), `metrics port ${port}`);
});

t.test('the health check asks /healthz on the gateway port', async (t) => {
  const check = last(runtime, 'HEALTHCHECK')?.args ?? '';
  t.match(check, /\/healthz/);
  t.match(check, new RegExp(`process\\.env\\.PORT \\|\\| ${loadConfig({}).port}\\b`), 'PORT, or its default');
});

t.test('.dockerignore lets in everything the build copies from the context', async (t) => {
  const patterns = repoText('.dockerignore')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  // The forms the file uses: `*`, `name`, `dir/`, each possibly negated; the last match decides.
  const included = (path: string): boolean => {
    let keep = true;
    for (const raw of patterns) {
      const negated = raw.startsWith('!');
      const pattern = (negated ? raw.slice(1) : raw).replace(/\/$/, '');
      if (pattern === '*' || path === pattern || path.startsWith(`${pattern}/`)) keep = negated;
    }
    return keep;
  };
  const sources = stages.flatMap((s) => copies(s).filter((c) => c.from === undefined).flatMap((c) => c.sources));
  t.ok(sources.length > 3);
  for (const source of sources) t.ok(included(source.replace(/^\.\//, '').replace(/\/$/, '')), source);
  t.notOk(included('node_modules'), 'node_modules stays out');
  t.notOk(included('data'), 'local databases stay out');
});
