// npm run test:clients: the real-client tests that need a large download, kept out of npm ci. Installs the
// pinned Codex CLI into .cache/clients (once), then runs the Codex test and the Responses surface's SDK
// tests against a real gateway. Run after a build (npm run build).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CODEX_VERSION = '0.171.0';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, '.cache', 'clients');
const manifest = join(cache, 'node_modules', '@openai', 'codex', 'package.json');
const installed = existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : null;
if (installed !== CODEX_VERSION) {
  mkdirSync(cache, { recursive: true });
  console.log(`test:clients: installing @openai/codex@${CODEX_VERSION} into ${cache}`);
  execFileSync('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', cache, `@openai/codex@${CODEX_VERSION}`], { stdio: 'inherit' });
}
const files = ['dist/test/clients/codex.client.js', 'dist/test/integration/responses/openai-sdk.test.js', 'dist/test/integration/responses/vercel-ai-sdk.test.js'];
const tap = spawnSync('npx', ['tap', '--jobs', '1', ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, CODEX_BIN: join(cache, 'node_modules', '.bin', 'codex') },
});
process.exit(tap.status ?? 1);
