// Three real `serve` processes on one PostgreSQL database and one Redis, requests spread round-robin over
// them as a load balancer would: a key's limits, failed sign-ins and failed key authentications are counted
// for the fleet, not per process. Alone, each process would let a key's whole limit through (three times
// the limit in all) and count only the failures it saw itself.
import t from 'tap';
import { authFailuresEntry } from '../../../src/stores/redis/keys.js';
import { bearer, call } from '../../helpers/http.js';
import type { RawResponse } from '../../helpers/http.js';
import { adminCall, createFleetKey } from '../../helpers/fleet.js';
import { startTestFleet } from '../../helpers/test-fleet.js';
import { waitFor } from '../../helpers/wait.js';

const MODEL = 'claude-sonnet-4-6';
const INSTANCES = 3;

const fleet = await startTestFleet(t, {
  instances: INSTANCES,
  env: {
    // The tests choose their client address with X-Forwarded-For, so each has its own throttle counts.
    GATEWAY_TRUSTED_PROXIES: '127.0.0.1',
    GATEWAY_AUTH_FAILURES_PER_MINUTE: '4',
  },
});
t.teardown(() => {
  if (!t.passing()) console.error(`the fleet's output:\n${fleet.output()}`);
});

type Surface = 'messages' | 'chat';

interface Answer {
  instance: number;
  surface: Surface;
  status: number;
  requestsLimit: number | null;
  requestsRemaining: number | null;
  tokensRemaining: number | null;
}

function send(instance: number, surface: Surface, key: string, opts: { maxTokens?: number; prompt?: string } = {}): Promise<RawResponse> {
  const body = { model: MODEL, max_tokens: opts.maxTokens ?? 16, messages: [{ role: 'user', content: opts.prompt ?? 'hi' }] };
  const path = surface === 'chat' ? '/gateway/openai/v1/chat/completions' : '/gateway/v1/messages';
  return call(`${fleet.urls[instance]}${path}`, { body: JSON.stringify(body), headers: bearer(key) });
}

/** The limit headers in the surface's own naming. */
function answerOf(instance: number, surface: Surface, res: RawResponse): Answer {
  const header = (chat: string, messages: string): number | null => {
    const v = res.headers[surface === 'chat' ? chat : messages];
    return typeof v === 'string' ? Number(v) : null;
  };
  return {
    instance,
    surface,
    status: res.status,
    requestsLimit: header('x-ratelimit-limit-requests', 'anthropic-ratelimit-requests-limit'),
    requestsRemaining: header('x-ratelimit-remaining-requests', 'anthropic-ratelimit-requests-remaining'),
    tokensRemaining: header('x-ratelimit-remaining-tokens', 'anthropic-ratelimit-tokens-remaining'),
  };
}

const surfaceOf = (i: number): Surface => (Math.floor(i / INSTANCES) % 2 === 0 ? 'messages' : 'chat');

t.test('a 30 rpm key: at most the limit plus one per instance of 90 concurrent requests', async (t) => {
  const { secret } = await createFleetKey(fleet, 'burst', { rpm: 30 });
  // Round-robin, each instance seeing both surfaces, all in flight at once: the acquires race in Redis.
  const answers = await Promise.all(
    Array.from({ length: 90 }, async (_, i) => answerOf(i % INSTANCES, surfaceOf(i), await send(i % INSTANCES, surfaceOf(i), secret))),
  );
  const allowed = answers.filter((a) => a.status === 200);
  const summary = answers.map((a) => `${a.instance}${a.surface[0]}:${a.status}/${a.requestsRemaining}`).join(' ');
  t.ok(allowed.length >= 30 && allowed.length <= 30 + INSTANCES, `${allowed.length} of 90 went through (30 to 33; alone each instance passes 30): ${summary}`);
  t.same(new Set(answers.map((a) => a.status)), new Set([200, 429]), 'the rest are refused as rate limited, none failed');
  // Which instances get the 30 is timing: each decides the acquires that reached it in one turn in one
  // script, so one whose script lands after the others' may serve none. What every instance must do is
  // refuse only once the fleet's bucket is empty, and say so.
  t.ok(answers.filter((a) => a.status === 429).every((a) => a.requestsRemaining === 0), 'every refusal, from any instance, shows the fleet\'s bucket empty');
  t.ok(answers.every((a) => a.requestsLimit === 30), 'every answer states the fleet\'s limit, not an instance\'s share');
  // Each acquire takes one request from the one bucket: the remaining counts handed out are 29 down to 0, once each.
  const remaining = allowed.map((a) => a.requestsRemaining ?? -1).sort((a, b) => b - a);
  t.same(remaining.slice(0, 30), Array.from({ length: 30 }, (_, i) => 29 - i), 'the accepted answers count the fleet\'s remaining requests down once each');
});

t.test('a 30 rpm key, one request after another round-robin: the limit headers count the fleet down', async (t) => {
  const { secret } = await createFleetKey(fleet, 'sequence', { rpm: 30 });
  const answers: Answer[] = [];
  for (let i = 0; i < 45; i++) answers.push(answerOf(i % INSTANCES, surfaceOf(i), await send(i % INSTANCES, surfaceOf(i), secret)));
  const summary = answers.map((a) => `${a.instance}${a.surface[0]}:${a.status}/${a.requestsRemaining}`).join(' ');
  t.same(answers.slice(0, 30).map((a) => a.status), new Array(30).fill(200), `the first 30 go through: ${summary}`);
  t.same(answers.slice(0, 30).map((a) => a.requestsRemaining), Array.from({ length: 30 }, (_, i) => 29 - i), 'whichever instance answers, it counts the fleet\'s remaining requests');
  const later = answers.slice(30);
  t.ok(later.filter((a) => a.status === 200).length <= 1, 'then refused (one more at most, refilled meanwhile)');
  t.ok(answers.every((a) => a.requestsRemaining !== null), 'every answer carries the limit headers, refusals too');
  const remaining = answers.map((a) => a.requestsRemaining ?? Infinity);
  t.ok(remaining.every((r, i) => i === 0 || r <= remaining[i - 1]!), `never going up within the minute: ${remaining.join(' ')}`);
});

t.test('a tokens-per-minute limit with reservations, debts and refunds settled over the fleet', async (t) => {
  const { secret, id, customerId } = await createFleetKey(fleet, 'tokens', { tpm: 1200 });
  // The key's tokens bucket in Redis (docs/redis.md, "Keys"): read to wait until a settle has landed.
  const entry = `${fleet.redisPrefix}{${customerId}}:key:${id}`;
  const level = async () => Number((await fleet.redis.hGet(entry, 'tl')) ?? 1200);

  // 1. A long prompt with max_tokens 1: reserves 1, the simulator reports 800 input tokens, so the settle
  //    records a debt of 800 (level about 1200 - 801 = 399, refilling at 20 a second).
  const debt = await send(0, 'messages', secret, { maxTokens: 1, prompt: 'word '.repeat(640).trim() });
  t.equal(debt.status, 200, 'a long prompt goes through', { body: debt.text });
  t.equal(debt.json().usage.input_tokens, 800, 'the simulator counts a token per four characters');
  await waitFor(async () => (await level()) < 500, 5000, 20);

  // 2. Another instance, 700 tokens: room for it only if the debt were this instance's alone.
  const refused = await send(1, 'messages', secret, { maxTokens: 700 });
  t.equal(refused.status, 429, 'the debt made on instance 0 is the fleet\'s', { body: refused.text });
  const before = Number(refused.headers['anthropic-ratelimit-tokens-remaining']);
  t.ok(before >= 390 && before < 500, `the refusal states the fleet's remaining tokens (${before})`);

  // 3. The third instance, chat, 350 tokens: fits; it uses far fewer, and the settle refunds the rest.
  const reserved = await send(2, 'chat', secret, { maxTokens: 350 });
  t.equal(reserved.status, 200, 'a reservation that fits goes through', { body: reserved.text });
  const afterReserve = Number(reserved.headers['x-ratelimit-remaining-tokens']);
  t.ok(afterReserve <= before - 350 + 40, `the answer states the level after its reservation (${afterReserve})`);
  const used = reserved.json().usage.total_tokens as number;
  t.ok(used < 50, `the reply used ${used} tokens`);
  await waitFor(async () => (await level()) > 300, 5000, 20);

  // 4. Back on the first instance, 300 tokens: fits only because the refund of step 3 reached Redis
  //    (without it about 50 would be left, and 300 take over 12 s to refill).
  const refunded = await send(0, 'messages', secret, { maxTokens: 300 });
  t.equal(refunded.status, 200, 'the refund settled on instance 2 is the fleet\'s', { body: refunded.text });
  const last = Number(refunded.headers['anthropic-ratelimit-tokens-remaining']);
  t.ok(last >= before - used - 300 && last < before - used - 300 + 60, `its answer counts debt, reservations and refund over the fleet (${last})`);
});

t.test('failed sign-ins on one account over three instances refuse the guessing address on every one', async (t) => {
  const password = 'the right password 123';
  const { customer } = await adminCall<{ customer: { id: string } }>(fleet, 'POST', '/customers', { name: 'sign-in' });
  await adminCall(fleet, 'POST', `/customers/${customer.id}/users`, { email: 'bo@sign-in.example', password });
  const signIn = (instance: number, address: string, pw: string) =>
    call(`${fleet.urls[instance]}/admin/api/session`, {
      body: JSON.stringify({ email: 'bo@sign-in.example', password: pw }),
      headers: { 'content-type': 'application/json', origin: fleet.urls[instance]!, 'sec-fetch-site': 'same-origin', 'x-forwarded-for': address },
    });

  // Five wrong passwords from one address, spread over the instances. After three failures on the account
  // the fleet makes the address wait between guesses (1 s, then 2 s): such a refusal counts nothing, so the
  // guess is sent again after retry-after.
  const guesser = '203.0.113.7';
  const waited: number[] = [];
  for (let i = 0; i < 5; i++) {
    let res = await signIn(i % INSTANCES, guesser, `guess ${i} xxxxxxxx`);
    while (res.status === 429 && waited.length < 10) {
      waited.push(Number(res.headers['retry-after']));
      await new Promise((r) => setTimeout(r, Number(res.headers['retry-after']) * 1000));
      res = await signIn(i % INSTANCES, guesser, `guess ${i} xxxxxxxx`);
    }
    t.equal(res.status, 401, `guess ${i + 1} on instance ${i % INSTANCES} is refused as wrong`);
  }
  t.comment(`waits the account delay imposed between guesses: ${waited.join(', ') || 'none'} s`);
  // Each instance saw at most two of the failures: only the fleet's count reaches the limit of five.
  for (let i = 0; i < INSTANCES; i++) {
    const res = await signIn(i, guesser, password);
    t.equal(res.status, 429, `instance ${i} refuses the guessing address, even with the right password`);
    t.ok(Number(res.headers['retry-after']) > 60, `for minutes (retry-after ${String(res.headers['retry-after'])} s)`);
  }
  const owner = await signIn(1, '198.51.100.4', password);
  t.equal(owner.status, 200, 'the account\'s owner, elsewhere, still signs in: the guesses cannot lock them out');
});

t.test('failed key authentications from one address count over the fleet', async (t) => {
  const address = '192.0.2.55';
  const entry = authFailuresEntry(fleet.redisPrefix, address);
  // The fleet's bucket of failures for the address: its level (full, 4, when missing; one less per failure,
  // never below 0) and when a failure was last counted (server ms), which every count rewrites.
  const bucket = async () => (await fleet.redis.hmGet(entry, ['level', 'at'])).join(' ');
  const statuses: number[] = [];
  // The count is made in Redis after the 401 is sent: each guess waits for the previous one's count to
  // land, so what is asserted is the fleet's counting, not how fast a loaded machine is. A count that has
  // not landed within the wait (a call past its deadline counts on its instance alone) may let one more
  // guess be looked up, and is allowed for.
  let late = 0;
  for (let i = 0; i < 15; i++) {
    const before = await bucket();
    const res = await call(`${fleet.urls[i % INSTANCES]}/gateway/v1/messages`, {
      body: JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
      headers: bearer(`mgw_wrong_key_${i}`, { 'x-forwarded-for': address }),
    });
    statuses.push(res.status);
    if (res.status === 401) await waitFor(async () => (await bucket()) !== before, 2000, 10).catch(() => late++);
  }
  const looked = statuses.filter((s) => s === 401).length;
  // The budget (4), plus one per instance before its own failure's reply says the address is over it
  // (docs/redis.md); alone, each instance would look up 4 (12 in all).
  t.ok(looked >= 4 && looked <= 4 + INSTANCES + late, `${looked} guesses looked up (${late} counts late): ${statuses.join(' ')}`);
  t.same(statuses.slice(-INSTANCES), [429, 429, 429], 'then every instance refuses the address');
  const other = await call(`${fleet.urls[0]}/gateway/v1/messages`, {
    body: JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    headers: bearer('mgw_wrong_key_other', { 'x-forwarded-for': '192.0.2.56' }),
  });
  t.equal(other.status, 401, 'another address is not refused for it');
});
