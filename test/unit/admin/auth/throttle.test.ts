import t from 'tap';
import { accountDelayMs, SignInThrottle } from '../../../../src/admin/auth/throttle.js';
import type { SignInThrottleOptions } from '../../../../src/admin/auth/throttle.js';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const MINUTE = 60_000;
const wide = { maxFailures: 1000, windowMs: 15 * MINUTE };
/** No account delay: isolates the pair and address limits. */
const noBackoff = { afterFailures: 1000, baseMs: 1000, maxMs: 1000, windowMs: 15 * MINUTE };
const backoff = { afterFailures: 3, baseMs: 1000, maxMs: 8000, windowMs: 15 * MINUTE };

t.test('the account delay grows from the threshold and stops at its maximum', async (t) => {
  const cases: Array<[failures: number, delayMs: number]> = [
    [0, 0],
    [2, 0],
    [3, 1000],
    [4, 2000],
    [5, 4000],
    [6, 8000],
    [7, 8000],
    [60, 8000],
  ];
  for (const [failures, delayMs] of cases) t.equal(accountDelayMs(failures, backoff), delayMs, `${failures} failures`);
});

interface Step {
  /** Milliseconds to let pass before this attempt. */
  after?: number;
  account: string;
  address: string;
  /** The answer of begin(): 0 = admitted, else the wait. */
  expect: number;
  /** Report the attempt as a success (only when admitted). */
  succeeds?: boolean;
  why: string;
}

interface Scenario {
  name: string;
  options: Omit<SignInThrottleOptions, 'now'>;
  steps: Step[];
}

const repeat = (n: number, step: (i: number) => Step): Step[] => Array.from({ length: n }, (_, i) => step(i));

const scenarios: Scenario[] = [
  {
    name: 'a pair at its limit is refused until its oldest failure leaves the window; the account elsewhere is not',
    options: { pair: { maxFailures: 3, windowMs: MINUTE }, address: wide, account: noBackoff },
    steps: [
      ...repeat(3, (i) => ({ after: 1000, account: 'bo@x', address: '9.9.9.9', expect: 0, why: `guess ${i + 1} admitted` })),
      { account: 'bo@x', address: '9.9.9.9', expect: 58_000, why: 'fourth guess refused until the first is a window old' },
      { account: 'bo@x', address: '1.1.1.1', expect: 0, succeeds: true, why: 'the same account from another address signs in' },
      { account: 'al@x', address: '9.9.9.9', expect: 0, why: 'the guessing address may still try another account' },
      { after: 58_000, account: 'bo@x', address: '9.9.9.9', expect: 0, why: 'admitted again once the window slid' },
    ],
  },
  {
    name: 'an address at its limit is refused for every account',
    options: { pair: wide, address: { maxFailures: 4, windowMs: MINUTE }, account: noBackoff },
    steps: [
      ...repeat(4, (i) => ({ account: `u${i}@x`, address: '9.9.9.9', expect: 0, why: `spray ${i + 1} admitted` })),
      { account: 'new@x', address: '9.9.9.9', expect: MINUTE, why: 'fifth account from the address refused' },
      { account: 'u0@x', address: '8.8.8.8', expect: 0, why: 'other addresses are not affected' },
    ],
  },
  {
    name: 'hammering an account from many addresses never delays an address that has not failed on it',
    options: { pair: { maxFailures: 5, windowMs: 15 * MINUTE }, address: wide, account: backoff },
    steps: [
      ...repeat(20, (i) => ({ account: 'operator', address: `10.0.0.${i}`, expect: 0, why: `attacker address ${i} gets its first guess` })),
      { account: 'operator', address: '10.0.0.0', expect: 8000, why: 'an attacker address that failed waits the (maxed) account delay' },
      { account: 'operator', address: '192.0.2.1', expect: 0, succeeds: true, why: 'the operator elsewhere is admitted at once' },
      { account: 'operator', address: '192.0.2.1', expect: 0, succeeds: true, why: 'and again: a success leaves nothing to wait for' },
    ],
  },
  {
    name: 'a failed address waits at most the longest delay after its own failure, however many others guess',
    options: { pair: { maxFailures: 5, windowMs: 15 * MINUTE }, address: wide, account: backoff },
    steps: [
      ...repeat(3, (i) => ({ account: 'bo@x', address: `10.0.0.${i}`, expect: 0, why: `attacker ${i} fails` })),
      { account: 'bo@x', address: '192.0.2.1', expect: 0, why: 'the user mistypes once: the fourth failure on the account' },
      { after: 1, account: 'bo@x', address: '192.0.2.1', expect: 1999, why: 'four failures: 2 s from the mistake' },
      ...repeat(10, (i) => ({ account: 'bo@x', address: `10.0.1.${i}`, expect: 0, why: `attacker ${i + 3} fails` })),
      { account: 'bo@x', address: '192.0.2.1', expect: 7999, why: 'the attack raised the delay only to its maximum, still from the mistake' },
      { after: 7999, account: 'bo@x', address: '192.0.2.1', expect: 0, succeeds: true, why: 'the user signs in once it passed' },
      { after: 1, account: 'bo@x', address: '10.0.1.0', expect: 0, why: 'an attacker whose wait passed guesses again' },
      { account: 'bo@x', address: '10.0.1.0', expect: 8000, why: 'and waits the maximum again: the success did not forgive the attack' },
    ],
  },
  {
    name: 'one person mistyping: a few quick retries, then growing waits, then the pair limit',
    options: { pair: { maxFailures: 5, windowMs: 15 * MINUTE }, address: wide, account: backoff },
    steps: [
      { account: 'me@x', address: '1.1.1.1', expect: 0, why: 'mistake 1' },
      { account: 'me@x', address: '1.1.1.1', expect: 0, why: 'mistake 2' },
      { account: 'me@x', address: '1.1.1.1', expect: 0, why: 'mistake 3' },
      { account: 'me@x', address: '1.1.1.1', expect: 1000, why: 'three failures: wait 1 s' },
      { after: 1000, account: 'me@x', address: '1.1.1.1', expect: 0, why: 'mistake 4 after the wait' },
      { after: 1000, account: 'me@x', address: '1.1.1.1', expect: 1000, why: 'four failures: 2 s after the last' },
      { after: 1000, account: 'me@x', address: '1.1.1.1', expect: 0, succeeds: true, why: 'the right password after the wait' },
      { account: 'me@x', address: '1.1.1.1', expect: 0, why: 'a success forgives this address its mistakes' },
    ],
  },
  {
    name: 'a success forgives the pair and its own attempt, not the address failures of other accounts',
    options: { pair: wide, address: { maxFailures: 3, windowMs: MINUTE }, account: noBackoff },
    steps: [
      { account: 'victim@x', address: '9.9.9.9', expect: 0, why: 'guess 1' },
      { account: 'victim@x', address: '9.9.9.9', expect: 0, why: 'guess 2' },
      { account: 'me@x', address: '9.9.9.9', expect: 0, succeeds: true, why: 'a colleague behind the same address signs in' },
      { account: 'victim@x', address: '9.9.9.9', expect: 0, why: 'guess 3: the success was forgiven, not the guesses' },
      { account: 'other@x', address: '9.9.9.9', expect: MINUTE, why: 'the address is at its limit' },
    ],
  },
];

for (const scenario of scenarios) {
  t.test(scenario.name, async (t) => {
    const c = clock();
    const th = new SignInThrottle({ ...scenario.options, now: c.now });
    for (const step of scenario.steps) {
      if (step.after !== undefined) c.advance(step.after);
      const subjects = { account: step.account, address: step.address };
      t.equal(th.begin(subjects), step.expect, step.why);
      if (step.succeeds === true) th.succeeded(subjects);
    }
  });
}

t.test('parallel attempts are counted before they are judged', async (t) => {
  const th = new SignInThrottle({ pair: { maxFailures: 3, windowMs: MINUTE }, address: wide, account: noBackoff });
  const s = { account: 'a@x', address: '2.2.2.2' };
  const admitted = Array.from({ length: 10 }, () => th.begin(s)).filter((w) => w === 0).length;
  t.equal(admitted, 3);
});

t.test('memory stays bounded', async (t) => {
  const th = new SignInThrottle({ pair: { maxFailures: 3, windowMs: MINUTE }, address: { maxFailures: 100, windowMs: MINUTE }, account: noBackoff, maxSubjects: 10 });
  for (let i = 0; i < 100; i++) th.begin({ account: `u${i}`, address: 'same' });
  // The oldest subjects were forgotten; the address (touched last) is still counted.
  t.equal(th.begin({ account: 'u0', address: 'other' }), 0);
  t.ok(th.begin({ account: 'new', address: 'same' }) > 0, 'the address reached 100 failures');
});

t.test('cancel takes back the attempt begin just counted, on the pair, the address and the account', async (t) => {
  const c = clock();
  const th = new SignInThrottle({ pair: { maxFailures: 2, windowMs: MINUTE }, address: { maxFailures: 2, windowMs: MINUTE }, account: noBackoff, now: c.now });
  const s = { account: 'a@x', address: '3.3.3.3' };
  t.equal(th.begin(s), 0);
  t.equal(th.begin(s), 0);
  th.cancel(s);
  t.equal(th.begin({ account: 'b@x', address: '3.3.3.3' }), 0, 'the address has one attempt counted, not two');
  th.cancel({ account: 'b@x', address: '3.3.3.3' });
  t.equal(th.begin(s), 0, 'the pair has one attempt counted, not two');
  t.ok(th.begin(s) > 0, 'and two after that one');
  t.same(th.rules.pair, { maxFailures: 2, windowMs: MINUTE }, 'the rules are readable for a fleet-wide count');
});
