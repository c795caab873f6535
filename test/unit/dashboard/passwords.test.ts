import t from 'tap';
import { hashPassword, passwordProblem, verifyPassword } from '../../../src/dashboard/auth/passwords.js';

const cheap = { N: 1024, r: 8, p: 1 };

t.test('a hash verifies its own password only', async (t) => {
  const stored = await hashPassword('correct horse battery', cheap);
  t.match(stored, /^scrypt\$1024\$8\$1\$[\w-]+\$[\w-]+$/);
  t.notOk(stored.includes('correct horse'), 'the password is not in the stored string');
  t.equal(await verifyPassword('correct horse battery', stored), true);
  t.equal(await verifyPassword('correct horse batterY', stored), false);
  t.not(await hashPassword('correct horse battery', cheap), stored, 'a fresh salt each time');
});

t.test('the default cost works (maxmem covers it)', async (t) => {
  t.equal(await verifyPassword('pw-123456789012', await hashPassword('pw-123456789012')), true);
});

t.test('stored strings this code cannot read never verify', async (t) => {
  for (const stored of ['', 'plain', 'bcrypt$1$2$3$a$b', 'scrypt$0$8$1$AAAA$BBBB', 'scrypt$1024$8$1$AAAA$short']) {
    t.equal(await verifyPassword('x', stored), false, stored);
  }
});

t.test('password rules', async (t) => {
  const cases: Array<[string, boolean]> = [
    ['short', false],
    ['exactly12chr', true],
    ['x'.repeat(1024), true],
    ['x'.repeat(1025), false],
  ];
  for (const [pw, acceptable] of cases) t.equal(passwordProblem(pw) === null, acceptable, `${pw.length} chars`);
});
