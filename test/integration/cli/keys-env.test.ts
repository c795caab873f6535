// The key and usage commands read only DATABASE_URL: settings that matter to `serve` alone (a missing
// upstream key in production, a malformed limit) must not stop an operator from managing keys.
import { join } from 'node:path';
import t from 'tap';
import { GATEWAY_MAIN, spawnNodeSync } from '../../helpers/child-node.js';

t.test('keys and usage run in a production environment without an upstream key or with a broken serve setting', async (t) => {
  const dir = t.testdir();
  const env = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    DATABASE_URL: `file:${join(dir, 'gateway.db')}`,
    GATEWAY_CUSTOMER_LIMITS: 'not a valid limit list',
  };
  const run = (...args: string[]) => spawnNodeSync(GATEWAY_MAIN, [...args], { env, encoding: 'utf8' });
  const created = run('keys', 'create', '--customer', 'acme');
  t.equal(created.status, 0, created.stderr);
  t.match(created.stdout, /^mgw_/);
  const listed = run('keys', 'list');
  t.equal(listed.status, 0, listed.stderr);
  t.match(listed.stdout, /acme/);
  const usage = run('usage');
  t.equal(usage.status, 0, usage.stderr);
  const serve = run('serve');
  t.equal(serve.status, 1, 'serve still refuses the same environment');
  t.match(serve.stderr, /model-gateway: /);
});
