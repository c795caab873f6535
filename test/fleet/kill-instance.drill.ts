// Drill: `kill -9` of one instance under steady mixed load through HAProxy. Only the requests in flight
// on it may fail (a request sent after it died is redispatched: the connection was refused, so nothing
// ran twice); HAProxy takes it out of rotation within its check interval × fall; the usage it lost is
// at most what it answered within its last flush interval.
import t from 'tap';
import { countBy, describe, DRILL_CHECK, EVENT_BOUND_MS, failed, sleep, startDrill, startLoad, TIMED, timingClaim, USAGE_FLUSH_MS } from './drill.js';

// About 25 s on an idle 2-core machine; every instance start compiles the gateway, which a busy machine slows many times over.
t.setTimeout(360_000);

/** A flush under way when the process died (its batch still being written) and clocks read in two processes. */
const FLUSH_MARGIN_MS = 500;

t.test('kill -9 of one instance under load: only its in-flight requests fail', async (t) => {
  const drill = await startDrill(t);
  const { fleet } = drill;
  const victim = fleet.instances[1];
  const origin = performance.now();
  const load = startLoad(fleet.url, drill.key, 6);
  await sleep(2000);

  const killedAt = performance.now();
  await victim.stop('SIGKILL');
  const goneAt = performance.now();
  await fleet.haproxy.waitFor(victim.name, 'DOWN', TIMED ? 10_000 : EVENT_BOUND_MS);
  const downAfterKill = Math.round(performance.now() - killedAt);
  const sessionsAtDown = (await fleet.haproxy.servers()).find((s) => s.name === victim.name)!;
  await sleep(2000);
  const outcomes = await load.stop();
  const sessionsAtEnd = (await fleet.haproxy.servers()).find((s) => s.name === victim.name)!;

  const inFlightAtKill = outcomes.filter((o) => o.startedAt < goneAt && o.endedAt > killedAt);
  const failures = outcomes.filter(failed);
  const report =
    `${outcomes.length} requests (${JSON.stringify(countBy(outcomes, (o) => o.kind))}) answered by ${JSON.stringify(countBy(outcomes, (o) => o.instance))}; ` +
    `${inFlightAtKill.length} in flight on the fleet at the kill, ${failures.length} failed; ` +
    `haproxy reported ${victim.name} DOWN ${downAfterKill} ms after the kill (checks every ${DRILL_CHECK.interMs} ms, fall ${DRILL_CHECK.fall}), ` +
    `${sessionsAtDown.connectionErrors} refused connections redispatched`;
  t.comment(report);

  const notInFlight = failures.filter((o) => !(o.startedAt < goneAt && o.endedAt > killedAt));
  t.same(notInFlight.map((o) => describe(o, origin)), [], `every failed request was in flight when the instance died: ${report}\n${notInFlight.length > 0 ? drill.output() : ''}`);
  const fromSurvivors = failures.filter((o) => o.instance !== null && o.instance !== victim.name);
  t.same(fromSurvivors.map((o) => describe(o, origin)), [], 'no request answered by another instance failed');
  t.ok(failures.length <= inFlightAtKill.length, `failures (${failures.length}) ≤ requests in flight at the kill (${inFlightAtKill.length})`);
  const afterDeath = outcomes.filter((o) => o.startedAt >= goneAt);
  t.ok(afterDeath.length > 0, `the load went on after the death (${afterDeath.length} requests)`);
  t.same(afterDeath.filter(failed).map((o) => describe(o, origin)), [], `all ${afterDeath.length} requests sent after the death succeeded`);

  const budgetMs = DRILL_CHECK.interMs * (DRILL_CHECK.fall + 1) + 500;
  timingClaim(t, downAfterKill <= budgetMs, `HAProxy took ${victim.name} out within ${budgetMs} ms (took ${downAfterKill} ms)`);
  t.equal(sessionsAtEnd.sessions, sessionsAtDown.sessions, `no session went to ${victim.name} once it was DOWN (${sessionsAtEnd.sessions} in all)`);

  // The survivors flush what they hold when stopped; what the dead one held since its last flush is gone.
  await fleet.stop();
  const recorded = await drill.usageRequestIds();
  const answered = outcomes.filter((o) => o.status === 200 && o.error === null);
  const lost = answered.filter((o) => o.requestId === null || !recorded.has(o.requestId));
  const windowStart = killedAt - USAGE_FLUSH_MS - FLUSH_MARGIN_MS;
  const oldest = lost.length === 0 ? 0 : Math.round(killedAt - Math.min(...lost.map((o) => o.endedAt)));
  const lostMessage = `usage lost: ${lost.length} of ${answered.length} answers, all answered by ${victim.name} within its flush interval (${USAGE_FLUSH_MS} ms) before the kill (oldest ${oldest} ms before)`;
  // Only the victim's unflushed usage may be lost; how recent it is depends on its flush timer firing on time.
  t.same(lost.filter((o) => o.instance !== victim.name).map((o) => describe(o, origin)), [], `usage lost only on ${victim.name}`);
  timingClaim(t, lost.every((o) => o.endedAt >= windowStart), lostMessage);
  t.ok(recorded.size >= answered.length - lost.length, `${recorded.size} usage rows in PostgreSQL`);
});
