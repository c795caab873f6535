// Two gateway instances on one key store and one Redis (REDIS_URL): a key's limit is the fleet's, not
// each instance's, the limit headers count the fleet's remaining requests, and /metrics says Redis is
// answering. Without the shared limiter each instance would let the key's whole limit through.
import t from 'tap';
import { bearer, call } from '../../helpers/http.js';
import { startRedisFleet } from '../../helpers/redis-fleet.js';

const MODEL = 'claude-sonnet-4-6';
const messagesBody = JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
const chatBody = JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });

t.test('a requests-per-minute limit holds across two instances sharing Redis', async (t) => {
  const { redis, prefix, instances: [a, b] } = await startRedisFleet(t, 2);
  const { key } = await a.createKey({ rpm: 6 });

  const answers: Array<{ instance: string; status: number; remaining: string | undefined }> = [];
  for (let i = 0; i < 12; i++) {
    const [instance, h] = i % 2 === 0 ? ['a', a] : ['b', b];
    const chat = i % 4 >= 2;
    const res = await call(`${h.url}${chat ? '/gateway/openai/v1/chat/completions' : '/gateway/v1/messages'}`, {
      body: chat ? chatBody : messagesBody,
      headers: bearer(key),
    });
    const remaining = res.headers[chat ? 'x-ratelimit-remaining-requests' : 'anthropic-ratelimit-requests-remaining'];
    answers.push({ instance, status: res.status, remaining: typeof remaining === 'string' ? remaining : undefined });
  }
  const allowed = answers.filter((x) => x.status === 200);
  t.equal(allowed.length, 6, `6 of 12 requests went through, not 6 per instance: ${JSON.stringify(answers)}`);
  t.same(
    allowed.map((x) => x.remaining),
    ['5', '4', '3', '2', '1', '0'],
    'every answer counts the fleet\'s remaining requests, whichever instance gave it',
  );
  t.same(new Set(allowed.map((x) => x.instance)), new Set(['a', 'b']), 'both instances served some');
  t.ok(answers.slice(6).every((x) => x.status === 429), 'then both instances refuse');

  for (const h of [a, b]) {
    const metrics = await call(`${h.url}/metrics`);
    t.match(metrics.text, /model_gateway_shared_store_up\{store="redis"\} 1/, 'Redis is reported answering');
    t.match(metrics.text, /model_gateway_rate_limit_fallback_decisions_total 0/, 'no decision fell back');
  }
  const members = await redis.zCard(`${prefix}instances`);
  t.equal(members, 2, 'both instances announce themselves');
});
