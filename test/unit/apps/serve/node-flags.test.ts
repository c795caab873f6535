// The flags the gateway is served with, as every way of starting it carries them as text.
import t from 'tap';
import { SERVE_NODE_FLAGS } from '../../../../src/apps/serve/node-flags.js';
import { gatewayCommand } from '../../../../src/apps/fleet/gateway-process.js';
import { repoText } from '../../../helpers/repo-root.js';

const flags = SERVE_NODE_FLAGS.join(' ');

t.test('npm start, the model-gateway command and the local fleet start node with them', async (t) => {
  t.ok(SERVE_NODE_FLAGS.some((f) => /^--max-semi-space-size=\d+$/.test(f)), 'the young generation is sized');
  const pkg = JSON.parse(repoText('package.json')) as { scripts: { start: string } };
  // The image's command is npm start's (unit/deploy/dockerfile.test).
  t.equal(pkg.scripts.start, `node ${flags} dist/src/main.js serve`, 'npm start');
  t.equal(repoText('src/main.ts').split('\n')[0], `#!/usr/bin/env -S node ${flags}`, "the command's first line");
  const command = gatewayCommand();
  t.same(command.args.slice(0, SERVE_NODE_FLAGS.length), SERVE_NODE_FLAGS, "the fleet's instances");
  t.match(command.args[SERVE_NODE_FLAGS.length] ?? '', /main\.js$/, 'before the entry script');
});
