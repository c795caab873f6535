// Where a callgrind count's instructions go, JavaScript included: callgrind names the C++ of V8 and
// Node, but the code V8 compiled at run time is only an address. Node started with
// `--perf-basic-prof` writes each compiled function's address range and name to a map
// (`tools/instructions.ts --keep FILE --perf-map` keeps it as FILE.map); this reads the dump's self
// instructions per function, names each address from the map, and ranks the functions.
//
//   node dist/bench/tools/callgrind-jit.js FILE [--top 40] [--per N]
//
// `--per N` divides by N (the counted requests) to print instructions per request.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs, promisify } from 'node:util';
import { programTotal } from './instructions.js';

const run = promisify(execFile);

export interface JitRange {
  readonly start: number;
  readonly end: number;
  readonly name: string;
}

/** A perf map's lines, `<start hex> <size hex> <name>`, sorted by start. */
export function parsePerfMap(text: string): JitRange[] {
  const ranges: JitRange[] = [];
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/i.exec(line);
    if (m === null) continue;
    const start = parseInt(m[1]!, 16);
    ranges.push({ start, end: start + parseInt(m[2]!, 16), name: functionName(m[3]!) });
  }
  return ranges.sort((a, b) => a.start - b.start);
}

/**
 * One name per JavaScript function whatever tier compiled it: V8 writes `JS:*name file:line:col`
 * (optimised), `JS:~name` (interpreted or baseline), older Nodes `LazyCompile:` and `Function:`.
 */
export function functionName(mapName: string): string {
  return mapName.replace(/^(?:JS|LazyCompile|Function|Script|Eval):[*~+^]?/, '');
}

/** The range holding `address`, by binary search; the latest compiled wins where code was reused. */
export function rangeAt(ranges: readonly JitRange[], address: number): JitRange | null {
  let lo = 0;
  let hi = ranges.length - 1;
  let found: JitRange | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = ranges[mid]!;
    if (r.start <= address) {
      if (address < r.end) found = r;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Self instructions by function from a `callgrind_annotate` report, JIT addresses named from the map. */
export function selfByFunction(report: string, ranges: readonly JitRange[]): { total: number; rows: Array<{ name: string; self: number }> } {
  const byName = new Map<string, number>();
  for (const line of report.split('\n')) {
    const m = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.+)$/.exec(line);
    if (m === null || m[2]!.includes('PROGRAM TOTALS')) continue;
    const count = Number(m[1]!.replaceAll(',', ''));
    const where = m[2]!.replace(/\s+\[[^\]]*\]$/, '');
    // callgrind names code it has no symbol for `???:0x<address>`: V8's compiled JavaScript.
    const address = where.startsWith('???') ? /0x([0-9a-f]+)/i.exec(where) : null;
    const jit = address === null ? null : rangeAt(ranges, parseInt(address[1]!, 16));
    const name = address === null ? where : jit !== null ? `${jit.name} [js]` : '(JIT code not in the map)';
    byName.set(name, (byName.get(name) ?? 0) + count);
  }
  const rows = [...byName].map(([name, self]) => ({ name, self })).sort((a, b) => b.self - a.self);
  return { total: programTotal(report), rows };
}

async function mainCli(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '40' }, per: { type: 'string', default: '1' } } });
  const file = positionals[0];
  if (file === undefined) throw new Error('usage: callgrind-jit FILE [--top N] [--per N] (FILE.map beside it)');
  const ranges = parsePerfMap(readFileSync(`${file}.map`, 'utf8'));
  // Every function, however small: the JIT's many small entries add up.
  const report = await run('callgrind_annotate', ['--threshold=100', file], { maxBuffer: 256 * 1024 * 1024 });
  const { total, rows } = selfByFunction(report.stdout, ranges);
  const per = Number(values.per);
  console.log(`total ${Math.round(total / per).toLocaleString('en')} instructions${per === 1 ? '' : ' per request'}`);
  for (const r of rows.slice(0, Number(values.top))) console.log(`${Math.round(r.self / per).toLocaleString('en').padStart(12)} ${((r.self / total) * 100).toFixed(1).padStart(5)}%  ${r.name}`);
}

if (process.argv[1]?.includes('bench/tools/callgrind-jit')) {
  mainCli().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
