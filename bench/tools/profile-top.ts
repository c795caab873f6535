// Summarises a V8 .cpuprofile (from `npm run bench -- --profile`): self time by function and by file,
// and inclusive time (the function and everything it called) for functions whose file matches a
// filter, so the hot spots can be read without a browser.
// `node dist/bench/tools/profile-top.js <file> [N] [filter, e.g. src/]`
import { readFileSync } from 'node:fs';
import { frameLabel, selfTimes, shortUrl, type CpuProfile } from '../cpu-profile.js';

export interface HotSpot {
  name: string;
  selfMs: number;
  share: number;
}

export function hotSpots(profile: CpuProfile): { byFunction: HotSpot[]; byFile: HotSpot[]; totalMs: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const { byNode, totalUs: total } = selfTimes(profile);
  const fns = new Map<string, number>();
  const files = new Map<string, number>();
  for (const [id, us] of byNode) {
    const f = byId.get(id)!.callFrame;
    add(fns, frameLabel(f), us);
    add(files, shortUrl(f.url), us);
  }
  const rank = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).map(([name, us]) => ({ name, selfMs: Math.round(us / 100) / 10, share: Math.round((us / total) * 1000) / 10 }));
  return { byFunction: rank(fns), byFile: rank(files), totalMs: Math.round(total / 1000) };
}

/** Time on the stack, per function: each sample counts once for every distinct function on its stack. */
export function inclusiveTimes(profile: CpuProfile, fileFilter: string): HotSpot[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const { byNode: sampleUs, totalUs: total } = selfTimes(profile);
  const fns = new Map<string, number>();
  for (const [leaf, us] of sampleUs) {
    const seen = new Set<string>();
    for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
      const f = byId.get(id)!.callFrame;
      if (!shortUrl(f.url).includes(fileFilter)) continue;
      const key = frameLabel(f);
      if (seen.has(key)) continue; // recursion: once per sample
      seen.add(key);
      add(fns, key, us);
    }
  }
  return [...fns].sort((a, b) => b[1] - a[1]).map(([name, us]) => ({ name, selfMs: Math.round(us / 100) / 10, share: Math.round((us / total) * 1000) / 10 }));
}

function add<K>(m: Map<K, number>, key: K, us: number): void {
  m.set(key, (m.get(key) ?? 0) + us);
}

const [file, n, filter] = process.argv.slice(2);
if (file !== undefined && process.argv[1]?.includes('profile-top')) {
  const top = Number(n ?? 30);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const { byFunction, byFile, totalMs } = hotSpots(profile);
  console.log(`total ${totalMs} ms sampled\n\nself time by function:`);
  for (const h of byFunction.slice(0, top)) console.log(`${h.share.toFixed(1).padStart(5)}%  ${h.selfMs.toFixed(1).padStart(8)} ms  ${h.name}`);
  console.log('\nself time by file:');
  for (const h of byFile.slice(0, top)) console.log(`${h.share.toFixed(1).padStart(5)}%  ${h.selfMs.toFixed(1).padStart(8)} ms  ${h.name}`);
  if (filter !== undefined) {
    console.log(`\ninclusive time by function, files matching "${filter}":`);
    for (const h of inclusiveTimes(profile, filter).slice(0, top)) console.log(`${h.share.toFixed(1).padStart(5)}%  ${h.selfMs.toFixed(1).padStart(8)} ms  ${h.name}`);
  }
}
