// A .cpuprofile as a flame graph SVG, for a profile that says why a target was missed. `npm run bench --
// --profile` draws one beside each profile it writes; this draws any other:
//
//   node dist/bench/tools/flamegraph.js <file.cpuprofile> [--out <file.svg>] [--title <text>]
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CpuProfile } from '../cpu-profile.js';
import { layoutFlameGraph, renderFlameGraph } from '../flame-graph.js';

/** Draws one profile; returns the SVG's path (the profile's, with .svg for .cpuprofile, unless given). */
export function writeFlameGraph(profilePath: string, options: { out?: string; title?: string } = {}): string {
  const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as CpuProfile;
  const out = options.out ?? profilePath.replace(/\.cpuprofile$/, '') + '.svg';
  writeFileSync(out, renderFlameGraph(layoutFlameGraph(profile), { title: options.title ?? basename(profilePath) }));
  return out;
}

/** Draws every profile in `dir` that has no SVG yet (and was written since `sinceMs`); returns the SVGs' paths. */
export function writeMissingFlameGraphs(dir: string, sinceMs = 0): string[] {
  const files = new Set(readdirSync(dir));
  const written: string[] = [];
  for (const file of [...files].sort()) {
    if (!file.endsWith('.cpuprofile') || files.has(file.replace(/\.cpuprofile$/, '.svg'))) continue;
    if (statSync(join(dir, file)).mtimeMs < sinceMs) continue;
    written.push(writeFlameGraph(join(dir, file)));
  }
  return written;
}

if (process.argv[1]?.endsWith('flamegraph.js')) {
  const { values, positionals } = parseArgs({ options: { out: { type: 'string' }, title: { type: 'string' } }, allowPositionals: true });
  const [file] = positionals;
  if (file === undefined) {
    process.stderr.write('usage: node dist/bench/tools/flamegraph.js <file.cpuprofile> [--out <file.svg>] [--title <text>]\n');
    process.exitCode = 2;
  } else {
    process.stdout.write(`${writeFlameGraph(file, values)}\n`);
  }
}
