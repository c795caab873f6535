// The children's coverage preload (child-coverage.ts): a child a test starts carries it instead of tap's
// loader, and its coverage of src/ is still written where tap's report reads it.
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { swapTrackerPreload, TRACKER_PRELOAD_ENV, trackerPreloadIn } from './tracker-preload.js';
import { runNode } from './child-node.js';

const TRACKER = 'file:///x/node_modules/@tapjs/processinfo/dist/esm/import.mjs';
const SELF = 'file:///x/dist/test/helpers/child-coverage.js';

t.test('the tracker preload in NODE_OPTIONS is swapped for this one', async (t) => {
  const cases: [string, string, string][] = [
    ['alone', `--import=${TRACKER}`, `--import=${SELF}`],
    ['among other options', `--max-old-space-size=64 --import=${TRACKER} --enable-source-maps`, `--max-old-space-size=64 --import=${SELF} --enable-source-maps`],
    ['beside this preload already inherited', `--import=${SELF} --import=${TRACKER}`, `--import=${SELF}`],
    ['without the tracker: unchanged', '--import=./other.js', '--import=./other.js'],
    ['empty', '', ''],
  ];
  for (const [name, given, expected] of cases) t.equal(swapTrackerPreload(given, TRACKER, SELF), expected, name);
});

t.test("the tracker's preload found among node's arguments", async (t) => {
  t.equal(trackerPreloadIn(['--enable-source-maps', `--import=${TRACKER}`, '--import=./dist/test/helpers/child-coverage.js']), TRACKER);
  t.equal(trackerPreloadIn(['--import=./other.js', 'x.js']), undefined);
});

const PROBE = fileURLToPath(new URL('./fixtures/coverage-probe.js', import.meta.url));
const underTracker = (trackerPreloadIn(process.execArgv) ?? process.env[TRACKER_PRELOAD_ENV]) !== undefined;

t.test('a child started by a test has this preload and writes its coverage', { skip: !underTracker && 'run outside tap' }, async (t) => {
  const { code, stdout } = await runNode(PROBE, []);
  t.equal(code, 0);
  const probe = JSON.parse(stdout) as { nodeOptions: string; trackerId: string | null; record: boolean };
  t.match(probe.nodeOptions, /child-coverage\.js/, 'the child was given this preload');
  t.notMatch(probe.nodeOptions, /@tapjs\/processinfo/, 'and not the tracker loader');
  t.type(probe.trackerId, 'string', "the tracker's exit hook runs in the child");
  if (process.env._TAPJS_PROCESSINFO_COVERAGE_ !== '1') return;
  const root = process.env._TAPJS_PROCESSINFO_CWD_ ?? process.cwd();
  const file = join(root, '.tap', 'coverage', `${probe.trackerId}.json`);
  t.ok(existsSync(file), 'its coverage file is where the report reads it');
  const coverage = JSON.parse(readFileSync(file, 'utf8')) as { result: { url: string }[] };
  t.ok(
    coverage.result.some((script) => script.url.endsWith('/src/lib/is-record.js')),
    'with the src/ module it ran',
  );
});
