// Finding N7: a body naming `max_tokens` twice was forwarded whole while the budget reserved for the one
// JSON.parse kept. Both surfaces now refuse it with 400 naming the member, before anything goes upstream.
import t from 'tap';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';

t.test('a duplicate output budget is refused on both surfaces', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey({ budget: { amountNanoUsd: 10_000_000, period: 'month', mode: 'hard' } });
  const before = h.simulator.received.length;
  const messages = await call(`${h.url}/gateway/v1/messages`, {
    body: '{"model":"claude-sonnet-4-6","max_tokens":100000,"messages":[{"role":"user","content":"hi"}],"max_tokens":1}',
    headers: bearer(key),
  });
  t.equal(messages.status, 400, messages.text);
  t.match(messages.json().error, { type: 'invalid_request_error', message: /max_tokens: the request body names this member more than once/ });
  const chat = await call(`${h.url}/gateway/openai/v1/chat/completions`, {
    body: '{"model":"claude-sonnet-4-6","max_completion_tokens":1,"messages":[{"role":"user","content":"hi"}],"max_completion_tokens":100000}',
    headers: bearer(key),
  });
  t.equal(chat.status, 400, chat.text);
  t.match(chat.json().error, { code: 'invalid_value', param: 'max_completion_tokens' });
  t.equal(h.simulator.received.length, before, 'nothing went upstream');
});
