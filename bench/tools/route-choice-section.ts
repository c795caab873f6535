// The section of bench/RESULTS.md that bench/tools/route-choice-instructions.ts writes: the two counts,
// their difference and its share, judged against the goal. In a module of its own, without the counting
// (valgrind, the load generator, the bench's processes), so its test loads only this.

/** Four routes may add at most this much CPU per request over one (issue 31). */
const GOAL_US = 5;

export interface RouteChoiceCount {
  /** The median of the counts of each. */
  oneRoute: number;
  fourRoutes: number;
  /** Every count, in the order taken (one route, four routes, one route, ...). */
  oneRoutes?: number[];
  fourRoutesEach?: number[];
  warmup: number;
  requests: number;
}

/** The section: the two counts, their difference, and that difference against the goal. */
export function routeChoiceSection(c: RouteChoiceCount, at: Date): string {
  const added = c.fourRoutes - c.oneRoute;
  const share = (100 * added) / c.oneRoute;
  // How far repeated counts of one configuration lie apart: a difference inside it is not resolved.
  const spreadOf = (xs: number[]) => (100 * (Math.max(...xs) - Math.min(...xs))) / Math.min(...xs);
  const spread = Math.max(spreadOf(c.oneRoutes ?? [c.oneRoute]), spreadOf(c.fourRoutesEach ?? [c.fourRoutes]));
  const goalShare = 2;
  const verdict = share + spread <= goalShare ? 'met' : share - spread > goalShare ? '**missed**' : '**not resolved**';
  return [
    '## Route choice in instructions (`bench/tools/route-choice-instructions.ts`)',
    '',
    `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC. The gateway's main-thread instructions per request on the messages pass-through under valgrind ` +
      `(${c.warmup} warm-up, ${c.requests} counted requests each), one route against four (weights 1 to 4) to the same simulator. ` +
      'Instructions repeat to about 1 % where CPU time on this shared machine does not resolve a few microseconds.',
    '',
    '| routes | instructions per request (median) | each count |',
    '|---|---:|---|',
    `| 1 | ${c.oneRoute.toLocaleString('en-US')} | ${(c.oneRoutes ?? [c.oneRoute]).map((n) => n.toLocaleString('en-US')).join(', ')} |`,
    `| 4 | ${c.fourRoutes.toLocaleString('en-US')} | ${(c.fourRoutesEach ?? [c.fourRoutes]).map((n) => n.toLocaleString('en-US')).join(', ')} |`,
    `| 4 − 1 | ${added.toLocaleString('en-US')} (${share.toFixed(2)} %) | |`,
    '',
    `Goal: four routes add at most ${GOAL_US} µs of CPU per request. A request here is some 200 to 300 µs of CPU (the routes A/B above), so ${GOAL_US} µs is ` +
      `about ${goalShare} % of its instructions. The difference is ${share.toFixed(2)} %; repeated counts of one configuration lay up to ${spread.toFixed(2)} % apart: ` +
      `${verdict}${verdict === 'met' ? ' (the difference plus that spread is within the goal)' : verdict === '**missed**' ? ' (beyond the goal by more than that spread)' : ' by this run (the spread straddles the goal)'}.`,
  ].join('\n');
}
