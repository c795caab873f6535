// The node flags the gateway is served with: those of `npm start` (package.json `scripts.start`, which
// the Dockerfile's command repeats, a deploy test checks it). The bench runs the proxies it measures,
// the gateway and the bare pass-through alike, with the same flags, so that neither is measured on a
// runtime setting the other lacks.
import { readFileSync } from 'node:fs';

/** The flags between `node` and the script of a start command (`node --a --b=1 dist/src/main.js serve` → `--a --b=1`). */
export function nodeFlagsOf(startCommand: string): string[] {
  const words = startCommand.trim().split(/\s+/);
  if (words[0] !== 'node') throw new Error(`the start command does not run node: "${startCommand}"`);
  const flags: string[] = [];
  for (const word of words.slice(1)) {
    if (!word.startsWith('-')) break;
    flags.push(word);
  }
  return flags;
}

/** `npm start`'s node flags, read from the package.json two folders above the compiled bench (dist/bench/). */
export function serveNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
  return nodeFlagsOf(pkg.scripts.start);
}
