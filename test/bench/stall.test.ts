// The one-connection stall tool: its section of bench/RESULTS.md is written between its markers and
// rewritten in place, and a short run measures both proxies in every run and writes the section.
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { sectionMarkers, withSection, writeSection } from '../../bench/results-file.js';
import { formatStall, runStall, SECTION } from '../../bench/tools/stall.js';

t.test('a section is appended once, then replaced in place; the rest of the file is left alone', async (t) => {
  const { begin, end } = sectionMarkers('stall');
  const doc = '# Results\n\nkept text\n';
  const first = withSection(doc, 'stall', 'first');
  t.equal(first, `# Results\n\nkept text\n\n${begin}\nfirst\n${end}\n`);
  const other = withSection(first, 'other-tool', 'theirs');
  const second = withSection(other, 'stall', 'second\n');
  t.equal(second, other.replace('\nfirst\n', '\nsecond\n'), 'only the section changed');
  t.equal(second.split(begin).length, 2, 'one section, not two');
  t.throws(() => withSection(`${begin}\nno end`, 'stall', 'x'), /end marker/);
  t.throws(() => sectionMarkers('Not A Name'), /lower-case/);
});

t.test('a short pinned run: both proxies measured in every run, each on a core of its own, the section written into the results file', async (t) => {
  const file = join(t.testdir({ 'RESULTS.md': '# Bench results\n\nanother phase\'s text\n' }), 'RESULTS.md');
  const report = await runStall({ runs: 2, durationSec: 0.3, warmupSec: 0.3, pin: true });
  const last = String(cpus().length - 1);
  t.equal(report.runs.length, 2);
  for (const [i, run] of report.runs.entries()) {
    for (const proxy of ['passthrough', 'gateway'] as const) {
      const x = run[proxy];
      t.ok(x.requests > 0, `run ${i + 1}, ${proxy}: ${x.requests} requests`);
      t.ok(x.p50Ms > 0 && x.p50Ms <= x.p99Ms && x.p99Ms <= x.maxMs, `run ${i + 1}, ${proxy}: ${x.p50Ms} / ${x.p99Ms} / ${x.maxMs} ms in order`);
      t.ok(x.eldMaxMs >= 0 && x.gcMaxMs >= 0, `run ${i + 1}, ${proxy}: the process's own readings came back`);
      t.equal(x.cpus, last, `run ${i + 1}, ${proxy}: measured on core ${last} alone`);
    }
  }
  t.equal(report.loadBefore.length, 3, 'the machine\'s load is noted');
  writeSection(file, SECTION, formatStall(report));
  const text = readFileSync(file, 'utf8');
  t.match(text, /another phase's text/, 'the rest of the file is kept');
  const { begin, end } = sectionMarkers(SECTION);
  const section = text.slice(text.indexOf(begin), text.indexOf(end));
  t.match(section, /\| run \| pass-through p50 \/ p99 \/ max ms \| gateway p50 \/ p99 \/ max ms \|/);
  t.equal(section.match(/^\| \d \| /gm)?.length, 2, 'one row per run');
  t.match(section, /Gateway maximum under 5 ms in \d of 2 runs/);
  t.match(section, /Pinned \(`--pin`\)/);
  writeFileSync(file, withSection(text, SECTION, 'replaced'));
  t.notMatch(readFileSync(file, 'utf8'), /\| run \|/, 'a later run replaces the section');
});
