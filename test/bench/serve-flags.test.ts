// The node flags the gateway is served with, and the bench's proxies run with (bench/serve-flags.ts).
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeFlagsOf, serveNodeFlags } from '../../bench/serve-flags.js';
import { REPO_ROOT } from '../helpers/repo-root.js';

t.test('the flags of a start command are the words between node and the script', async (t) => {
  const cases: [string, string[]][] = [
    ['node dist/src/main.js serve', []],
    ['node --max-semi-space-size=32 dist/src/main.js serve', ['--max-semi-space-size=32']],
    ['  node --a   --b=1 x.js --not-a-node-flag', ['--a', '--b=1']],
  ];
  for (const [command, flags] of cases) t.same(nodeFlagsOf(command), flags, command);
  t.throws(() => nodeFlagsOf('npm run serve'), /does not run node/);
});

t.test("npm start's flags are the bench's, and the model-gateway command's first line starts node with them", async (t) => {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const flags = serveNodeFlags();
  t.same(flags, nodeFlagsOf(pkg.scripts.start));
  t.ok(flags.some((f) => /^--max-semi-space-size=\d+$/.test(f)), 'a young generation large enough that a request in flight is not promoted (bench/README)');
  const shebang = readFileSync(join(REPO_ROOT, 'src/main.ts'), 'utf8').split('\n')[0];
  t.equal(shebang, `#!/usr/bin/env -S node ${flags.join(' ')}`);
});
