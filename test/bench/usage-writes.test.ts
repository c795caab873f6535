// The usage-writes tool runs each store and reads the event loop's delay while the rows go in.
import t from 'tap';
import { measureWrites } from '../../bench/tools/usage-writes.js';

t.test('each way of writing usage rows is measured over real writes', async (t) => {
  for (const mode of ['none', 'inline', 'thread'] as const) {
    const d = await measureWrites(mode, 0.4, 2);
    t.equal(d.mode, mode);
    t.ok(d.rows >= 100, `${mode}: ${d.rows} rows recorded`);
    t.ok(d.p50 > 0 && d.p50 <= d.p99 && d.p99 <= d.p999 && d.p999 <= d.max, `${mode}: percentiles in order (${d.p50} / ${d.p99} / ${d.p999} / ${d.max} ms)`);
  }
});
