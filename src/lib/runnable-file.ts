// Which file a new process or thread runs for one of this code base's entry points, and with which
// node options. Compiled code (dist/) runs its own .js files. Code running from TypeScript source runs
// under a loader (the test runner's), and every new process or thread would have to start that loader
// again: seconds each, most of a short test's time. So from source, when the compiled build is current
// (dist/build-stamp newer than every file under src/, bench/ and test/), the compiled twin runs instead,
// without the loader; when the build is missing or older than the source, the source itself runs
// under the same loader, slower but never stale.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface RunnableFile {
  /** The file to give node (a process's script or a Worker's filename). */
  readonly file: string;
  /** The node options a new process needs for it: the loader's when it is source, none when compiled. */
  readonly loaderArgs: readonly string[];
  /**
   * A Worker's options for it: empty (inherit this thread's) unless the compiled twin replaces source;
   * then no preloads of the test runner, neither in `execArgv` nor in `NODE_OPTIONS`, which a Worker
   * parses from its env. A thread that loads its module with require() (Piscina's does) under the
   * runner's hooks can abort the whole process on Node 20 (seen in CI as `IsGraphAsync must be used on
   * an instantiated module`); without them it loads the way it does in production.
   */
  readonly worker: { readonly execArgv?: string[]; readonly env?: NodeJS.ProcessEnv };
  /** Settings the loader reads from the environment (empty when no loader runs). */
  readonly env: Readonly<Record<string, string>>;
}

const LOADER_ARG = /typescript|tsx|ts-node/;
const LOADER_ENV = /^(TS_NODE_|TAP_TYPE_STRIP_ONLY$)/;
/** Written by `npm run build` once everything in dist/ is in place (scripts/stamp-build.mjs). */
export const BUILD_STAMP = 'dist/build-stamp';

// The repository: two folders up from src/lib, three from dist/src/lib.
const ROOT = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? '../../' : '../../../', import.meta.url));
const buildIsCurrent = new Map<string, boolean>();

/** `file`, an absolute path to a .ts or .js module of the repository at `root`: what to run for it. */
export function runnableFile(file: string, root = ROOT): RunnableFile {
  if (extname(file) !== '.ts') return { file, loaderArgs: [], worker: {}, env: {} };
  const twin = join(root, 'dist', relative(root, file)).replace(/\.ts$/, '.js');
  // The test runner's other preloads stay out of the thread too: they need its loader.
  if (currentBuild(root) && existsSync(twin)) {
    return {
      file: twin,
      loaderArgs: [],
      // Read as each thread starts, so it carries this process's environment of that moment.
      get worker() {
        return { execArgv: [], env: { ...process.env, NODE_OPTIONS: withoutPreloads(process.env.NODE_OPTIONS) } };
      },
      env: {},
    };
  }
  // Without its settings the loader would type-check every file at every start.
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => LOADER_ENV.test(e[0]) && e[1] !== undefined));
  return { file, loaderArgs: process.execArgv.filter((arg) => LOADER_ARG.test(arg)), worker: {}, env };
}

/** An option that preloads a module: `=` joins the module to it, or the module is the next word. */
const PRELOAD = /^(-r|--import|--require|--loader|--experimental-loader)(?:(=)|$)/;

/** `NODE_OPTIONS` without the modules it preloads (both `--import=x` and `--import x`), other options kept. */
export function withoutPreloads(nodeOptions: string | undefined): string {
  const kept: string[] = [];
  // Words as Node splits them: whitespace apart, except inside double quotes.
  const words = (nodeOptions ?? '').match(/(?:[^\s"]+|"(?:\\.|[^"\\])*")+/g) ?? [];
  for (let i = 0; i < words.length; i++) {
    const preload = PRELOAD.exec(words[i]!.replaceAll('"', '')); // a whole word may be quoted: "--import=file:///…"
    if (preload === null) kept.push(words[i]!);
    else if (preload[2] === undefined) i++; // the module named in the next word goes with it
  }
  return kept.join(' ');
}

/** Decided once per process: a build made while it runs does not change what it already started. */
function currentBuild(root: string): boolean {
  let current = buildIsCurrent.get(root);
  if (current === undefined) {
    current = stampTime(root) >= Math.max(...['src', 'bench', 'test'].map((dir) => newestChange(join(root, dir))));
    buildIsCurrent.set(root, current);
  }
  return current;
}

function stampTime(root: string): number {
  try {
    return statSync(join(root, BUILD_STAMP)).mtimeMs;
  } catch {
    return Number.NEGATIVE_INFINITY;
  }
}

/** The newest modification time of a file or folder under `dir` (a deletion changes its folder's time). */
function newestChange(dir: string): number {
  let newest = Number.NEGATIVE_INFINITY;
  const walk = (path: string): void => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat === undefined) return;
    newest = Math.max(newest, stat.mtimeMs);
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
  return newest;
}
