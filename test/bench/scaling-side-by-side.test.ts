// The scaling tool's side-by-side mode, in a file of its own (every fleet start costs seconds here): a
// fleet of one and a fleet of two run at once on stores of their own, read over the same windows.
import t from 'tap';
import { answersOf, formatScaling, runScaling, sectionOf } from '../../bench/tools/scaling.js';

t.test('side by side: fleets of one and two run at once, on stores of their own, over the same windows', async (t) => {
  const options = { sizes: [1, 2], seconds: 2, rate: 20, ratePerInstance: false, equalLoad: false, sideBySide: true, connections: 4, warmupSeconds: 1, idleSeconds: 1, settleSeconds: 1.2 };
  t.equal(sectionOf(options), 'scaling-side-by-side');
  t.equal(sectionOf({ ...options, arrivals: 'bursts' }), 'scaling-side-by-side-bursts', "autocannon's bursts have a section of their own");
  const report = await runScaling(options);
  t.ok(report.options.ratePerInstance, 'side by side implies the same load per instance');
  t.same(report.sizes.map((s) => s.instances), [1, 2]);
  for (const s of report.sizes) {
    t.ok(s.ok > 0 && s.unexpected === 0, `${s.instances} instance(s): ${answersOf(s)}`);
    t.equal(s.perInstance.length, s.instances);
    // Each fleet's counters are its own: the requests its instances served are the ones its load sent.
    const served = s.perInstance.reduce((n, p) => n + p.requests, 0);
    t.ok(served >= s.ok && served < 1.3 * s.ok, `${s.instances} instance(s): ${served} requests counted for the ${s.ok} sent`);
    t.ok(s.pgTransactions.rawPerRequest > 0 && s.redisScriptCalls.rawPerRequest > 0, `${s.instances} instance(s): its own database and Redis saw its requests`);
  }
  // The same per-instance rate: the fleet of two took about twice the requests of the fleet of one.
  const [one, two] = report.sizes;
  t.ok(two!.ok > 1.5 * one!.ok && two!.ok < 2.5 * one!.ok, `${two!.ok} requests for two instances, ${one!.ok} for one`);
  t.ok(report.cpuGrowth !== null && Number.isFinite(report.cpuGrowth), `a comparison: ${report.cpuGrowth}`);
  const section = formatScaling(report);
  t.match(section, /the fleets side by side/);
  t.match(section, /3 instances in all/);
  t.match(section, /arriving evenly spaced/, 'evenly spaced arrivals unless asked otherwise');
  t.notMatch(section, /NaN|undefined/);
});
