// The route-choice count's section: both counts, their difference and its share, judged against the
// goal's share of a request (the count itself is bench/tools/instructions.ts, tested in its own file).
import t from 'tap';
import { routeChoiceSection } from '../../bench/tools/route-choice-instructions.js';

const at = new Date('2026-11-28T13:40:00Z');

t.test('the counts, the difference and the verdict', async (t) => {
  const cases: Array<[number, number, RegExp]> = [
    [430_000, 431_200, /\| 4 − 1 \| 1,200 \(0\.28 %\) \|[\s\S]*: met \(0\.28 %\)/],
    [430_000, 439_000, /\| 4 − 1 \| 9,000 \(2\.09 %\) \|[\s\S]*: at the edge \(2\.09 %\)/],
    [430_000, 450_000, /: \*\*missed\*\* \(4\.65 %\)/],
  ];
  for (const [one, four, want] of cases) {
    const section = routeChoiceSection({ oneRoute: one, fourRoutes: four, warmup: 2000, requests: 500 }, at);
    t.match(section, /^## Route choice in instructions/);
    t.match(section, /2026-11-28 13:40 UTC/);
    t.match(section, `| 1 | ${one.toLocaleString('en-US')} |`);
    t.match(section, want);
  }
});
