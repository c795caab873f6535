// Redis cut off from a fleet of three real `serve` processes while they take steady traffic: a relay in
// front of Redis drops every byte both ways for about 5 s (a partition: no reset, no close). No request
// fails or waits long for it, every instance reports Redis down meanwhile and decides with its own share
// (counted), and shares the limits again within 5 s of Redis coming back.
import t from 'tap';
import { bearer, call } from '../../helpers/http.js';
import { createFleetKey } from '../../helpers/fleet.js';
import { startTestFleet } from '../../helpers/test-fleet.js';
import { waitFor } from '../../helpers/wait.js';
import { CuttableRelay } from '../../helpers/cuttable-relay.js';

const CUT_MS = 5000;
const body = JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });

const relay = new CuttableRelay('127.0.0.1', Number(new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379').port || 6379));
const relayPort = await relay.listen();
t.teardown(() => relay.close());
const fleet = await startTestFleet(t, { redisUrl: `redis://127.0.0.1:${relayPort}` });
t.teardown(() => {
  if (!t.passing()) console.error(`the fleet's output:\n${fleet.output()}`);
});

interface StoreMetrics {
  up: number | null;
  fallbacks: number;
}

async function storeMetrics(url: string): Promise<StoreMetrics> {
  const text = (await call(`${url}/metrics`)).text;
  const up = /^model_gateway_shared_store_up\{store="redis"\} (\d+)$/m.exec(text);
  const fallbacks = /^model_gateway_rate_limit_fallback_decisions_total (\d+)$/m.exec(text);
  return { up: up === null ? null : Number(up[1]), fallbacks: Number(fallbacks?.[1] ?? NaN) };
}

const allUp = async (value: number) => (await Promise.all(fleet.urls.map(storeMetrics))).every((m) => m.up === value);

interface Sent {
  instance: number;
  status: number;
  ms: number;
  at: number;
}

t.test('a 5 s Redis partition under steady load', async (t) => {
  // Limited, so every request asks the limiter; high enough that no instance's share refuses any.
  const { secret } = await createFleetKey(fleet, 'steady', { rpm: 100_000 });
  const sent: Sent[] = [];
  let running = true;
  let cutAt = 0;
  // One client per instance, each sending one request after another with a short pause: steady traffic.
  const lanes = fleet.urls.map(async (url, instance) => {
    while (running) {
      const started = performance.now();
      const res = await call(`${url}/gateway/v1/messages`, { body, headers: bearer(secret) }).catch((err: Error) => ({ status: -1, text: err.message }));
      sent.push({ instance, status: res.status, ms: performance.now() - started, at: Date.now() });
      await new Promise((r) => setTimeout(r, 20));
    }
  });
  try {
    await new Promise((r) => setTimeout(r, 1000));
    t.ok(await allUp(1), 'Redis is up on every instance before the cut');

    cutAt = Date.now();
    relay.drop();
    await waitFor(() => allUp(0), CUT_MS - 500, 100);
    t.pass(`every instance reports Redis down ${Date.now() - cutAt} ms into the cut`);
    await new Promise((r) => setTimeout(r, Math.max(0, cutAt + CUT_MS - Date.now())));
    const during = await Promise.all(fleet.urls.map(storeMetrics));
    t.same(during.map((m) => m.up), [0, 0, 0], 'still down at the end of the cut');

    const restoredAt = Date.now();
    relay.restore();
    await waitFor(() => allUp(1), 5000, 100);
    t.pass(`every instance reports Redis up again ${Date.now() - restoredAt} ms after the restore`);
    await new Promise((r) => setTimeout(r, 500));
  } finally {
    running = false;
    await Promise.all(lanes);
  }

  const failed = sent.filter((s) => s.status !== 200);
  t.equal(failed.length, 0, `no request failed (of ${sent.length})`, { failed: failed.slice(0, 10) });
  const slowest = Math.max(...sent.map((s) => s.ms));
  const slow = sent.filter((s) => s.ms >= 1000).map((s) => `${Math.round(s.ms)} ms on ${s.instance}, ${s.at - cutAt} ms after the cut`);
  t.ok(slowest < 1000, `no request took 1 s or more (slowest ${Math.round(slowest)} ms of ${sent.length})`, { slow });
  t.ok(new Set(sent.map((s) => s.instance)).size === 3 && sent.length > 30, `steady traffic on every instance (${sent.length} requests)`);
  const after = await Promise.all(fleet.urls.map(storeMetrics));
  t.ok(after.every((m) => m.fallbacks > 0), `every instance counted the decisions it took alone (${after.map((m) => m.fallbacks).join(', ')})`);
  // Once per fall back, not per request (a busy host may see one more short fall back right after the restore).
  const logged = fleet.instances.map((i) => i.logLines().filter((l) => l.level === 40 && /fall back/.test(l.msg)).length);
  t.ok(logged.every((n, i) => n >= 1 && n <= 2 && n < after[i]!.fallbacks), `each instance logged the fallback, not per request (${logged.join(', ')})`);
});

t.test('after the restore the limits are the fleet\'s again', async (t) => {
  const { secret } = await createFleetKey(fleet, 'after-cut', { rpm: 6 });
  const answers: Array<{ status: number; limit: unknown; remaining: unknown }> = [];
  for (let i = 0; i < 12; i++) {
    const res = await call(`${fleet.urls[i % 3]}/gateway/v1/messages`, { body, headers: bearer(secret) });
    answers.push({ status: res.status, limit: res.headers['anthropic-ratelimit-requests-limit'], remaining: res.headers['anthropic-ratelimit-requests-remaining'] });
  }
  // Each instance's share (2 of 6) would let as many through in all, but its headers would count 2 down.
  const allowed = answers.filter((a) => a.status === 200);
  t.same(allowed.map((a) => a.remaining), ['5', '4', '3', '2', '1', '0'], `the fleet's count, whichever instance answers: ${JSON.stringify(answers)}`);
  t.ok(answers.every((a) => a.limit === '6'), 'every answer states the fleet\'s limit');
  const metrics = await Promise.all(fleet.urls.map(storeMetrics));
  t.same(metrics.map((m) => m.up), [1, 1, 1], 'Redis up on every instance');
});
