// Drill: a rolling restart of the whole fleet under steady mixed load through HAProxy. Each instance in
// turn gets SIGTERM, drains (/readyz 503 while still serving, then in-flight requests and streams
// finish), exits, starts again and is waited for until HAProxy has it back. Not one request may fail,
// every stream must end with its final event, and no usage may be lost (SIGTERM flushes it).
import t from 'tap';
import { countBy, describe, failed, sleep, startDrill, startLoad } from './drill.js';

// About 40 s on an idle 2-core machine; every instance start compiles the gateway, which a busy machine slows many times over.
t.setTimeout(360_000);

t.test('rolling restart of all three instances under load: zero failed requests', async (t) => {
  const drill = await startDrill(t);
  const { fleet } = drill;
  const origin = performance.now();
  const load = startLoad(fleet.url, drill.key, 6);
  await sleep(1500);

  const steps: string[] = [];
  const backAt = new Map<string, number>();
  for (const instance of fleet.instances) {
    const at = Math.round(performance.now() - origin);
    const timing = await fleet.restart(instance);
    backAt.set(instance.name, performance.now());
    t.equal(timing.exitCode, 0, `${instance.name} exited cleanly after its drain`);
    steps.push(
      `${instance.name} at +${at} ms: exited after ${Math.round(timing.stoppedMs)} ms, listening again after ${Math.round(timing.listeningMs)} ms, in rotation after ${Math.round(timing.inRotationMs)} ms`,
    );
  }
  await sleep(1000);
  const outcomes = await load.stop();
  const stats = await fleet.haproxy.servers();
  const report = `${outcomes.length} requests (${JSON.stringify(countBy(outcomes, (o) => o.kind))}), answered by ${JSON.stringify(countBy(outcomes, (o) => o.instance))}, drain delay ${fleet.drainDelayMs} ms; ${steps.join('; ')}`;
  t.comment(report);

  const failures = outcomes.filter(failed);
  t.same(failures.map((o) => describe(o, origin)), [], `zero failed requests and every stream complete: ${report}\n${failures.length > 0 ? drill.output() : ''}`);
  // HAProxy replays a refused connection on another instance, which would hide an instance that closed
  // its port while still in rotation; the drain delay is there so that this never happens.
  const refused = stats.map((s) => `${s.name}: ${s.connectionErrors} refused, ${s.retries} retried`).join(', ');
  t.ok(stats.every((s) => s.connectionErrors === 0 && s.retries === 0), `HAProxy never sent a request to an instance that was not listening (${refused})`);
  t.ok(outcomes.length >= 60, `steady load throughout (${outcomes.length} requests)`);
  const streams = outcomes.filter((o) => o.kind.endsWith('-stream'));
  t.ok(streams.length >= 20, `streams among them (${streams.length}), each ending with its final event`);
  for (const instance of fleet.instances) {
    const after = outcomes.filter((o) => o.instance === instance.name && o.startedAt > backAt.get(instance.name)!).length;
    t.ok(after > 0, `the restarted ${instance.name} takes traffic again (${after} requests once back in rotation)`);
  }

  // SIGTERM drains flushed usage; the last generation flushes at this stop.
  await fleet.stop();
  const recorded = await drill.usageRequestIds();
  const missing = outcomes.filter((o) => o.status === 200 && (o.requestId === null || !recorded.has(o.requestId)));
  t.same(missing.map((o) => describe(o, origin)), [], `usage of every 200 answer is in PostgreSQL (${recorded.size} rows for ${outcomes.filter((o) => o.status === 200).length} answers)`);
});
