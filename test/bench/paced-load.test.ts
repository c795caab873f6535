// The evenly paced load: its schedule, and what a real HTTP server on 127.0.0.1 sees of it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { dueTimes, runPacedLoad } from '../../bench/paced-load.js';

t.test('the schedule: rate × seconds requests, evenly spaced from 0', async (t) => {
  const cases = [
    { rate: 4, seconds: 1, want: [0, 250, 500, 750] },
    { rate: 2, seconds: 1.5, want: [0, 500, 1000] },
    { rate: 1000, seconds: 0.003, want: [0, 1, 2] },
    { rate: 10, seconds: 0, want: [] },
  ];
  for (const c of cases) t.same([...dueTimes(c.rate, c.seconds)], c.want, `${c.rate}/s for ${c.seconds} s`);
});

t.test('a server sees the requests spread over the run, none before its time, statuses counted', async (t) => {
  const arrivals: number[] = [];
  const paths: string[] = [];
  let served = 0;
  const server = createServer((req, res) => {
    arrivals.push(performance.now());
    paths.push(req.url!);
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      // Every fifth answer is a 503, so the load's status counting is checked too.
      res.statusCode = ++served % 5 === 0 ? 503 : 200;
      res.end(body.toUpperCase());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise((r) => server.close(r)));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const rate = 100;
  const started = performance.now();
  const result = await runPacedLoad({
    url,
    connections: 4,
    durationSec: 1,
    rate,
    expectStatus: 200,
    requests: [
      { method: 'POST', path: '/a', headers: { 'content-type': 'text/plain' }, body: 'one' },
      { method: 'POST', path: '/b', headers: { 'content-type': 'text/plain' }, body: 'two' },
    ],
  });

  t.equal(arrivals.length, rate, 'every due request was sent');
  t.equal(result.ok, 80);
  t.equal(result.unexpected, 20);
  t.same(result.otherStatuses, { 503: 20 });
  t.equal(result.errors, 0);
  t.equal(result.latencyMs.size, rate, 'a latency for every answer');
  t.equal(paths.filter((p) => p === '/a').length, 50, 'the requests sent in turn');
  // At most k requests are due before k gaps have passed, so the k-th arrival cannot come earlier: the
  // load is spread over the second, not sent as one burst (a slow machine only makes arrivals later, so
  // this holds however busy the machine is). The last one, due at 990 ms, is the plainest case.
  const sorted = [...arrivals].sort((a, b) => a - b);
  const early = sorted.filter((at, k) => at - started < (k * 1000) / rate);
  t.same(early, [], 'no request arrived before its due time');
  t.ok(sorted.at(-1)! - started >= 990, `the last request arrived ${Math.round(sorted.at(-1)! - started)} ms after the start`);
});

t.test('a refused connection counts as an error, not an answer', async (t) => {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  await new Promise((r) => server.close(r));
  const result = await runPacedLoad({ url: `http://127.0.0.1:${port}`, connections: 2, durationSec: 0.1, rate: 50, expectStatus: 200, requests: [{ method: 'GET', path: '/', headers: {} }] });
  t.equal(result.ok, 0);
  t.equal(result.errors, 5);
  t.equal(result.unexpected, 5);
});
