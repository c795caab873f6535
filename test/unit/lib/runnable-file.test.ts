// A new process or thread runs a module's compiled twin only while the build is newer than every
// source file; otherwise the source under the loader this process runs with.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import t from 'tap';
import type { Test } from 'tap';
import { BUILD_STAMP, runnableFile, withoutPreloads } from '../../../src/lib/runnable-file.js';

function tree(t: Test, times: { source: number; stamp: number | null }): string {
  const root = t.testdir({ src: { 'main.ts': 'export {};\n' }, bench: {}, test: {}, dist: { src: { 'main.js': 'export {};\n' } } });
  const seconds = (ms: number) => ms / 1000;
  utimesSync(join(root, 'src/main.ts'), seconds(times.source), seconds(times.source));
  for (const dir of ['src', 'bench', 'test']) utimesSync(join(root, dir), seconds(times.source), seconds(times.source));
  if (times.stamp !== null) {
    writeFileSync(join(root, BUILD_STAMP), 'now\n');
    utimesSync(join(root, BUILD_STAMP), seconds(times.stamp), seconds(times.stamp));
  }
  return root;
}

const base = Date.parse('2026-11-25T00:00:00Z');

t.test('a build newer than every source file: the compiled twin, without the loader', async (t) => {
  const root = tree(t, { source: base, stamp: base + 60_000 });
  const run = runnableFile(join(root, 'src/main.ts'), root);
  t.equal(run.file, join(root, 'dist/src/main.js'));
  t.same(run.loaderArgs, []);
  t.same(run.worker.execArgv, [], 'a thread leaves the runner\'s preloads out of its arguments');
  t.same(run.env, {});
  t.ok(/--import/.test(process.env.NODE_OPTIONS ?? ''), 'the test runner preloads through NODE_OPTIONS too');
  // What a thread started with these options sees: no preload left anywhere to run the runner's hooks.
  const probe = join(root, 'probe.cjs');
  writeFileSync(probe, "require('node:worker_threads').parentPort.postMessage({ execArgv: process.execArgv, nodeOptions: process.env.NODE_OPTIONS });\n");
  const seen = await new Promise<{ execArgv: string[]; nodeOptions: string }>((resolve, reject) => {
    const worker = new Worker(probe, run.worker);
    worker.once('message', resolve).once('error', reject);
  });
  t.same(seen.execArgv, []);
  t.notMatch(seen.nodeOptions, /--import|--require|--loader/, 'and none in its NODE_OPTIONS');
  process.env.RUNNABLE_FILE_PROBE = 'set later';
  t.teardown(() => delete process.env.RUNNABLE_FILE_PROBE);
  t.equal(run.worker.env?.RUNNABLE_FILE_PROBE, 'set later', 'a thread gets the environment of when it starts');
});

t.test('NODE_OPTIONS without preloads: both spellings, quoted paths, other options kept', async (t) => {
  const cases: [string | undefined, string][] = [
    [undefined, ''],
    ['', ''],
    ['--import=file:///a/processinfo.mjs', ''],
    ['--max-old-space-size=512 --import=file:///a/x.mjs --enable-source-maps', '--max-old-space-size=512 --enable-source-maps'],
    ['--require ./hook.cjs --trace-warnings', '--trace-warnings'],
    ['-r ./hook.cjs', ''],
    ['--import "file:///a b/x.mjs" --no-warnings', '--no-warnings'],
    ['--import="file:///a b/x.mjs" --no-warnings', '--no-warnings'],
    ['"--import=file:///a/processinfo.mjs" --no-warnings', '--no-warnings'],
    ['--loader ts-node/esm --experimental-loader=x.mjs --inspect', '--inspect'],
    ['--title="my gateway"', '--title="my gateway"'],
    ['--importance=high --require-module', '--importance=high --require-module'],
  ];
  for (const [given, expected] of cases) t.equal(withoutPreloads(given), expected, JSON.stringify(given));
});

t.test('a source file changed after the build: the source, under this process\'s loader', async (t) => {
  const root = tree(t, { source: base + 60_000, stamp: base });
  const run = runnableFile(join(root, 'src/main.ts'), root);
  t.equal(run.file, join(root, 'src/main.ts'));
  t.same(run.loaderArgs, process.execArgv.filter((arg) => /typescript/.test(arg)));
  t.ok(run.loaderArgs.length > 0, 'the test runner runs a TypeScript loader');
  t.same(run.worker, {}, 'a thread inherits the loader');
  t.equal(run.env.TS_NODE_TRANSPILE_ONLY, process.env.TS_NODE_TRANSPILE_ONLY, 'with its settings');
});

t.test('no build at all: the source', async (t) => {
  const root = tree(t, { source: base, stamp: null });
  t.equal(runnableFile(join(root, 'src/main.ts'), root).file, join(root, 'src/main.ts'));
});

t.test('a file the build does not have: the source', async (t) => {
  const root = tree(t, { source: base, stamp: base + 60_000 });
  mkdirSync(join(root, 'src/new'));
  writeFileSync(join(root, 'src/new/thing.ts'), 'export {};\n');
  const later = (base + 1000) / 1000;
  utimesSync(join(root, 'src/new/thing.ts'), later, later);
  utimesSync(join(root, 'src/new'), later, later);
  utimesSync(join(root, 'src'), later, later);
  t.equal(runnableFile(join(root, 'src/new/thing.ts'), root).file, join(root, 'src/new/thing.ts'));
});

t.test('compiled code runs its own file', async (t) => {
  t.same(runnableFile('/somewhere/dist/src/main.js'), { file: '/somewhere/dist/src/main.js', loaderArgs: [], worker: {}, env: {} });
});
