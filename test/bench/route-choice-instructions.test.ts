// The route-choice count's section: both counts, their difference and its share, judged against the
// goal's share of a request (the count itself is bench/tools/instructions.ts, tested in its own file).
import t from 'tap';
import { routeChoiceSection } from '../../bench/tools/route-choice-section.js';

const at = new Date('2026-11-28T13:40:00Z');

t.test('the counts, the difference and the verdict against the spread of repeated counts', async (t) => {
  const cases: Array<[number[], number[], RegExp]> = [
    [[430_000, 430_500], [431_000, 431_200], /\| 4 − 1 \| 700 \(0\.16 %\) \|[\s\S]*apart: met/],
    [[430_000, 452_000], [431_000, 440_000], /apart: \*\*not resolved\*\* by this run/],
    [[430_000, 431_000], [450_000, 452_000], /apart: \*\*missed\*\*/],
  ];
  for (const [ones, fours, want] of cases) {
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const section = routeChoiceSection({ oneRoute: median(ones), fourRoutes: median(fours), oneRoutes: ones, fourRoutesEach: fours, warmup: 20000, requests: 2000 }, at);
    t.match(section, /^## Route choice in instructions/);
    t.match(section, /2026-11-28 13:40 UTC/);
    t.match(section, `| 1 | ${median(ones).toLocaleString('en-US')} | ${ones.map((n) => n.toLocaleString('en-US')).join(', ')} |`);
    t.match(section, want);
  }
});
