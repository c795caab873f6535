// Drill: Redis partitioned from the whole fleet for 10 s under steady mixed load through HAProxy. The
// instances reach Redis through a relay that drops every byte both ways; the load's key has a limit, so
// every request asks the limiter. No request may fail or wait 1 s or more (a stream: for its headers,
// its first byte), and every instance reports Redis down during the cut and up again after it.
import t from 'tap';
import { countBy, CUT_MS, describe, EVENT_BOUND_MS, failed, metricOf, sleep, startDrill, startLoad, STEADY_DURING_CUT, TIMED, timingClaim, waitedMs } from './drill.js';
import { waitFor } from '../helpers/wait.js';

// About 30 s on an idle 2-core machine; every instance start compiles the gateway, which a busy machine slows many times over.
t.setTimeout(360_000);

const SLOW_MS = 1000;
const REDIS_UP = 'model_gateway_shared_store_up{store="redis"}';

t.test(`Redis partitioned for ${CUT_MS / 1000} s under load: no failed request${TIMED ? ', none slower than 1 s' : ''}`, async (t) => {
  const drill = await startDrill(t, { relays: ['redis'] });
  const { fleet } = drill;
  const redisUp = () => Promise.all(drill.instanceUrls.map((u) => metricOf(u, REDIS_UP)));
  /** ms until every instance reports `value`; null when not within the bound. */
  const allReport = async (value: number, boundMs: number) => {
    const from = performance.now();
    try {
      await waitFor(async () => (await redisUp()).every((v) => v === value), boundMs, 100);
      return Math.round(performance.now() - from);
    } catch {
      return null;
    }
  };
  const origin = performance.now();
  const load = startLoad(fleet.url, drill.key, 6);
  await sleep(1000);
  // Every instance up before the cut: waited for, since on a loaded machine a slow call may open an
  // instance's breaker for a moment (its probe closes it again).
  const upBefore = await allReport(1, EVENT_BOUND_MS);
  const before = upBefore === null ? await redisUp() : [1, 1, 1];

  const cutAt = performance.now();
  drill.relay('redis').drop();
  const downAfter = await allReport(0, TIMED ? CUT_MS - 1000 : EVENT_BOUND_MS);
  await sleep(Math.max(0, cutAt + CUT_MS - performance.now()));
  const atEndOfCut = await redisUp();
  const restoredAt = performance.now();
  drill.relay('redis').restore();
  const upAfter = await allReport(1, TIMED ? 10_000 : EVENT_BOUND_MS);
  await sleep(500);
  const outcomes = await load.stop();

  const during = outcomes.filter((o) => o.startedAt >= cutAt && o.startedAt < restoredAt);
  const slowestDuring = Math.round(Math.max(...during.map(waitedMs)));
  const slow = outcomes.filter((o) => waitedMs(o) >= SLOW_MS);
  const report =
    `${outcomes.length} requests (${JSON.stringify(countBy(outcomes, (o) => o.kind))}) answered by ${JSON.stringify(countBy(outcomes, (o) => o.instance))}; ` +
    `${during.length} sent during the ${CUT_MS} ms cut, slowest wait then ${slowestDuring} ms (streams: to their headers), ${outcomes.filter(failed).length} failed; ` +
    `${REDIS_UP} per instance: ${before.join(',')} before, ${atEndOfCut.join(',')} at the end of the cut (all 0 ${downAfter === null ? 'NEVER' : `${downAfter} ms into it`}), ` +
    `all 1 again ${upAfter === null ? 'NOT within the bound' : `${upAfter} ms`} after the restore`;
  t.comment(report);

  const failures = outcomes.filter(failed);
  t.same(failures.slice(0, 20).map((o) => describe(o, origin)), [], `no failed request: ${report}\n${failures.length > 0 ? drill.output() : ''}`);
  const slowList = slow.slice(0, 20).map((o) => `${describe(o, origin)} waited ${Math.round(waitedMs(o))} ms`);
  timingClaim(t, slow.length === 0, `no request waited ${SLOW_MS} ms or more${slowList.length > 0 ? `: ${slowList.join('; ')}` : ''}`);
  t.ok(during.length >= STEADY_DURING_CUT, `steady load throughout the cut (${during.length} requests sent during it)`);
  t.ok(upBefore !== null, `Redis up on every instance before the cut (${before.join(',')})`);
  t.same(atEndOfCut, [0, 0, 0], 'Redis down on every instance during the cut');
  t.not(upAfter, null, 'Redis up again on every instance after the restore');
});
