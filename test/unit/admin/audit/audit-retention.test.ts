// Retention of the admin trail on a real SQLite store: rows older than the configured days go, newer
// ones stay; a started job prunes at once and again on its timer (waited for as events, never timed).
import t from 'tap';
import { AuditRetention, auditCutoff } from '../../../../src/admin/audit/audit-retention.js';
import { recordAudit } from '../../../../src/admin/audit/record-audit.js';
import { SqliteAuditStore } from '../../../../src/stores/sqlite/sqlite-audit-store.js';
import { openStore } from '../../keys/fixtures/store.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-06-01T12:00:00Z');

async function storeWithRowsAged(t: Parameters<typeof openStore>[0], ages: number[]): Promise<SqliteAuditStore> {
  const audit = new SqliteAuditStore(openStore(t).db);
  for (const days of ages) {
    await recordAudit(audit, { actor: 'operator', address: null }, { action: 'customer.create', customerId: null, targetId: `aged_${days}` }, new Date(NOW - days * DAY));
  }
  return audit;
}

t.test('the cutoff is whole days before now', async (t) => {
  t.equal(auditCutoff(NOW, 365).toISOString(), '2025-06-01T12:00:00.000Z');
});

t.test('prune deletes only the rows past the retention', async (t) => {
  const audit = await storeWithRowsAged(t, [400, 366, 365, 10, 0]);
  const retention = new AuditRetention(audit, { days: 365, now: () => NOW });
  t.equal(await retention.prune(), 2);
  t.same((await audit.list()).map((r) => r.targetId), ['aged_0', 'aged_10', 'aged_365'], 'a row exactly at the limit stays');
  t.equal(await retention.prune(), 0, 'nothing left to delete');
});

t.test('a started job prunes at once, then on its timer, and stops on close', async (t) => {
  const audit = await storeWithRowsAged(t, [30, 20, 1]);
  let clock = NOW;
  const runs: number[] = [];
  let ran: () => void = () => {};
  const retention = new AuditRetention(audit, {
    days: 25,
    everyMs: 5,
    now: () => clock,
    onPruned: (deleted) => {
      runs.push(deleted);
      ran();
    },
  });
  const nextRun = () => new Promise<void>((resolve) => (ran = resolve));
  const first = nextRun();
  retention.start();
  await first;
  t.same(runs, [1], 'the first run at start took the 30-day-old row');
  clock = NOW + 10 * DAY;
  // Runs in between may find nothing; wait until one took the row that aged past the limit meanwhile.
  while (!runs.includes(1, 1)) await nextRun();
  await retention.close();
  t.same((await audit.list()).map((r) => r.targetId), ['aged_1']);
  const after = runs.length;
  await new Promise((resolve) => setTimeout(resolve, 30));
  t.equal(runs.length, after, 'no run after close');
});

t.test('a failing store is reported, not thrown', async (t) => {
  const failures: unknown[] = [];
  let reported: () => void = () => {};
  const done = new Promise<void>((resolve) => (reported = resolve));
  const retention = new AuditRetention(
    { deleteOlderThan: () => Promise.reject(new Error('database down')) },
    {
      days: 1,
      onError: (err) => {
        failures.push(err);
        reported();
      },
    },
  );
  retention.start();
  await done;
  await retention.close();
  t.match(failures[0], /database down/);
});
