// `npm test`'s runner: tap, its output passed through untouched, then a summary of every failed
// assertion with the files and subtests it sits in and the start of its diagnostics. A CI log is often
// read from its end only; without this a failure deep in 9,000 lines is out of sight there.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const DIAGNOSTIC_LINES = 14;
const tapBin = fileURLToPath(new URL('../node_modules/.bin/tap', import.meta.url));
const child = spawn(tapBin, process.argv.slice(2), { stdio: ['inherit', 'pipe', 'inherit'] });

/** `# Subtest: name` per nesting level (4 spaces each), the enclosing ones of the line being read. */
const names = [];
/** Every innermost `not ok`: where it is, and the lines of its YAML diagnostic block. */
const failures = [];
/**
 * Per depth, how many failures there were at its last `# Subtest:`, `ok` or `not ok`: a subtest's own
 * `not ok` closes it at its depth, so failures recorded since are inside it and it is not listed again.
 */
const failuresAt = [];
let diagnostic = null;

/**
 * What a failure's YAML block says, without its stack and source excerpt (the file and line are kept):
 * found, wanted, the diff, a timeout's signal.
 */
function keepDiagnostic(d, line) {
  const text = line.trimStart();
  const indent = line.length - text.length;
  if (text === '---') {
    d.indent = indent;
    return;
  }
  const key = /^([A-Za-z]+):/.exec(text)?.[1];
  if (indent === d.indent && key !== undefined) d.skipping = ['at', 'stack', 'source'].includes(key);
  const place = /^(fileName|lineNumber): (.*)$/.exec(text);
  if (place !== null) d.at = { ...d.at, [place[1]]: place[2] };
  if (d.skipping || d.lines.length >= DIAGNOSTIC_LINES) return;
  d.lines.push(line.slice(Math.min(indent, d.indent)));
}

createInterface({ input: child.stdout }).on('line', (line) => {
  process.stdout.write(`${line}\n`);
  const indent = line.length - line.trimStart().length;
  const depth = Math.floor(indent / 4);
  const text = line.trimStart();
  if (diagnostic !== null) {
    if (text === '...' || text.startsWith('ok ') || text.startsWith('not ok ') || text.startsWith('# Subtest:')) diagnostic = null;
    else keepDiagnostic(diagnostic, line);
    if (diagnostic !== null) return;
  }
  if (text.startsWith('# Subtest: ')) {
    names.length = depth;
    names[depth] = text.slice('# Subtest: '.length);
    failuresAt[depth] = failures.length;
  } else if (text.startsWith('not ok ')) {
    const inside = failures.length > (failuresAt[depth] ?? 0);
    if (!inside) {
      diagnostic = { lines: [], indent: 0, skipping: false, at: null };
      failures.push({ path: [...names.slice(0, depth), text.replace(/^not ok \d+ -? ?/, '')], diagnostic });
    }
    failuresAt[depth] = failures.length;
  } else if (text.startsWith('ok ')) {
    failuresAt[depth] = failures.length;
  }
});

child.on('close', (code, signal) => {
  if (failures.length > 0) {
    process.stdout.write(`\n# ${failures.length} failure(s):\n`);
    for (const f of failures) {
      const d = f.diagnostic;
      process.stdout.write(`#   not ok: ${f.path.join(' > ')}${d.at ? ` (${d.at.fileName}:${d.at.lineNumber})` : ''}\n`);
      for (const l of d.lines) process.stdout.write(`#     ${l}\n`);
    }
  }
  process.exit(code ?? (signal ? 1 : 0));
});
