// The scaling tool: its arithmetic, a very short real run (a fleet of two behind HAProxy: one size, as
// every fleet start costs seconds here) that produces every number of its section, and one with equal
// load (a fleet of one beside a companion, then a fleet of two).
import t from 'tap';
import { answersOf, commandCalls, formatScaling, growth, runScaling, sectionOf, split } from '../../bench/tools/scaling.js';

// Each run starts a fleet (instances, HAProxy) per size, a few seconds of CPU each: the file had 48 s of
// wall time on an idle machine and passed tap's 120 s at a load of 15 (a full suite beside other work).
// Room for a loaded machine; the work itself is as short as shows every number produced.
t.setTimeout(400_000);

t.test('a counter splits into the idle rate per instance and what each request adds', async (t) => {
  const cases = [
    // 2 instances idle 10 over 5 s (1/s each); under load 110 over 10 s for 50 requests: 20 of it idle.
    { idle: 10, idleSec: 5, loaded: 110, loadedSec: 10, requests: 50, instances: 2, want: { idlePerInstancePerSecond: 1, perRequest: 1.8, rawPerRequest: 2.2 } },
    { idle: 0, idleSec: 4, loaded: 30, loadedSec: 3, requests: 10, instances: 1, want: { idlePerInstancePerSecond: 0, perRequest: 3, rawPerRequest: 3 } },
  ];
  for (const c of cases) t.same(split(c.idle, c.idleSec, c.loaded, c.loadedSec, c.requests, c.instances), c.want);
  t.same(growth({ a: 1, b: 5 }, { a: 4, b: 5, c: 2 }), { a: 3, b: 0, c: 2 }, 'a counter new in the second snapshot started at 0');
});

t.test('INFO commandstats: calls per command, INFO itself left out', async (t) => {
  const info = '# Commandstats\r\ncmdstat_evalsha:calls=12,usec=300,usec_per_call=25.00\r\ncmdstat_info:calls=3,usec=9\r\ncmdstat_hset:calls=6,usec=6\r\n';
  t.same(commandCalls(info), { evalsha: { calls: 12, usec: 300 }, hset: { calls: 6, usec: 6 } });
});

t.test('a very short run with 2 instances produces its numbers', async (t) => {
  const report = await runScaling({ sizes: [2], seconds: 2, rate: 40, ratePerInstance: false, equalLoad: false, connections: 4, warmupSeconds: 1, idleSeconds: 1, settleSeconds: 1.2 });
  t.same(report.sizes.map((s) => s.instances), [2]);
  for (const s of report.sizes) {
    const at = `${s.instances} instance(s)`;
    t.ok(s.ok > 0 && s.unexpected === 0, `${at}: ${answersOf(s)}`);
    t.equal(s.perInstance.length, s.instances, `${at}: one cost per instance`);
    t.ok(s.perInstance.every((p) => p.requests > 0 && p.cpu.rawPerRequest > 0), `${at}: every instance served requests and spent CPU on them`);
    t.ok(s.cpu.rawPerRequest > 0 && Number.isFinite(s.cpu.perRequest), `${at}: CPU per request ${s.cpu.perRequest} µs (${s.cpu.rawPerRequest} raw)`);
    // Every request wakes an event loop (its arrival, the upstream's answer); at this low rate the idle timers' wake-ups count too.
    t.ok(s.wakeups.rawPerRequest > 0 && Number.isFinite(s.wakeups.perRequest), `${at}: ${s.wakeups.rawPerRequest} event-loop wake-ups per request`);
    t.ok(Number.isFinite(s.preempted.rawPerRequest) && s.preempted.rawPerRequest >= 0, `${at}: ${s.preempted.rawPerRequest} preemptions per request`);
    // The key has a limit, so the limiter asks Redis. At this rate a key is seldom busy enough to lease
    // from (a lease is wanted for 4 acquires or more since the key's last script): most requests take
    // a script of their own, a burst of the connections now and then takes a lease.
    t.ok(s.redisScriptCalls.rawPerRequest > 0.5, `${at}: Redis script calls per request ${s.redisScriptCalls.rawPerRequest}`);
    t.ok(s.redisCommands.rawPerRequest >= s.redisScriptCalls.rawPerRequest, `${at}: Redis commands per request ${s.redisCommands.rawPerRequest}`);
    t.ok(s.redisScriptUsec.rawPerRequest > 0, `${at}: Redis µs in scripts per request ${s.redisScriptUsec.rawPerRequest}`);
    t.ok(s.pgTransactions.rawPerRequest > 0, `${at}: PostgreSQL transactions per request ${s.pgTransactions.rawPerRequest}`);
    t.ok(s.usage.rows > 0 && s.usage.rowsPerTransaction >= 1, `${at}: ${s.usage.rowsPerTransaction} usage rows per transaction`);
    t.ok(s.usage.bytesPerRow > 0, `${at}: ${s.usage.bytesPerRow} bytes per usage row on disk`);
  }
  t.equal(report.cpuGrowth, null, 'one size: nothing to compare');
  const section = formatScaling(report);
  t.match(section, /^\| 2 \| /m, 'a row for the fleet of two');
  t.match(section, /One fleet size only/);
  // The comparison line, from two sizes of this run's numbers.
  const twoSizes = formatScaling({ ...report, sizes: [report.sizes[0]!, report.sizes[0]!], cpuGrowth: 1, rawCpuGrowth: 1 });
  t.match(twoSizes, /what a request adds \*\*1\*\* \(target ≤ 1\.1: met\)/);
  t.notMatch(section, /NaN|undefined/, 'every number is there');
});

t.test('equal load: a fleet of one runs beside a companion, both sizes measured and compared', async (t) => {
  // In autocannon's bursts, so both ways of sending the load run here.
  const options = { sizes: [1, 2], seconds: 2, rate: 20, ratePerInstance: true, equalLoad: true, arrivals: 'bursts' as const, connections: 4, warmupSeconds: 1, idleSeconds: 1, settleSeconds: 1.2 };
  t.equal(sectionOf(options), 'scaling-equal-load-bursts');
  const report = await runScaling(options);
  t.same(report.sizes.map((s) => s.instances), [1, 2]);
  for (const s of report.sizes) {
    t.ok(s.ok > 0 && s.unexpected === 0, `${s.instances} instance(s): ${answersOf(s)}`);
    // Only the measured fleet's instances are counted, the companion's requests not.
    t.equal(s.perInstance.length, s.instances);
    const served = s.perInstance.reduce((n, p) => n + p.requests, 0);
    // The companion takes as many again: counted, they would double the fleet's count.
    t.ok(served < 1.5 * s.ok, `the requests counted (${served}) are about the fleet's own ${s.ok}, not the companion's too`);
  }
  t.ok(report.cpuGrowth !== null && Number.isFinite(report.cpuGrowth), `a comparison: ${report.cpuGrowth}`);
  const section = formatScaling(report);
  t.match(section, /the machine equally loaded/);
  t.match(section, /companions \(2 instances in all/);
  t.match(section, /arriving in bursts/);
  t.notMatch(section, /NaN|undefined/);
});
