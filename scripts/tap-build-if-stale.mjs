// Builds tap's plugin set (package.json "tap".plugin, compiled into node_modules by `tap build`) only
// when the built one is not the configured one. A runner started on a stale build hands its test
// processes the loaders of tap's default plugins (TypeScript among them: about a second per file) for
// that run, so the set must be built before tap runs; but `tap build` recompiles it every time (about
// 9 s of CPU and 20 s before the first test starts), and it is stale only after an install or a change
// of plugins. `prepare` (so `npm ci`) and `npm test` both run this; the check itself is a fraction of a
// second.
import '@tapjs/core'; // first: @tapjs/test imported on its own trips over an import cycle in tap's core
import { TapConfig } from '@tapjs/config';
import { signature } from '@tapjs/test';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const config = await TapConfig.load();
if (config.pluginSignature !== signature) {
  const tapBin = fileURLToPath(new URL('../node_modules/.bin/tap', import.meta.url));
  const build = spawnSync(tapBin, ['build'], { stdio: 'inherit' });
  process.exitCode = build.status ?? 1;
}
