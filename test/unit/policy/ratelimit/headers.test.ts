import t from 'tap';
import { durationText, retryAfterSeconds, rfc3339Seconds } from '../../../../src/policy/ratelimit/headers.js';

t.test('durationText in the chat-completions style', async (t) => {
  const cases: Array<[number, string]> = [
    [0, '0ms'],
    [17, '17ms'],
    [999.2, '1s'],
    [999, '999ms'],
    [1000, '1s'],
    [1500, '1.5s'],
    [59_999, '59.999s'],
    [60_000, '1m0s'],
    [360_000, '6m0s'],
    [61_250, '1m1.25s'],
    [-5, '0ms'],
  ];
  for (const [ms, text] of cases) t.equal(durationText(ms), text, `${ms} ms`);
});

t.test('rfc3339Seconds gives each second its own text however calls alternate and repeat', async (t) => {
  const base = Date.UTC(2031, 5, 6, 7, 8, 9);
  const calls = [0, 5000, 0, 5000, 12_000, 0, 5000, 12_000, 12_000, 999, 1000, 1001];
  for (const offset of calls) {
    t.equal(rfc3339Seconds(base + offset), `${new Date(Math.ceil((base + offset) / 1000) * 1000).toISOString().slice(0, 19)}Z`, `+${offset} ms`);
  }
});

t.test('rfc3339Seconds rounds up to a whole second', async (t) => {
  t.equal(rfc3339Seconds(Date.UTC(2030, 0, 2, 3, 4, 5)), '2030-01-02T03:04:05Z');
  t.equal(rfc3339Seconds(Date.UTC(2030, 0, 2, 3, 4, 5) + 1), '2030-01-02T03:04:06Z');
});

t.test('retryAfterSeconds: whole seconds, at least 1', async (t) => {
  const cases: Array<[number, string]> = [[0, '1'], [1, '1'], [1000, '1'], [1001, '2'], [20_000, '20']];
  for (const [ms, s] of cases) t.equal(retryAfterSeconds(ms), s, `${ms} ms`);
});
