// `npm test`'s last step: the linter and the test runner side by side. The type-aware lint is about a
// minute of one core and the suite leaves part of the machine idle while its tests wait for servers,
// timers and child processes, so running them one after the other wasted most of that minute.
// tap's output streams through as it comes; ESLint's is held and printed after tap's summary, so a CI
// log read from its end shows both. The exit code is non-zero when either failed.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const eslintBin = fileURLToPath(new URL('../node_modules/.bin/eslint', import.meta.url));
const runTap = fileURLToPath(new URL('./run-tap.mjs', import.meta.url));

/** A child's exit code (1 when it was killed by a signal). */
function exitOf(child) {
  return new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

const lintOutput = [];
const lint = spawn(eslintBin, ['.'], { stdio: ['ignore', 'pipe', 'pipe'] });
lint.stdout.on('data', (chunk) => lintOutput.push(chunk));
lint.stderr.on('data', (chunk) => lintOutput.push(chunk));
const tap = spawn(process.execPath, [runTap, ...process.argv.slice(2)], { stdio: 'inherit' });

const [lintCode, tapCode] = await Promise.all([exitOf(lint), exitOf(tap)]);
process.stdout.write(`\n# eslint: ${lintCode === 0 ? 'no problems' : `failed (exit ${lintCode})`}\n`);
if (lintOutput.length > 0) process.stdout.write(Buffer.concat(lintOutput));
process.exit(tapCode !== 0 ? tapCode : lintCode);
