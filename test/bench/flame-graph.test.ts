// The flame graph: its layout on a hand-made profile (table-driven), the SVG's boxes and escaping, and
// a real `node --cpu-prof` profile drawn and opened in Chromium.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import t, { type Test } from 'tap';
import type { CpuProfile } from '../../bench/cpu-profile.js';
import { escapeXml, fitLabel, layoutFlameGraph, originOf, renderFlameGraph, visibleFrames, type FlameFrame } from '../../bench/flame-graph.js';
import { writeMissingFlameGraphs } from '../../bench/tools/flamegraph.js';
import { launchChromium, type Browser } from '../browser/chromium.js';
import { envWithoutTestRunner } from '../helpers/runner-env.js';

const run = promisify(execFile);
const SRC = 'file:///x/dist/src/';
const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber });

// (root) ─ handle ─ parse ─ JSON.parse
//        │        └ write (node:net)
//        ├ handle (a second node for the same call path: V8 does this across inlining decisions) ─ parse
//        ├ (garbage collector)
//        └ (idle)
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 6, 8, 9] },
    { id: 2, callFrame: frame('handle', `${SRC}a.js`, 9), children: [3, 5] },
    { id: 3, callFrame: frame('parse', `${SRC}b.js`), children: [4] },
    { id: 4, callFrame: frame('JSON.parse'), children: [] },
    { id: 5, callFrame: frame('write', 'node:net', 40), children: [] },
    { id: 6, callFrame: frame('handle', `${SRC}a.js`, 9), children: [7] },
    { id: 7, callFrame: frame('parse', `${SRC}b.js`), children: [] },
    { id: 8, callFrame: frame('(garbage collector)'), children: [] },
    { id: 9, callFrame: frame('(idle)'), children: [] },
  ],
  // µs on top of the stack: JSON.parse 300, write 100, handle 50, parse (second path) 200, GC 150, idle 1000.
  samples: [4, 4, 4, 5, 2, 7, 7, 8, 9],
  timeDeltas: [100, 100, 100, 100, 50, 100, 100, 150, 1000],
};

const layout = layoutFlameGraph(profile);
const byName = (name: string) => layout.frames.find((f) => f.name === name)!;

t.test('layout: idle left out, one call path merged, callers below callees, widest first', async (t) => {
  t.equal(layout.sampledUs, 1800);
  t.equal(layout.busyUs, 800, 'the root spans every sample but the idle ones');
  t.equal(layout.maxDepth, 3);
  t.notOk(layout.frames.some((f) => f.name === '(idle)'));
  t.same(
    layout.frames.map((f) => [f.name, f.depth, f.startUs, f.totalUs, f.selfUs]),
    [
      ['(all)', 0, 0, 800, 0],
      ['handle', 1, 0, 650, 50],
      ['parse', 2, 0, 500, 200],
      ['JSON.parse', 3, 0, 300, 300],
      ['write', 2, 500, 100, 100],
      ['(garbage collector)', 1, 650, 150, 150],
    ],
  );
  t.same(layout.selfUsByOrigin, { project: 250, dependency: 0, node: 100, native: 300, gc: 150 });
  t.equal(byName('handle').location, 'src/a.js:10');
  t.equal(byName('JSON.parse').location, '(native)');
});

t.test('where a frame comes from', async (t) => {
  const cases: [ReturnType<typeof frame>, string][] = [
    [frame('handle', 'file:///srv/gateway/dist/src/a.js'), 'project'],
    [frame('dispatch', 'file:///srv/gateway/node_modules/undici/lib/dispatcher/client.js'), 'dependency'],
    [frame('write', 'node:net'), 'node'],
    [frame('JSON.parse'), 'native'],
    [frame('(garbage collector)'), 'gc'],
    [frame('wasm-function[20]', 'wasm://wasm/00034eea'), 'native'],
  ];
  for (const [f, origin] of cases) t.equal(originOf(f), origin, f.url || f.functionName);
});

t.test('labels are cut to their box', async (t) => {
  const cases: [string, number, string][] = [
    ['relayTranslatedStream', 400, 'relayTranslatedStream'],
    ['relayTranslatedStream', 60, 'relayT..'],
    ['relayTranslatedStream', 20, ''],
  ];
  for (const [name, width, label] of cases) t.equal(fitLabel(name, width), label, `${name} in ${width} px`);
});

t.test('text is escaped for XML', async (t) => {
  const cases: [string, string][] = [
    ['<anonymous>', '&lt;anonymous&gt;'],
    [`RegExp: ^"a" & 'b'`, 'RegExp: ^&quot;a&quot; &amp; &apos;b&apos;'],
    ['tab\there\u0001\u001f', 'tab\there??'],
  ];
  for (const [text, escaped] of cases) t.equal(escapeXml(text), escaped, JSON.stringify(text));
});

t.test('a box too narrow to draw hides its callees', async (t) => {
  const f = (name: string, depth: number, totalUs: number): FlameFrame => ({ name, location: '', origin: 'project', depth, startUs: 0, totalUs, selfUs: 0 });
  const frames = [f('root', 0, 1000), f('wide', 1, 900), f('thin', 1, 1), f('under-thin', 2, 1), f('after', 1, 99)];
  t.same(
    visibleFrames(frames, 1, 2).map((x) => x.name),
    ['root', 'wide', 'after'],
  );
});

t.test('the SVG: one box per frame, widths in proportion, names escaped', async (t) => {
  const svg = renderFlameGraph(layout, { title: 'a <test> & more', width: 820 });
  t.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="820"/);
  t.match(svg, /a &lt;test&gt; &amp; more/);
  t.match(svg, /this repository \(dist\/\): 31\.3%.*Node\.js library: 12\.5%.*V8, C\+\+, wasm: 37\.5%.*garbage collector: 18\.8%/s, 'the legend gives each origin its share');
  const boxes = [...svg.matchAll(/<g><title>([^<]*)<\/title><rect x="([\d.]+)" y="(\d+)" width="([\d.]+)"/g)];
  t.equal(boxes.length, layout.frames.length);
  const widthOf = (name: string) => Number(boxes.find((b) => b[1]!.startsWith(`${name} `) || b[1]!.startsWith(`${name}\n`))![4]);
  t.equal(widthOf('(all)'), 800, 'the root fills the width between the margins');
  t.equal(widthOf('handle'), 650);
  t.equal(widthOf('write'), 100);
  const yOf = (name: string) => Number(boxes.find((b) => b[1]!.startsWith(`${name} `) || b[1]!.startsWith(`${name}\n`))![3]);
  t.ok(yOf('JSON.parse') < yOf('parse') && yOf('parse') < yOf('handle') && yOf('handle') < yOf('(all)'), 'a callee is drawn above its caller');
  t.match(svg, /JSON\.parse \(native\)\n0\.3 ms, 37\.50% of busy time \(self 0\.3 ms\)/);
});

t.test('a real profile from node --cpu-prof, drawn and opened in Chromium', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'mgw-flame-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const script = join(dir, 'busy.mjs');
  // A fixed amount of spinning (about 1.3 s of CPU here), not a time: spinning for 1.5 s of wall time
  // gave the loop less CPU on a loaded machine while start-up kept its share (40 % of the graph once).
  writeFileSync(
    script,
    `function spinTheWheel(n) { let x = 0; for (let i = 0; i < n; i++) x = (x * 31 + i) % 1000003; return x; }
     let sum = 0; for (let k = 0; k < 3000; k++) sum += spinTheWheel(1e5);
     if (sum < 0) console.log(sum);\n`,
  );
  // Without the test runner's hooks and coverage (NODE_OPTIONS, NODE_V8_COVERAGE): with them the
  // profiled process spent half its profile loading tap's hooks and writing coverage (npm test's runs).
  await run(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, script], { env: envWithoutTestRunner() });
  // A profile per thread: under tap a module-loader thread writes one too.
  const profiles = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  const drawn = writeMissingFlameGraphs(dir);
  t.same(
    drawn.map((svg) => basename(svg)),
    profiles.map((f) => f.replace(/\.cpuprofile$/, '.svg')),
    'an SVG beside each profile',
  );
  t.same(writeMissingFlameGraphs(dir), [], 'a profile already drawn is not drawn again');
  const older = join(dir, 'older.cpuprofile');
  writeFileSync(older, JSON.stringify(profile));
  t.same(writeMissingFlameGraphs(dir, Date.now() + 60_000), [], 'nor one written before the run');
  t.same(writeMissingFlameGraphs(dir), [join(dir, 'older.svg')]);
  const svgPath = drawn.find((svg) => readFileSync(svg, 'utf8').includes('<title>spinTheWheel '));
  t.ok(svgPath, 'the main thread’s hot function has a box');
  if (svgPath === undefined) return;
  t.match(readFileSync(svgPath, 'utf8'), /<title>spinTheWheel [^<]*busy\.mjs:1\n/, 'with its file and line');

  const browser = await launchChromium();
  await t.test('Chromium draws it', { skip: typeof browser === 'string' ? browser : false }, async (t) => {
    if (typeof browser === 'string') return;
    t.teardown(() => browser.close());
    // The share the graph must give the loop is the profile's own: how much of it the sampler saw
    // in the loop depends on the machine (on a loaded one, samples taken while the process waited for
    // a core land outside it), what is drawn must not.
    const profile = JSON.parse(readFileSync(svgPath.replace(/\.svg$/, '.cpuprofile'), 'utf8')) as CpuProfile;
    const layout = layoutFlameGraph(profile);
    const spinUs = layout.frames.filter((f) => f.name === 'spinTheWheel').reduce((us, f) => us + f.totalUs, 0);
    t.ok(spinUs > 0, 'the profile has time in the loop');
    await drawnInChromium(t, browser, svgPath, spinUs / layout.busyUs);
  });
});

async function drawnInChromium(t: Test, browser: Browser, svgPath: string, spinShare: number): Promise<void> {
  const page = await browser.context.newPage();
  await page.goto(pathToFileURL(svgPath).href);
  t.equal(await page.evaluate<string>('document.documentElement.localName'), 'svg', 'Chromium parsed the file as SVG');
  t.equal(await page.evaluate<number>('document.getElementsByTagName("parsererror").length'), 0);
  const widths = await page.evaluate<{ all: number; spin: number }>(`(() => {
    // Every box of the name (a function reached by two call paths has two).
    const width = (name) => [...document.querySelectorAll('g')]
      .filter((g) => g.querySelector('title').textContent.split(/[ \\n]/)[0] === name)
      .reduce((px, g) => px + g.querySelector('rect').getBoundingClientRect().width, 0);
    return { all: width('(all)'), spin: width('spinTheWheel') };
  })()`);
  t.ok(widths.all > 1000, `the root is drawn across the page (${widths.all} px)`);
  t.ok(Math.abs(widths.spin / widths.all - spinShare) < 0.01, `the busy loop drawn at its share of the busy time (${widths.spin} of ${widths.all} px, ${(spinShare * 100).toFixed(1)} % in the profile)`);
}
