// A few seconds of the real bench (every scenario, every phase, tiny durations, no thresholds): the
// bench's own code keeps working as the gateway changes. Runs bench/run.ts as `npm run bench` would.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import type { BenchResults } from '../../bench/report.js';
import { runNode } from '../helpers/child-node.js';

const SCENARIOS = ['messages', 'messages-stream', 'chat', 'chat-stream', 'responses', 'responses-stream', 'agent-turn', 'chat-agent-turn', 'chat-tools', 'auth-rejected', 'chat-1mib-mix'];
const STREAMED = new Set(['messages-stream', 'chat-stream', 'responses-stream', 'agent-turn', 'chat-agent-turn']);

t.test('the bench runs every scenario and phase against the three targets and writes its results', async (t) => {
  const dir = t.testdir();
  // Windows of 20 answers each, not of a time: at 0.2 s a target on a loaded machine sometimes completed
  // no request at all, and 0.5 s windows on an idle one were most of the file's CPU (hundreds of answers
  // a window, 33 windows). A probe always completes its first request, however short its time.
  const flags = ['--duration', '0.5', '--window-requests', '20', '--warmup', '0', '--rounds', '1', '--connections', '2', '--probe', '0.05'];
  const markdownFile = join(dir, 'RESULTS.md');
  const readme = join(dir, 'README.md');
  const small = ['--streams', '20', '--hold', '0.5', '--memory-requests', '200', '--results', dir, '--results-md', markdownFile, '--readme', readme, '--quiet'];
  const run = await runNode(join(import.meta.dirname, '../../bench/run.js'), [...flags, ...small]);
  t.equal(run.code, 0, `bench exits 0 (stderr: ${run.stderr.slice(-2000)})`);

  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  t.equal(files.length, 1, 'one results file');
  const results = JSON.parse(readFileSync(join(dir, files[0]!), 'utf8')) as BenchResults;
  t.same(results.scenarios.map((s) => s.name), SCENARIOS);
  for (const s of results.scenarios) {
    for (const target of ['direct', 'passthrough', 'gateway'] as const) {
      const r = s.targets[target];
      t.ok(r.ok > 0, `${s.name} → ${target}: answered with the expected status (${r.unexpected} other answers or errors)`);
    }
    if (STREAMED.has(s.name)) t.ok(s.targets.gateway.ttftMs !== null, `${s.name}: time to first token measured`);
  }
  t.same(results.latency.map((l) => [l.scenario, l.measure]), [['messages', 'latency'], ['messages-stream', 'ttft'], ['chat', 'latency'], ['chat-stream', 'ttft']]);
  t.equal(results.streams.length, 2);
  for (const s of results.streams) t.equal(s.gatewayHeld, 20, `${s.scenario}: the gateway held every stream`);
  t.ok(results.memory !== null && results.memory.requests >= 200, 'the memory phase sent its requests');
  t.ok(results.micro.some((m) => m.name.includes('per upstream event')), 'the re-framing micro-benchmark ran');
  t.ok(results.micro.some((m) => m.name.startsWith('BedrockStreamDecoder') && m.cpuNsPerOp > 0), 'and the Bedrock decoder\'s, with its CPU time');
  t.match(run.stdout, /\| messages \|/, 'the markdown table is printed');
  t.match(run.stdout, /\| target \| goal \| measured \|/);
  const section = readFileSync(markdownFile, 'utf8');
  t.match(section, /<!-- bench: begin[^\n]*-->\n## Latest run of `npm run bench`/, 'the run wrote its section of the results file');
  t.match(section, /\| chat-stream \|/, 'with the tables it printed');
  t.match(readFileSync(readme, 'utf8'), /<!-- bench-targets: begin[^\n]*-->\nWritten by `npm run bench`[^\n]*\n\n\| target \| goal \| measured \|/, 'and the README\'s table of targets');
});

t.test('with --profile the bench draws a flame graph of each proxy it profiled', async (t) => {
  const dir = t.testdir();
  const flags = ['--phases', 'scenarios', '--scenarios', 'chat', '--duration', '0.3', '--warmup', '0', '--rounds', '1', '--connections', '2'];
  const run = await runNode(join(import.meta.dirname, '../../bench/run.js'), [...flags, '--profile', '--results', dir, '--results-md', 'none', '--readme', 'none', '--quiet']);
  t.equal(run.code, 0, `bench exits 0 (stderr: ${run.stderr.slice(-2000)})`);
  const results = JSON.parse(readFileSync(join(dir, readdirSync(dir).find((f) => f.endsWith('.json'))!), 'utf8')) as BenchResults;
  const drawn = results.flameGraphs ?? [];
  // The main thread's (other threads, such as the translation pool's, have -thread<N> graphs of their own).
  const mainThread = (proxy: string) => drawn.find((f) => new RegExp(`/profiles/${proxy}-\\d+\\.svg$`).test(f));
  for (const proxy of ['gateway', 'passthrough']) {
    const svg = mainThread(proxy);
    t.ok(svg, `${proxy}: a flame graph of its main thread`);
    if (svg === undefined) continue;
    t.match(readFileSync(svg, 'utf8'), /^<svg [^>]*>[\s\S]*<title>\(all\)\n[\s\S]*<\/svg>\n$/, `${proxy}: an SVG with its boxes`);
    t.match(run.stdout, `Flame graph: ${svg}`);
  }
  t.match(
    readFileSync(mainThread('gateway')!, 'utf8'),
    // Any frame of the gateway's request path (its handler, a stage, the relay): which of them a short
    // sampled run catches is chance, that some of them are caught is not.
    /<title>[^<\n]*src\/gateway\/[\w/.-]+\.[jt]s:\d+\n/,
    'the gateway’s graph shows its own request handling',
  );
});
