// The soak run's verdict and its Markdown report (docs/soak.md).
import type { MemorySample } from './memory.js';

export interface SoakResult {
  requests: number;
  concurrency: number;
  seconds: number;
  statuses: Map<number, number>;
  errors: number;
  samples: MemorySample[];
}

/** Retained heap may move by this much between the warm-up and the end without counting as growth. */
export const HEAP_NOISE_MB = 8;
/** RSS is looser: the allocator keeps pages it freed. */
export const RSS_NOISE_MB = 64;
/** Keep-alive connections come and go with the load; a leak grows with the request count instead. */
export const HANDLE_NOISE = 16;

export interface Verdict {
  ok: boolean;
  heapGrowthMb: number;
  rssGrowthMb: number;
  reasons: string[];
}

export function verdictOf(r: SoakResult): Verdict {
  const first = r.samples[1] ?? r.samples[0]!;
  const last = r.samples.at(-1)!;
  const heapGrowthMb = Math.round((last.heapUsedMb - first.heapUsedMb) * 10) / 10;
  const rssGrowthMb = Math.round((last.rssMb - first.rssMb) * 10) / 10;
  const reasons: string[] = [];
  if (heapGrowthMb > HEAP_NOISE_MB) reasons.push(`retained heap grew by ${heapGrowthMb} MB (noise allowance ${HEAP_NOISE_MB} MB)`);
  if (rssGrowthMb > RSS_NOISE_MB) reasons.push(`RSS grew by ${rssGrowthMb} MB (noise allowance ${RSS_NOISE_MB} MB)`);
  if (last.handles - first.handles > HANDLE_NOISE) reasons.push(`active handles grew from ${first.handles} to ${last.handles} (allowance ${HANDLE_NOISE})`);
  if (r.errors > 0) reasons.push(`${r.errors} requests failed at the client (no HTTP answer)`);
  return { ok: reasons.length === 0, heapGrowthMb, rssGrowthMb, reasons };
}

export function markdown(r: SoakResult, v: Verdict, when: Date): string {
  const statuses = [...r.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`).join(', ');
  const rows = r.samples.map((s, i) => `| ${i === 0 ? 'start' : i === 1 ? 'after warm-up' : s.requests} | ${s.heapUsedMb} | ${s.rssMb} | ${s.handles} |`);
  return [
    '# Soak test: last result',
    '',
    'Written by `npm run soak` (`test/soak/run.ts`, compiled to `dist/test/soak/run.js`); not part of `npm test`.',
    'One process runs the gateway, the built-in simulator and the client. The mix covers both surfaces,',
    'streamed and not, `count_tokens`, model lists, streams cancelled after their first chunk, malformed',
    'bodies, unknown keys, a rate-limited key and injected upstream faults (529, 500, reset and error event',
    'mid-stream). Memory is sampled after a full garbage collection; the first warm-up fills caches and pools,',
    'and growth is measured from the end of the warm-up. RSS also holds SQLite\'s page cache, which fills',
    'as usage rows accumulate until it reaches its size limit: a slow RSS rise early on is that cache.',
    '',
    `- run: ${when.toISOString()}, Node ${process.version}, ${process.platform}/${process.arch}`,
    `- requests: ${r.requests} at concurrency ${r.concurrency}, in ${r.seconds} s (${Math.round(r.requests / r.seconds)} req/s)`,
    `- answers by status: ${statuses}; client-side failures: ${r.errors}`,
    `- retained heap growth after warm-up: **${v.heapGrowthMb} MB** (allowance ${HEAP_NOISE_MB} MB); RSS growth: **${v.rssGrowthMb} MB** (allowance ${RSS_NOISE_MB} MB)`,
    `- verdict: **${v.ok ? 'pass: no growth beyond noise' : `FAIL: ${v.reasons.join('; ')}`}**`,
    '',
    '| requests done | heap used (MB, after GC) | RSS (MB) | active handles |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
