import t from 'tap';
import { SignInThrottle } from '../../../src/dashboard/auth/throttle.js';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const rule = { maxFailures: 3, windowMs: 60_000 };
const wide = { maxFailures: 100, windowMs: 60_000 };

t.test('an account at its limit is refused until its oldest failure leaves the window', async (t) => {
  const c = clock();
  const th = new SignInThrottle({ account: rule, address: wide, now: c.now });
  const s = { account: 'a@x', address: '1.1.1.1' };
  for (let i = 0; i < 3; i++) {
    t.equal(th.begin(s), 0, `attempt ${i + 1} admitted`);
    c.advance(1000);
  }
  t.equal(th.begin(s), 57_000, 'fourth refused until the first failure is a window old');
  c.advance(57_000);
  t.equal(th.begin(s), 0, 'admitted again once the window slid');
});

t.test('a success forgives the account but not the address', async (t) => {
  const c = clock();
  const th = new SignInThrottle({ account: rule, address: { maxFailures: 4, windowMs: 60_000 }, now: c.now });
  const guess = { account: 'victim@x', address: '9.9.9.9' };
  th.begin(guess);
  th.begin(guess);
  const good = { account: 'me@x', address: '9.9.9.9' };
  t.equal(th.begin(good), 0);
  th.succeeded(good);
  t.equal(th.begin(guess), 0, 'third guess admitted (account limit 3)');
  t.ok(th.begin(guess) > 0, 'fourth guess on the account refused');
  t.equal(th.begin({ account: 'other@x', address: '9.9.9.9' }), 0, 'address has one attempt left (the success was forgiven)');
  t.ok(th.begin({ account: 'third@x', address: '9.9.9.9' }) > 0, 'address at its limit refuses every account');
});

t.test('parallel attempts are counted before they are judged', async (t) => {
  const th = new SignInThrottle({ account: rule, address: wide });
  const s = { account: 'a@x', address: '2.2.2.2' };
  const admitted = Array.from({ length: 10 }, () => th.begin(s)).filter((w) => w === 0).length;
  t.equal(admitted, 3);
});

t.test('memory stays bounded', async (t) => {
  const th = new SignInThrottle({ account: rule, address: wide, maxSubjects: 10 });
  for (let i = 0; i < 100; i++) th.begin({ account: `u${i}`, address: 'same' });
  // The oldest accounts were forgotten; the address (touched last) is still counted.
  t.equal(th.begin({ account: 'u0', address: 'other' }), 0);
  t.ok(th.begin({ account: 'new', address: 'same' }) > 0, 'the address reached 100 failures');
});
