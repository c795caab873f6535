// Finding N7: a body naming `max_tokens` twice was forwarded whole while the budget reserved for the one
// JSON.parse kept. Every surface now refuses any top-level member named twice with 400 in its own error
// shape naming the member, before anything goes upstream (test/integration/hardening/duplicate-members.test.ts
// has `model` and `stream` in every spelling, and the translation worker's parse).
import t from 'tap';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';

const MODEL = 'claude-sonnet-4-6';
const HI = '[{"role":"user","content":"hi"}]';

interface Case {
  surface: 'messages' | 'chat' | 'responses';
  path: string;
  body: string;
  member: string;
}

const CASES: Case[] = [
  { surface: 'messages', path: '/gateway/v1/messages', member: 'max_tokens', body: `{"model":"${MODEL}","max_tokens":100000,"messages":${HI},"max_tokens":1}` },
  { surface: 'messages', path: '/gateway/v1/messages', member: 'system', body: `{"model":"${MODEL}","max_tokens":5,"system":"a","messages":${HI},"system":"b"}` },
  { surface: 'messages', path: '/gateway/v1/messages/count_tokens', member: 'messages', body: `{"model":"${MODEL}","messages":${HI},"messages":[]}` },
  { surface: 'chat', path: '/gateway/openai/v1/chat/completions', member: 'max_completion_tokens', body: `{"model":"${MODEL}","max_completion_tokens":1,"messages":${HI},"max_completion_tokens":100000}` },
  { surface: 'chat', path: '/gateway/openai/v1/chat/completions', member: 'temperature', body: `{"model":"${MODEL}","temperature":0,"messages":${HI},"temperatur\\u0065":2}` },
  { surface: 'responses', path: '/gateway/openai/v1/responses', member: 'max_output_tokens', body: `{"model":"${MODEL}","max_output_tokens":1,"input":"hi","max_output_tokens":100000}` },
  { surface: 'responses', path: '/gateway/openai/v1/responses', member: 'instructions', body: `{"model":"${MODEL}","instructions":"a","input":"hi","instructions":"b"}` },
];

t.test('any top-level member named twice is refused on every surface, nothing sent upstream', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey({ budget: { amountNanoUsd: 10_000_000, period: 'month', mode: 'hard' } });
  for (const c of CASES) {
    const before = h.simulator.received.length;
    const res = await call(`${h.url}${c.path}`, { body: c.body, headers: bearer(key) });
    const what = `${c.surface} ${c.path}, ${c.member} twice`;
    t.equal(res.status, 400, `${what}: ${res.text}`);
    const message = new RegExp(`^${c.member}: the request body names this member more than once`);
    if (c.surface === 'messages') t.match(res.json(), { type: 'error', error: { type: 'invalid_request_error', message } }, what);
    else t.match(res.json().error, { type: 'invalid_request_error', code: 'invalid_value', param: c.member, message }, what);
    t.equal(h.simulator.received.length, before, `${what}: nothing went upstream`);
  }
  const once = await call(`${h.url}/gateway/v1/messages`, { body: `{"model":"${MODEL}","max_tokens":5,"system":"a","messages":${HI}}`, headers: bearer(key) });
  t.equal(once.status, 200, 'the same body with each member once is served');
});
