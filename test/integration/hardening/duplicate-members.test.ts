// A body naming `model` or `stream` (or any other member: test/integration/spend/duplicate-members.test.ts)
// twice at the top level is refused with a 400 on both surfaces,
// and nothing reaches the provider: JSON.parse keeps the last member, while the messages surface
// forwards the bytes whole, so the gateway would check one model and the provider might serve the other.
import t from 'tap';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';

const MODEL = 'claude-haiku-4-5-20251001';
const OTHER = 'claude-sonnet-4-6';
const turns = '"messages":[{"role":"user","content":"hi"}]';
const largeTurns = `"messages":[{"role":"user","content":"hi ${'x'.repeat(2048)}"}]`;

t.test('duplicate top-level model or stream members → 400 on both surfaces', async (t) => {
  // The pool takes every chat body from 1 KiB: the worker's parse must refuse it the same way.
  for (const threads of ['0', '1']) {
    t.test(`translation threads: ${threads}`, async (t) => {
      const h = await startHarness({ env: { GATEWAY_TRANSLATE_THREADS: threads, GATEWAY_TRANSLATE_MIN_BYTES: '1024' } });
      t.teardown(() => h.close());
      // The key may use only one model; a provider reading the other member would serve one it may not use.
      const { key } = await h.createKey({ models: [MODEL] });
      const messages = `${h.url}/gateway/v1/messages`;
      const chat = `${h.url}/gateway/openai/v1/chat/completions`;

      const cases: Array<[string, string, string, string]> = [
        // Without the check JSON.parse keeps the allowed model and the whole body, first member included, goes upstream.
        ['messages: model twice', messages, `{"model":"${OTHER}","max_tokens":8,${turns},"model":"${MODEL}"}`, 'model'],
        ['messages: model twice, once escaped', messages, `{"model":"${OTHER}","max_tokens":8,${turns},"mod\\u0065l":"${MODEL}"}`, 'model'],
        ['messages: stream twice', messages, `{"model":"${MODEL}","stream":false,"max_tokens":8,${turns},"stream":true}`, 'stream'],
        ['chat: model twice', chat, `{"model":"${OTHER}",${turns},"model":"${MODEL}"}`, 'model'],
        ['chat: stream twice', chat, `{"model":"${MODEL}","stream":true,${turns},"stream":false}`, 'stream'],
        ['chat, large body: model twice', chat, `{"model":"${MODEL}",${largeTurns},"model":"${OTHER}"}`, 'model'],
        ['chat, large body: top_p twice', chat, `{"model":"${MODEL}","top_p":1,${largeTurns},"top_p":0.1}`, 'top_p'],
      ];
      for (const [name, url, body, member] of cases) {
        const before = h.simulator.received.length;
        const res = await call(url, { body, headers: bearer(key, { 'anthropic-version': '2023-06-01' }) });
        t.equal(res.status, 400, `${name}: ${res.text}`);
        const err = res.json().error;
        t.equal(err.type, 'invalid_request_error', name);
        t.match(err.message, new RegExp(`^${member}: `), name);
        if (url === chat) t.equal(err.param, member, `${name}: param`);
        else t.equal(res.json().type, 'error', `${name}: the messages error shape`);
        t.equal(h.simulator.received.length, before, `${name}: nothing was sent upstream`);
      }

      // The same bodies with the member once pass, including the names inside nested objects.
      const single = `{"model":"${MODEL}","max_tokens":8,"metadata":{"user_id":"model"},${turns}}`;
      t.equal((await call(messages, { body: single, headers: bearer(key) })).status, 200);
      const large = await call(chat, { body: `{"model":"${MODEL}",${largeTurns}}`, headers: bearer(key) });
      t.equal(large.status, 200, large.text);
    });
  }
});
