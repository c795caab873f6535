// `model-gateway serve` stopped by SIGTERM writes the usage it still holds before it exits (the rows
// wait in memory for the next batch; the shutdown must write them, not drop them).
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import t from 'tap';
import { request } from 'undici';
import { openDatabase } from '../../../src/stores/sqlite/open.js';
import { GATEWAY_MAIN, spawnNode, spawnNodeSync } from '../../helpers/child-node.js';

t.test('usage recorded before SIGTERM is in the database after the exit', async (t) => {
  const dir = t.testdir();
  const env = {
    PATH: process.env.PATH,
    DATABASE_URL: `file:${join(dir, 'gateway.db')}`,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    GATEWAY_ADMIN_TOKEN: 'mgwadm_shutdown_test_token_0123456789',
    // Far longer than the test: only the shutdown flush can write the rows.
    GATEWAY_USAGE_FLUSH_MS: '600000',
    GATEWAY_SHUTDOWN_GRACE_MS: '2000',
  };
  const created = spawnNodeSync(GATEWAY_MAIN, ['keys', 'create', '--customer', 'acme'], { env, encoding: 'utf8' });
  t.equal(created.status, 0, created.stderr);
  const key = created.stdout.trim();

  const child = spawnNode(GATEWAY_MAIN, ['serve'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.includes('model-gateway listening')) resolve((JSON.parse(line) as { port: number }).port);
    });
  });

  for (let i = 0; i < 3; i++) {
    const res = await request(`http://127.0.0.1:${port}/gateway/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    });
    t.equal(res.statusCode, 200);
    await res.body.text();
  }
  child.kill('SIGTERM');
  t.equal(await exited, 0, 'a clean exit');

  const db = openDatabase(env.DATABASE_URL);
  t.teardown(() => db.close());
  const { n } = db.prepare('SELECT count(*) AS n FROM usage_records').get() as { n: number };
  t.equal(n, 3, 'every request of the session is recorded');
});
