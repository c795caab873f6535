// The limits channel's two sides wired together in one process, with the cluster's IPC stood in for
// by a JSON round trip delivered on a later turn (what node:cluster does between processes; the real
// cluster is exercised in test/integration/cluster/workers.test.ts).
import { Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { pino } from 'pino';
import t from 'tap';
import { authFailureSharing, ClusterRateLimiter, LimitsAuthority, messagesOf, outbox, type LimitsBatch, type LimitsMessage } from '../../../../src/policy/ratelimit/cluster-limits-channel.js';
import { AuthThrottle } from '../../../../src/policy/ratelimit/auth-throttle.js';
import type { LimitDecision, LimitRequest } from '../../../../src/policy/ratelimit/limiter.js';

function captureLogger() {
  const lines: Record<string, unknown>[] = [];
  const out = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, out), lines };
}

interface Worker {
  limiter: ClusterRateLimiter;
  throttle: AuthThrottle;
  /** Messages this worker sent, as the primary saw them. */
  sent: LimitsMessage[];
}

/** A primary and `n` workers; each message crosses as JSON on a later turn, like the cluster's IPC. */
function cluster(n: number, failuresPerMinute = 2) {
  const authority = new LimitsAuthority();
  const { logger } = captureLogger();
  const workers: Worker[] = [];
  const deliver = (to: Worker, msg: LimitsMessage) => {
    const copy = JSON.parse(JSON.stringify(msg)) as LimitsMessage;
    setImmediate(() => {
      to.limiter.receive(copy);
      sharing.receive(copy, to.throttle);
    });
  };
  const sharing = authFailureSharing(() => {});
  for (let i = 0; i < n; i++) {
    const sent: LimitsMessage[] = [];
    const send = (msg: LimitsMessage) => {
      sent.push(msg);
      const copy = JSON.parse(JSON.stringify(msg)) as LimitsMessage;
      setImmediate(() =>
        authority.receive(
          copy,
          (reply) => deliver(worker, reply),
          (other) => {
            for (const w of workers) if (w !== worker) deliver(w, other);
          },
        ),
      );
    };
    const worker: Worker = {
      limiter: new ClusterRateLimiter(send, logger),
      throttle: new AuthThrottle(failuresPerMinute, undefined, authFailureSharing(send).share),
      sent,
    };
    workers.push(worker);
  }
  return workers;
}

const request = (over: Partial<LimitRequest> = {}): LimitRequest => ({
  keyId: 'key_1',
  keyLimits: { rpm: 3, tpm: null },
  customerId: 'cus_1',
  customerLimits: null,
  tokens: 10,
  ...over,
});

t.test('a key limit holds across workers: the primary decides', async (t) => {
  const [a, b] = cluster(2);
  const decisions: LimitDecision[] = [];
  for (let i = 0; i < 6; i++) decisions.push(await (i % 2 === 0 ? a! : b!).limiter.acquire(request()));
  t.same(
    decisions.map((d) => d.allowed),
    [true, true, true, false, false, false],
    'three requests a minute in all, not three per worker',
  );
  const refused = decisions[3]!;
  t.ok(!refused.allowed && refused.scope === 'key' && refused.retryAfterMs > 0, 'the refusal says who and when');
  t.same(decisions[2]!.status.requests?.remaining, 0, 'the headers show the shared window');
});

t.test('settling on one worker frees tokens for another', async (t) => {
  const [a, b] = cluster(2);
  const limits = { keyLimits: { rpm: null, tpm: 100 } };
  const first = await a!.limiter.acquire(request({ ...limits, tokens: 80 }));
  t.ok(first.allowed);
  t.notOk((await b!.limiter.acquire(request({ ...limits, tokens: 50 }))).allowed, '80 reserved: 50 more do not fit');
  if (first.allowed) a!.limiter.settle(first.reservation, 10);
  await nextTurn();
  await nextTurn();
  t.ok((await b!.limiter.acquire(request({ ...limits, tokens: 50 }))).allowed, 'the request used 10: 50 fit now');
});

t.test('only the limits travel, not the rest of the principal', async (t) => {
  const [a] = cluster(1);
  const principal = { rpm: 5, tpm: null, keyId: 'key_1', customerName: 'Acme', keyPrefix: 'mgw_abc' };
  await a!.limiter.acquire(request({ keyLimits: principal }));
  const sent = a!.sent[0] as Extract<LimitsMessage, { type: 'model-gateway:limits-acquire' }>;
  t.same(sent.request.keyLimits, { rpm: 5, tpm: null });
});

t.test('no answer from the primary: the request goes through, once, and it is logged', async (t) => {
  const { logger, lines } = captureLogger();
  const sent: LimitsMessage[] = [];
  const limiter = new ClusterRateLimiter((msg) => sent.push(msg), logger, 20);
  const decision = await limiter.acquire(request());
  t.ok(decision.allowed);
  t.same(decision.status, { requests: null, tokens: null }, 'no limit headers without a decision');
  t.match(lines[0], { level: 40, keyId: 'key_1', msg: /did not answer a rate-limit check/ });
  if (decision.allowed) limiter.settle(decision.reservation, 10);
  t.equal(sent.length, 1, 'nothing to settle for a reservation the primary never made');
  // The answer arriving late changes nothing.
  const acquire = sent[0] as Extract<LimitsMessage, { type: 'model-gateway:limits-acquire' }>;
  limiter.receive({ type: 'model-gateway:limits-decision', id: acquire.id, decision: { allowed: false, scope: 'key', retryAfterMs: 1, status: { requests: null, tokens: null } } });
  t.pass('a late answer is dropped');
});

t.test('failed authentications seen by one worker throttle the address on every worker', async (t) => {
  const [a, b, c] = cluster(3, 2);
  a!.throttle.failed('203.0.113.7');
  b!.throttle.failed('203.0.113.7');
  await nextTurn();
  await nextTurn();
  for (const [name, w] of [['a', a!], ['b', b!], ['c', c!]] as const) {
    t.ok(w.throttle.blockedFor('203.0.113.7') > 0, `worker ${name}: two failures in all, the address waits`);
    t.equal(w.throttle.blockedFor('198.51.100.1'), 0, `worker ${name}: another address does not`);
  }
  t.same(
    a!.sent.map((m) => m.type),
    ['model-gateway:auth-failed'],
    'a worker passes on its own failures only, not the copies it receives',
  );
});

t.test('a batch is read only from this channel’s messages', async (t) => {
  const cases: [unknown, number][] = [
    [null, 0],
    ['text', 0],
    [{ type: 'model-gateway:cluster-metrics-req', id: 1 }, 0],
    [{ type: 'model-gateway:limits', messages: 'not a list' }, 0],
    [{ type: 'model-gateway:limits', messages: [{ type: 'model-gateway:auth-failed', address: null }] }, 1],
  ];
  for (const [raw, n] of cases) t.equal(messagesOf(raw).length, n, JSON.stringify(raw));
});

t.test('what a worker sends in one turn crosses as one IPC message', async (t) => {
  const batches: LimitsBatch[] = [];
  const send = outbox((b) => batches.push(JSON.parse(JSON.stringify(b)) as LimitsBatch));
  const { logger } = captureLogger();
  const limiter = new ClusterRateLimiter(send, logger, 50);
  void limiter.acquire(request());
  void limiter.acquire(request({ keyId: 'key_2' }));
  send({ type: 'model-gateway:auth-failed', address: '203.0.113.7' });
  t.equal(batches.length, 0, 'nothing goes out before the turn ends');
  await nextTurn();
  t.equal(batches.length, 1);
  t.same(
    messagesOf(batches[0]).map((m) => m.type),
    ['model-gateway:limits-acquire', 'model-gateway:limits-acquire', 'model-gateway:auth-failed'],
  );
  void limiter.acquire(request());
  await nextTurn();
  t.equal(batches.length, 2, 'the next turn, the next message');
  await new Promise((resolve) => setTimeout(resolve, 60));
});
