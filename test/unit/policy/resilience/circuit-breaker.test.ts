import t from 'tap';
import type { BreakerSettings } from '../../../../src/config/config.js';
import type { CircuitState, Permit } from '../../../../src/policy/resilience/circuit-breaker.js';
import { CircuitBreaker, isFailureStatus } from '../../../../src/policy/resilience/circuit-breaker.js';

const SETTINGS: BreakerSettings = { minCalls: 10, failurePercent: 50, windowMs: 10_000, coolDownMs: 5_000 };

function setup(settings: Partial<BreakerSettings> = {}) {
  let now = 0;
  const changes: CircuitState[] = [];
  const breaker = new CircuitBreaker('route', { ...SETTINGS, ...settings }, (_n, s) => changes.push(s), () => now);
  /** `pattern`: one character per call, `x` failed, `.` succeeded. */
  const calls = (pattern: string) => {
    for (const c of pattern) breaker.report(breaker.allow(false), c === 'x');
  };
  return { breaker, changes, calls, advance: (ms: number) => (now += ms) };
}

t.test('opening needs both the volume and the failure rate', async (t) => {
  const table: Array<[pattern: string, state: CircuitState, why: string]> = [
    ['xxxxxxxxx', 'closed', '9 failures of 9: below the minimum volume'],
    ['xxxxxxxxxx', 'open', '10 of 10 failed'],
    ['.....xxxxx', 'open', 'exactly 50% of 10'],
    ['......xxxx', 'closed', '40% of 10'],
    ['..........xxxxxxxxx', 'closed', '9 of 19: under half'],
    ['..........xxxxxxxxxx', 'open', '10 of 20: half'],
    ['x.x.x.x.x.x.x.x.x.x.', 'open', 'interleaved, 10 of 20'],
  ];
  for (const [pattern, state, why] of table) {
    const { breaker, calls } = setup();
    calls(pattern);
    t.equal(breaker.state, state, why);
  }
});

t.test('the failure percentage is configurable', async (t) => {
  const below = setup({ failurePercent: 80 });
  below.calls('...xxxxxxx');
  t.equal(below.breaker.state, 'closed', '70% < 80%');
  const at = setup({ failurePercent: 80 });
  at.calls('..xxxxxxxx');
  t.equal(at.breaker.state, 'open', '80%');
});

t.test('failures older than the window no longer count', async (t) => {
  const { breaker, calls, advance } = setup();
  calls('xxxxxxxx');
  advance(10_000);
  calls('xxxxxxxx');
  t.equal(breaker.state, 'closed', '16 failures, never 10 in one window');
});

t.test('while open: refused when there is somewhere else to go; when not, only while every call failed', async (t) => {
  const busy = setup();
  busy.calls('.....xxxxx');
  t.equal(busy.breaker.state, 'open');
  t.equal(busy.breaker.allow(true), null, 'a request with a fallback goes there');
  t.equal(busy.breaker.allow(false), 'call', 'busy, not down: still goes upstream');

  const down = setup();
  down.calls('xxxxxxxxxx');
  t.equal(down.breaker.allow(true), null);
  t.equal(down.breaker.allow(false), null, 'every call failed: fail fast');
  t.equal(down.breaker.retryAfterMs(), 5_000);
  down.advance(2_000);
  t.equal(down.breaker.retryAfterMs(), 3_000);
});

t.test('calls that still go through while open decide between busy and down', async (t) => {
  const { breaker, calls, advance } = setup({ coolDownMs: 60_000 });
  calls('.....xxxxx');
  advance(1_000);
  for (let i = 0; i < 20; i++) breaker.report(breaker.allow(false), true);
  t.equal(breaker.allow(false), 'call', 'the successes are still in the window');
  advance(9_500);
  breaker.report('call', true);
  t.equal(breaker.allow(false), null, 'once the successes left the window, every call failed: down');
  t.equal(breaker.state, 'open', 'no probe before the cool-down');
});

t.test('half-open after the cool-down: one probe; its success closes and clears the window', async (t) => {
  const { breaker, changes, calls, advance } = setup();
  calls('xxxxxxxxxx');
  advance(4_999);
  t.equal(breaker.allow(false), null);
  advance(1);
  const probe = breaker.allow(true);
  t.equal(probe, 'probe', 'the probe goes to the route even when the request could go elsewhere');
  t.equal(breaker.state, 'half_open');
  t.equal(breaker.allow(true), null, 'only one probe at a time');
  t.equal(breaker.allow(false), null, 'down: the others still fail fast');
  breaker.report(probe, false);
  t.equal(breaker.state, 'closed');
  calls('xxxxxxxxx');
  t.equal(breaker.state, 'closed', 'the failures before the probe were forgotten');
  t.same(changes, ['closed', 'open', 'half_open', 'closed']);
});

t.test('a failed probe opens the circuit again for a full cool-down', async (t) => {
  const { breaker, calls, advance } = setup();
  calls('xxxxxxxxxx');
  advance(5_000);
  const probe = breaker.allow(false);
  t.equal(probe, 'probe');
  advance(100);
  breaker.report(probe, true);
  t.equal(breaker.state, 'open');
  t.equal(breaker.retryAfterMs(), 5_000);
  t.equal(breaker.allow(false), null, 'still down');
});

t.test('an abandoned probe frees the slot; an ordinary call does not', async (t) => {
  const { breaker, calls, advance } = setup();
  calls('xxxxxxxxxx');
  advance(5_000);
  const probe = breaker.allow(false);
  breaker.abandon('call');
  t.equal(breaker.allow(true), null, "an ordinary call's abandon leaves the probe in place");
  breaker.abandon(probe);
  t.equal(breaker.allow(true), 'probe');
});

t.test('a probe that never reports expires after a cool-down', async (t) => {
  const { breaker, calls, advance } = setup();
  calls('xxxxxxxxxx');
  advance(5_000);
  t.equal(breaker.allow(true), 'probe');
  advance(4_000);
  t.equal(breaker.allow(true), null);
  t.equal(breaker.retryAfterMs(), 1_000);
  advance(1_000);
  t.equal(breaker.allow(true), 'probe');
});

t.test('a late answer of a call granted while closed does not close an open circuit', async (t) => {
  const { breaker, calls } = setup();
  const late: Permit = breaker.allow(false);
  calls('xxxxxxxxxx');
  breaker.report(late, false);
  t.equal(breaker.state, 'open');
  t.equal(breaker.allow(false), 'call', 'but it shows the upstream is not down');
});

t.test('minCalls 0 disables the breaker', async (t) => {
  const { breaker, calls } = setup({ minCalls: 0 });
  calls('x'.repeat(100));
  t.equal(breaker.state, 'closed');
  t.equal(breaker.allow(false), 'call');
});

t.test('failure statuses', async (t) => {
  const table: Array<[number, boolean]> = [[200, false], [400, false], [429, false], [500, true], [501, false], [502, true], [503, true], [504, true], [529, true]];
  for (const [status, failure] of table) t.equal(isFailureStatus(status), failure, String(status));
});
