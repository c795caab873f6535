import t from 'tap';
import { isRetryableStatus, retryAfterMs, RetryPolicy } from '../../../../src/policy/resilience/retry-policy.js';

const settings = { attempts: 4, baseDelayMs: 100, maxDelayMs: 1000, retryAfterCapMs: 5000, deadlineMs: 30_000 };

t.test('retryable statuses', async (t) => {
  const table: Array<[number, boolean]> = [
    [200, false], [400, false], [401, false], [404, false], [408, false], [413, false],
    [429, true], [500, true], [501, true], [502, true], [503, true], [504, true], [529, true], [599, true], [600, false],
  ];
  for (const [status, retry] of table) t.equal(isRetryableStatus(status), retry, String(status));
});

t.test('full jitter: uniform below min(max, base * 2^attempt)', async (t) => {
  const top = new RetryPolicy(settings, () => 0.999999);
  const bottom = new RetryPolicy(settings, () => 0);
  const ceilings = [100, 200, 400, 800, 1000, 1000];
  ceilings.forEach((ceiling, attempt) => {
    t.equal(top.delayMs(attempt, null), ceiling - 1, `attempt ${attempt}: just under ${ceiling}`);
    t.equal(bottom.delayMs(attempt, null), 0);
  });
  const half = new RetryPolicy(settings, () => 0.5);
  t.equal(half.delayMs(2, {}), 200, 'no retry-after header: jitter');
});

t.test('retry-after is honoured up to the cap; beyond it, no retry', async (t) => {
  const p = new RetryPolicy(settings, () => 0.5);
  t.equal(p.delayMs(0, { 'retry-after': '2' }), 2000);
  t.equal(p.delayMs(0, { 'retry-after': '5' }), 5000, 'exactly the cap');
  t.equal(p.delayMs(0, { 'retry-after': '6' }), null);
  t.equal(p.delayMs(0, { 'retry-after-ms': '1500', 'retry-after': '60' }), 1500, 'retry-after-ms first');
});

t.test('retryAfterMs parsing', async (t) => {
  const now = Date.UTC(2030, 0, 1, 0, 0, 0);
  const cases: Array<[Record<string, string | string[]>, number | null]> = [
    [{}, null],
    [{ 'retry-after': '' }, null],
    [{ 'retry-after': '0' }, 0],
    [{ 'retry-after': '1.5' }, 1500],
    [{ 'retry-after': '-1' }, null],
    [{ 'retry-after': 'soon' }, null],
    [{ 'retry-after': ['3', '9'] }, 3000],
    [{ 'retry-after': 'Tue, 01 Jan 2030 00:00:04 GMT' }, 4000],
    [{ 'retry-after': 'Mon, 31 Dec 2029 23:59:00 GMT' }, 0],
    [{ 'retry-after-ms': '250.2' }, 251],
    [{ 'retry-after-ms': 'x', 'retry-after': '1' }, 1000],
    [{ 'retry-after': '1.797693134862316e+305' }, null],
    [{ 'retry-after-ms': '1e300' }, null],
  ];
  for (const [headers, ms] of cases) t.equal(retryAfterMs(headers, now), ms, JSON.stringify(headers));
});
