// The CLI in its own process against the file a running gateway holds open: keys it creates work at once,
// keys it revokes are refused after the gateway's next refresh.
import t from 'tap';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../../src/stores/sqlite/open.js';
import { KeyCache } from '../../../src/keys/key-cache.js';
import { parseKey } from '../../../src/keys/key-format.js';
import { SqliteKeyStore } from '../../../src/stores/sqlite/sqlite-key-store.js';
import { SqliteUsageStore } from '../../../src/stores/sqlite/sqlite-usage-store.js';
import { UsageWriter } from '../../../src/metering/usage-writer.js';
import { runNode } from '../../helpers/child-node.js';
import { usageRecord } from '../../unit/metering/fixtures/usage-record.js';
import { waitFor } from '../../helpers/wait.js';
import { tempCli } from './fixtures/cli.js';

const script = fileURLToPath(new URL('./fixtures/run-cli.js', import.meta.url));
const cliProcess = (url: string, argv: string[]) => runNode(script, argv, { TEST_DATABASE_URL: url });

t.test('a CLI process and a serving process share one database file', async (t) => {
  const { url } = tempCli(t);
  const db = openDatabase(url);
  const cache = new KeyCache(new SqliteKeyStore(db), { refreshMs: 50, lastUsedFlushMs: 20 });
  await cache.start();
  const writer = new UsageWriter(new SqliteUsageStore(db), { flushMs: 20 });
  t.teardown(async () => {
    await cache.close();
    await writer.close();
    db.close();
  });

  const created = await cliProcess(url, ['keys', 'create', '--customer', 'acme']);
  t.equal(created.code, 0, created.stderr);
  const key = created.stdout.trim();
  const first = await cache.authenticateAsync(key);
  t.ok(first.ok, 'a key made by another process works at once');
  if (first.ok) writer.record(usageRecord({ customerId: first.principal.customerId, keyId: first.principal.keyId }));
  await writer.flush();

  // The CLI reads and writes the file while this process holds it open and keeps writing to it.
  const id = parseKey(key)?.publicId ?? '';
  const [usage, revoked] = await Promise.all([
    cliProcess(url, ['usage', '--customer', 'acme', '--json']),
    cliProcess(url, ['keys', 'revoke', id]),
  ]);
  t.equal(usage.code, 0, usage.stderr);
  t.equal((JSON.parse(usage.stdout) as { totals: { requests: number } }).totals.requests, 1);
  t.equal(revoked.code, 0, revoked.stderr);
  await waitFor(() => !cache.authenticate(key).ok, 5000, 10); // the interface promises refusal within 5 s
  t.same(cache.authenticate(key), { ok: false, reason: 'revoked' });
});
