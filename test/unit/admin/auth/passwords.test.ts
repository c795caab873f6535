import t from 'tap';
import { OWASP_SCRYPT_COST, parseHash, PasswordHasher, passwordProblem } from '../../../../src/admin/auth/passwords.js';

const cheap = new PasswordHasher({ N: 1024, r: 8, p: 1 });

t.test('a hash verifies its own password only', async (t) => {
  const stored = await cheap.hash('correct horse battery');
  t.match(stored, /^scrypt\$1024\$8\$1\$[\w-]+\$[\w-]+$/);
  t.notOk(stored.includes('correct horse'), 'the password is not in the stored string');
  t.same(await cheap.check('correct horse battery', stored), { matches: true, outdated: false });
  t.same(await cheap.check('correct horse batterY', stored), { matches: false, outdated: false });
  t.not(await cheap.hash('correct horse battery'), stored, 'a fresh salt each time');
});

t.test('the default cost is OWASP scrypt (N=2^17, r=8, p=1), and maxmem covers it', async (t) => {
  t.same(OWASP_SCRYPT_COST, { N: 131072, r: 8, p: 1 });
  const hasher = new PasswordHasher();
  // The hash runs on the libuv pool: the event loop keeps turning meanwhile (scryptSync would freeze it,
  // and the loop below would turn once, after the hash). Counted in turns, not milliseconds: a loaded
  // machine slows both alike.
  let hashing = true;
  let turns = 0;
  const turn = () => {
    turns++;
    if (hashing) setImmediate(turn);
  };
  setImmediate(turn);
  const stored = await hasher.hash('pw-123456789012');
  hashing = false;
  t.match(stored, /^scrypt\$131072\$8\$1\$/);
  t.same(await hasher.check('pw-123456789012', stored), { matches: true, outdated: false });
  t.ok(turns > 1, `the event loop kept turning while the hash ran (${turns} turns)`);
});

t.test('a hash made at another cost still verifies, and is reported outdated', async (t) => {
  const old = await new PasswordHasher({ N: 512, r: 8, p: 1 }).hash('an older password');
  t.same(await cheap.check('an older password', old), { matches: true, outdated: true });
  t.same(await cheap.check('a wrong password!', old), { matches: false, outdated: true });
});

t.test('the decoy is a hash at the hasher own cost, made once', async (t) => {
  const decoy = await cheap.decoy();
  t.same(parseHash(decoy)?.cost, { N: 1024, r: 8, p: 1 });
  t.equal(await cheap.decoy(), decoy);
});

t.test('stored strings this code cannot read never verify', async (t) => {
  const key = Buffer.alloc(32).toString('base64url');
  const unreadable = [
    '',
    'plain',
    `bcrypt$1024$8$1$AAAA$${key}`,
    `scrypt$0$8$1$AAAA$${key}`,
    `scrypt$1000$8$1$AAAA$${key}`, // N not a power of two
    `scrypt$1073741824$8$1$AAAA$${key}`, // far beyond any cost this code uses
    'scrypt$1024$8$1$AAAA$short',
  ];
  for (const stored of unreadable) t.same(await cheap.check('x', stored), { matches: false, outdated: false }, stored);
});

t.test('several hashes at once all finish (later ones wait for a slot)', async (t) => {
  const passwords = Array.from({ length: 7 }, (_, i) => `password number ${i}`);
  const stored = await Promise.all(passwords.map((pw) => cheap.hash(pw)));
  const checks = await Promise.all(passwords.map((pw, i) => cheap.check(pw, stored[i])));
  t.ok(checks.every((c) => c.matches));
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
