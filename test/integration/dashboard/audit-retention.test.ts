// GATEWAY_AUDIT_RETENTION_DAYS as a running gateway applies it: entries older than the setting are deleted
// when the gateway starts (and hourly after), newer ones stay, and the deletion is logged; a retention
// below one day is refused at start.
import t from 'tap';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config/config.js';
import { recordAudit } from '../../../src/admin/audit/record-audit.js';
import { openDatabase } from '../../../src/stores/sqlite/open.js';
import { SqliteAuditStore } from '../../../src/stores/sqlite/sqlite-audit-store.js';
import { startHarness } from '../../helpers/harness.js';
import { waitFor } from '../../helpers/wait.js';

const DAY = 86_400_000;

t.test('a starting gateway deletes the entries past the retention and keeps the rest', async (t) => {
  const url = `file:${join(t.testdir(), 'gateway.db')}`;
  const db = openDatabase(url);
  t.teardown(() => db.close());
  const audit = new SqliteAuditStore(db);
  for (const days of [45, 31, 29, 0]) {
    await recordAudit(audit, { actor: 'operator', address: null }, { action: 'customer.create', customerId: null, targetId: `aged_${days}` }, new Date(Date.now() - days * DAY));
  }
  const h = await startHarness({ env: { DATABASE_URL: url, GATEWAY_AUDIT_RETENTION_DAYS: '30' } });
  t.teardown(() => h.close());
  await waitFor(() => h.logText().includes('audit entries past their retention deleted'), 10_000);
  t.same((await audit.list()).map((r) => r.targetId), ['aged_0', 'aged_29']);
  const line = JSON.parse(h.logText().split('\n').find((l) => l.includes('audit entries past their retention deleted')) ?? '{}') as Record<string, unknown>;
  t.match(line, { deleted: 2, retentionDays: 30 });
});

t.test('the setting: 365 days by default, at least 1', async (t) => {
  t.equal(loadConfig({}).auditRetentionDays, 365);
  t.equal(loadConfig({ GATEWAY_AUDIT_RETENTION_DAYS: '7' }).auditRetentionDays, 7);
  t.throws(() => loadConfig({ GATEWAY_AUDIT_RETENTION_DAYS: '0' }), /GATEWAY_AUDIT_RETENTION_DAYS must be an integer >= 1/);
  t.throws(() => loadConfig({ GATEWAY_AUDIT_RETENTION_DAYS: 'forever' }), /GATEWAY_AUDIT_RETENTION_DAYS/);
});
