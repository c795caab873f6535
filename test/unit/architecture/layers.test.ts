// The layout of src/ is the architecture (docs/architecture.md): its top-level folders form layers,
// each importing only from the layers below it, and no module imports itself back through others.
// These checks read the import statements of every file under src/, so a change that breaks the
// layering fails here instead of slowly blurring the tree.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import t from 'tap';
import { REPO_ROOT } from '../../helpers/repo-root.js';

const ROOT = REPO_ROOT;
const SRC = join(ROOT, 'src');

/** Bottom to top. A folder may import from its own layer's folder and from any folder before it. */
const LAYERS = [
  'lib',
  'config',
  'metering',
  'dialects',
  'catalog',
  'observability',
  'upstream',
  'providers',
  'keys',
  'stores',
  'policy',
  'gateway',
  'admin',
  'apps',
  'main.ts',
] as const;

/** Packages that only one part of the tree may touch, so the rest stays independent of them. */
const CONFINED: ReadonlyArray<{ pkg: string; under: string }> = [
  { pkg: 'better-sqlite3', under: 'stores/sqlite/' },
  { pkg: 'pg', under: 'stores/postgres/' },
  { pkg: 'redis', under: 'stores/redis/' },
  { pkg: 'undici', under: 'upstream/' },
  // The OpenTelemetry SDK is imported (at start-up, when tracing is on) only by the module that
  // builds it: the request path knows tracing through observability/tracing/request-trace.ts alone.
  ...['@opentelemetry/api', '@opentelemetry/core', '@opentelemetry/resources', '@opentelemetry/sdk-trace', '@opentelemetry/exporter-trace-otlp-proto', '@opentelemetry/exporter-trace-otlp-http'].map(
    (pkg) => ({ pkg, under: 'observability/tracing/otel/' }),
  ),
];

interface SourceFile {
  /** Path under src/, e.g. gateway/routes.ts. */
  path: string;
  /** Paths under src/ it imports (relative imports only). */
  imports: string[];
  packages: string[];
}

function sourceFiles(): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) {
        if (name !== 'static') walk(full);
      } else if (name.endsWith('.ts')) {
        out.push(parse(full));
      }
    }
  };
  walk(SRC);
  return out;
}

const SPECIFIER = /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*'([^']+)'|\bimport\s*\(\s*'([^']+)'\s*\)|(?:^|\n)\s*import\s*'([^']+)'/g;

function parse(full: string): SourceFile {
  const text = readFileSync(full, 'utf8');
  const imports: string[] = [];
  const packages: string[] = [];
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    if (spec.startsWith('.')) imports.push(relative(SRC, resolve(dirname(full), spec)).replace(/\.js$/, '.ts'));
    else if (!spec.startsWith('node:')) packages.push(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
  }
  return { path: relative(SRC, full), imports, packages };
}

const topOf = (path: string): string => path.split('/')[0]!;
const files = sourceFiles();

t.test('the parser sees the tree (guards the checks below against reading nothing)', async (t) => {
  t.ok(files.length > 200, `${files.length} files under src/`);
  const routes = files.find((f) => f.path === 'gateway/routes.ts');
  t.ok(routes !== undefined && routes.imports.includes('gateway/compose.ts'), 'gateway/routes.ts imports gateway/compose.ts');
  t.ok(files.some((f) => f.packages.includes('undici')), 'a package import is seen');
});

t.test('every top-level entry of src/ has a place in the layers', async (t) => {
  const entries = readdirSync(SRC).sort();
  t.same(entries, [...LAYERS].sort(), 'src/ holds exactly the layered folders (add a new one to LAYERS and docs/architecture.md)');
});

t.test('imports run down the layers, never up', async (t) => {
  const upward: string[] = [];
  for (const f of files) {
    const from = LAYERS.indexOf(topOf(f.path) as (typeof LAYERS)[number]);
    for (const target of f.imports) {
      if (target.startsWith('..')) continue; // outside src/ (package.json)
      const to = LAYERS.indexOf(topOf(target) as (typeof LAYERS)[number]);
      if (to > from) upward.push(`${f.path} → ${target}`);
    }
  }
  t.same(upward, [], 'no import from a lower layer into a higher one');
});

t.test('no import cycles between modules', async (t) => {
  const graph = new Map(files.map((f) => [f.path, f.imports.filter((p) => !p.startsWith('..'))]));
  const cycles = stronglyConnected(graph).filter((c) => c.length > 1);
  t.same(cycles, [], 'every strongly connected group of modules is a single module');
});

t.test('database, Redis, HTTP client and tracing SDK packages stay in their corner', async (t) => {
  for (const { pkg, under } of CONFINED) {
    const outside = files.filter((f) => f.packages.includes(pkg) && !f.path.startsWith(under)).map((f) => f.path);
    t.same(outside, [], `${pkg} is imported only under src/${under}`);
    t.ok(files.some((f) => f.packages.includes(pkg)), `${pkg} is imported somewhere (the rule is not stale)`);
  }
});

t.test('the docs list the same layers in the same order', async (t) => {
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const section = doc.split('<!-- layers -->')[1]?.split('<!-- /layers -->')[0] ?? '';
  const listed = [...section.matchAll(/^\| `([^`]+?)\/?` \|/gm)].map((m) => m[1]);
  t.same(listed, [...LAYERS].reverse(), 'docs/architecture.md lists the layers top to bottom');
});

/** Tarjan's algorithm, iterative-enough for a few hundred modules. */
function stronglyConnected(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      out.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}
