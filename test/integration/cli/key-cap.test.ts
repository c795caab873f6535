// GATEWAY_MAX_KEYS_PER_CUSTOMER through the real command: `keys create` refuses a customer's key beyond
// the cap with one line on stderr naming it; a revoked key frees its place; an invalid value is refused.
import { join } from 'node:path';
import t from 'tap';
import { GATEWAY_MAIN, spawnNodeSync } from '../../helpers/child-node.js';

t.test('keys create stops at the cap of active keys per customer', async (t) => {
  const env = { PATH: process.env.PATH, DATABASE_URL: `file:${join(t.testdir(), 'gateway.db')}`, GATEWAY_MAX_KEYS_PER_CUSTOMER: '2' };
  const run = (...args: string[]) => spawnNodeSync(GATEWAY_MAIN, args, { env, encoding: 'utf8' });
  const first = run('keys', 'create', '--customer', 'acme', '--json');
  t.equal(first.status, 0, first.stderr);
  t.equal(run('keys', 'create', '--customer', 'acme').status, 0);
  const third = run('keys', 'create', '--customer', 'acme');
  t.equal(third.status, 1, 'refused');
  t.equal(third.stdout, '', 'no key printed');
  t.equal(third.stderr, 'model-gateway keys: customer "acme" already has 2 active keys, the most GATEWAY_MAX_KEYS_PER_CUSTOMER allows; revoke one first\n', 'one line naming the limit');
  t.equal(run('keys', 'create', '--customer', 'globex').status, 0, 'another customer has its own count');
  t.equal(run('keys', 'revoke', (JSON.parse(first.stdout) as { id: string }).id).status, 0);
  const afterRevoke = run('keys', 'create', '--customer', 'acme');
  t.equal(afterRevoke.status, 0, `a revoked key frees its place: ${afterRevoke.stderr}`);
  const invalid = spawnNodeSync(GATEWAY_MAIN, ['keys', 'create', '--customer', 'acme'], { env: { ...env, GATEWAY_MAX_KEYS_PER_CUSTOMER: 'many' }, encoding: 'utf8' });
  t.equal(invalid.status, 1);
  t.match(invalid.stderr, /^model-gateway: GATEWAY_MAX_KEYS_PER_CUSTOMER must be an integer >= 0, got "many"\n$/);
});
