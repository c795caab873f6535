// Drill: PostgreSQL partitioned from the whole fleet for 10 s under steady mixed load through HAProxy.
// The instances reach PostgreSQL through a relay that drops every byte both ways (connections stay open,
// nothing answers), not a stopped server. The key the load uses is known to every instance, so no request
// may fail; /readyz stays 200 (a shared database being down is no reason to take every instance out).
// Once the relay lets traffic through, the outage's usage reaches the tables exactly once: the request
// ids in usage_records are those answered 200, none twice.
import t from 'tap';
import { countBy, CUT_MS, describe, EVENT_BOUND_MS, failed, metricOf, sleep, startDrill, startLoad, STEADY_DURING_CUT, TIMED, waitedMs } from './drill.js';
import { waitFor } from '../helpers/wait.js';

// About 30 s on an idle 2-core machine; every instance start compiles the gateway, which a busy machine slows many times over.
t.setTimeout(360_000);

const POSTGRES_UP = 'model_gateway_shared_store_up{store="postgres"}';

t.test(`PostgreSQL partitioned for ${CUT_MS / 1000} s under load: no failed request, the usage written once afterwards`, async (t) => {
  const drill = await startDrill(t, { relays: ['postgres'] });
  const { fleet } = drill;
  const origin = performance.now();
  const load = startLoad(fleet.url, drill.key, 6);
  await sleep(1000);

  const cutAt = performance.now();
  drill.relay('postgres').drop();
  let downOnAll: number | null = null;
  try {
    await waitFor(async () => (await Promise.all(drill.instanceUrls.map((u) => metricOf(u, POSTGRES_UP)))).every((v) => v === 0), TIMED ? CUT_MS - 1000 : EVENT_BOUND_MS, 200);
    downOnAll = Math.round(performance.now() - cutAt);
  } catch {
    // Reported below: the metric is detail, the requests are the contract.
  }
  await sleep(Math.max(0, cutAt + CUT_MS - performance.now()));
  const statsDuringCut = await fleet.haproxy.servers();
  const restoredAt = performance.now();
  drill.relay('postgres').restore();
  await sleep(1000);
  const outcomes = await load.stop();
  const during = outcomes.filter((o) => o.startedAt >= cutAt && o.startedAt < restoredAt);
  const slowest = Math.round(Math.max(...during.map(waitedMs)));

  const answered = outcomes.filter((o) => o.status === 200 && o.error === null);
  const unrecorded = (recorded: Set<string>) => answered.filter((o) => o.requestId === null || !recorded.has(o.requestId));
  // Every instance writes what it held (in memory or in its spill file) once PostgreSQL answers again, without a restart.
  let writtenAfter: number | null = null;
  try {
    await waitFor(async () => unrecorded(await drill.usageRequestIds()).length === 0, TIMED ? 20_000 : EVENT_BOUND_MS, 250);
    writtenAfter = Math.round(performance.now() - restoredAt);
  } catch {
    // Reported below.
  }
  await fleet.stop();
  const recorded = await drill.usageRequestIds();
  const duplicates = await drill.duplicateUsage();

  const report =
    `${outcomes.length} requests (${JSON.stringify(countBy(outcomes, (o) => o.kind))}) answered by ${JSON.stringify(countBy(outcomes, (o) => o.instance))}; ` +
    `${during.length} sent during the ${CUT_MS} ms cut (slowest wait ${slowest} ms), ${outcomes.filter(failed).length} failed; ` +
    `every instance reported PostgreSQL down ${downOnAll === null ? 'NOT within the cut' : `${downOnAll} ms into the cut`}; ` +
    `HAProxy kept ${statsDuringCut.filter((s) => s.status.startsWith('UP')).length} of ${statsDuringCut.length} instances in rotation; ` +
    `${recorded.size} usage rows for ${answered.length} answers, ${writtenAfter === null ? 'NOT all written within the bound after the restore' : `all written ${writtenAfter} ms after the restore`}, ${duplicates.length} duplicated`;
  t.comment(report);

  const failures = outcomes.filter(failed);
  t.same(failures.slice(0, 20).map((o) => describe(o, origin)), [], `no failed request for the known key: ${report}\n${failures.length > 0 ? drill.output() : ''}`);
  t.ok(during.length >= STEADY_DURING_CUT, `steady load throughout the cut (${during.length} requests sent during it)`);
  t.ok(statsDuringCut.every((s) => s.status.startsWith('UP')), 'every instance stayed in rotation (/readyz 200 with the database unreachable)');
  t.not(downOnAll, null, 'every instance reported PostgreSQL down during the cut');
  t.not(writtenAfter, null, 'the outage\'s usage was written while the instances ran on');
  t.same(unrecorded(recorded).map((o) => describe(o, origin)), [], 'the usage of every answered request is in the table, the outage\'s included');
  const answeredIds = new Set(answered.map((o) => o.requestId));
  t.same([...recorded].filter((id) => !answeredIds.has(id)), [], 'no usage row for a request not answered 200');
  t.same(duplicates, [], 'no request counted twice');
});
