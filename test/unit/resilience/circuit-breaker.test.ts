import t from 'tap';
import type { CircuitState } from '../../../src/resilience/circuit-breaker.js';
import { CircuitBreaker, isFailureStatus } from '../../../src/resilience/circuit-breaker.js';

function setup(failureThreshold = 3, coolDownMs = 10_000) {
  let now = 0;
  const changes: CircuitState[] = [];
  const breaker = new CircuitBreaker('up', { failureThreshold, coolDownMs }, (_n, s) => changes.push(s), () => now);
  return { breaker, changes, advance: (ms: number) => (now += ms) };
}

t.test('opens after consecutive failures only', async (t) => {
  const { breaker, changes } = setup();
  t.same(changes, ['closed'], 'the initial state is reported');
  breaker.failure();
  breaker.failure();
  breaker.success();
  breaker.failure();
  breaker.failure();
  t.equal(breaker.state, 'closed', 'a success in between resets the count');
  breaker.failure();
  t.equal(breaker.state, 'open');
  t.equal(breaker.allow(), null, 'fails fast while open');
  t.equal(breaker.retryAfterMs(), 10_000);
  t.same(changes, ['closed', 'open']);
});

t.test('half-opens after the cool-down: one probe; success closes', async (t) => {
  const { breaker, changes, advance } = setup(1);
  breaker.failure();
  advance(9_999);
  t.equal(breaker.allow(), null);
  advance(1);
  t.equal(breaker.allow(), 'probe');
  t.equal(breaker.state, 'half_open');
  t.equal(breaker.allow(), null, 'only one probe at a time');
  breaker.success();
  t.equal(breaker.state, 'closed');
  t.equal(breaker.allow(), 'call');
  t.same(changes, ['closed', 'open', 'half_open', 'closed']);
});

t.test('a failed probe opens the circuit again for a full cool-down', async (t) => {
  const { breaker, advance } = setup(1);
  breaker.failure();
  advance(10_000);
  t.equal(breaker.allow(), 'probe');
  breaker.failure();
  t.equal(breaker.state, 'open');
  t.equal(breaker.retryAfterMs(), 10_000);
});

t.test('an abandoned probe frees the slot; an ordinary call does not', async (t) => {
  const { breaker, advance } = setup(1);
  breaker.failure();
  advance(10_000);
  const probe = breaker.allow();
  breaker.abandon('call');
  t.equal(breaker.allow(), null, "an ordinary call's abandon leaves the probe in place");
  breaker.abandon(probe);
  t.equal(breaker.allow(), 'probe');
});

t.test('a probe that never reports expires after a cool-down', async (t) => {
  const { breaker, advance } = setup(1);
  breaker.failure();
  advance(10_000);
  t.equal(breaker.allow(), 'probe');
  advance(9_000);
  t.equal(breaker.allow(), null);
  advance(1_000);
  t.equal(breaker.allow(), 'probe');
});

t.test('threshold 0 disables the breaker', async (t) => {
  const { breaker } = setup(0);
  for (let i = 0; i < 100; i++) breaker.failure();
  t.equal(breaker.state, 'closed');
  t.equal(breaker.allow(), 'call');
});

t.test('failure statuses', async (t) => {
  const table: Array<[number, boolean]> = [[200, false], [400, false], [429, false], [500, true], [501, false], [502, true], [503, true], [504, true], [529, true]];
  for (const [status, failure] of table) t.equal(isFailureStatus(status), failure, String(status));
});
