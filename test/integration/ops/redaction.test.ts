// At every log level, no gateway key, admin token, upstream key or prompt text reaches the log.
import t from 'tap';
import { ADMIN_TOKEN, startHarness, UPSTREAM_KEY } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';

const PROMPT = 'my-very-private-prompt-text';

t.test('secrets and prompts never reach the log, even at trace', async (t) => {
  const h = await startHarness({ env: { LOG_LEVEL: 'trace' } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const { key: revoked, id } = await h.createKey();
  await h.built.stores.keys.revokeKey(id);
  const body = JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 16, messages: [{ role: 'user', content: PROMPT }] });
  await call(`${h.url}/gateway/v1/messages`, { body, headers: bearer(key) });
  await call(`${h.url}/gateway/v1/messages`, { body: body.replace('"model"', `"key":"${key}","model"`), headers: bearer(key) });
  await call(`${h.url}/gateway/v1/messages`, { body, headers: { 'x-api-key': revoked, 'content-type': 'application/json' } });
  await call(`${h.url}/gateway/openai/v1/chat/completions`, { body, headers: bearer(key) });
  await call(`${h.url}/gateway/openai/v1/chat/completions`, { body: '{broken', headers: bearer(`${key}x`) });
  await call(`${h.url}/admin/api/customers`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  await call(`${h.url}/admin/api/customers`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}wrong` } });
  const log = h.logText();
  t.ok(log.split('\n').filter(Boolean).length >= 7, 'the requests were logged');
  for (const [name, secret] of [['gateway key', key], ['revoked key', revoked], ['admin token', ADMIN_TOKEN], ['upstream key', UPSTREAM_KEY], ['prompt text', PROMPT]] as const) {
    t.notOk(log.includes(secret), `no ${name} in the log`);
  }
  t.notOk(log.includes(key.split('_')[2]!), 'not even the secret half of a key');
});
