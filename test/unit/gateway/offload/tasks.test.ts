import t from 'tap';
import { DEFAULT_MODELS } from '../../../../src/catalog/model.js';
import { translateChatRequest } from '../../../../src/dialects/translators/chat-to-anthropic/request.js';
import { parseJsonObject } from '../../../../src/lib/json/json-object.js';
import { bodyHead, headAsBody, runTask, translateBody } from '../../../../src/gateway/offload/tasks.js';

const model = DEFAULT_MODELS.find((m) => m.id === 'claude-sonnet-4-6')!;
const bytes = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));
const chat = {
  model: 'claude-sonnet-4-6',
  stream: true,
  max_tokens: 50,
  stream_options: { include_usage: true },
  seed: 7,
  tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'hi' },
  ],
};

t.test('head: the small fields, and the lengths of the large arrays', async (t) => {
  const head = bodyHead(bytes(chat), 64);
  t.same(head, {
    ok: true,
    head: { model: 'claude-sonnet-4-6', stream: true, max_tokens: 50, stream_options: { include_usage: true }, seed: 7 },
    lengths: { tools: 1, messages: 2 },
  });
  if (!head.ok) return;
  const body = headAsBody(head);
  t.ok(Array.isArray(body.messages), 'messages stands in as an array');
  t.equal((body.messages as unknown[]).length, 2);
  t.equal(body.model, 'claude-sonnet-4-6');
});

t.test('head: a large field that is not an array stays as it is (translation refuses it later)', async (t) => {
  t.same(bodyHead(bytes({ model: 'm', messages: 'nope' }), 64), { ok: true, head: { model: 'm', messages: 'nope' }, lengths: {} });
});

t.test('head: refusals carry the same message as the inline parse', async (t) => {
  const cases: [string, string][] = [
    ['', 'empty'],
    ['{"model":', 'not JSON'],
    ['[1,2]', 'an array'],
    ['"text"', 'a string'],
    [`{"a":${'['.repeat(70)}${']'.repeat(70)}}`, 'too deep'],
  ];
  for (const [body, label] of cases) {
    const inline = parseJsonObject(bytes(body), 64);
    t.notOk(inline.ok, `${label}: refused inline`);
    t.same(bodyHead(bytes(body), 64), inline, `${label}: same answer on the worker`);
  }
});

t.test('translate: the same provider body, warnings and flags as the inline translation', async (t) => {
  const inline = translateChatRequest(chat, model, { strict: false });
  const worker = translateBody(bytes(chat), model, false);
  t.ok(inline.ok && worker.ok);
  if (!inline.ok || !worker.ok) return;
  t.equal(Buffer.from(worker.body).toString('utf8'), JSON.stringify(inline.request));
  t.same(worker.warnings, inline.warnings);
  t.equal(worker.stream, true);
  t.equal(worker.includeUsage, true);
});

t.test('translate: refusals (strict mode, invalid fields) pass through unchanged', async (t) => {
  const strict = translateBody(bytes(chat), model, true);
  t.same(strict, translateChatRequest(chat, model, { strict: true }));
  t.notOk(strict.ok, 'seed is ignored, so strict refuses');
  const bad = { ...chat, messages: [] };
  t.same(translateBody(bytes(bad), model, false), translateChatRequest(bad, model, { strict: false }));
});

t.test('runTask dispatches on the task kind', async (t) => {
  t.same(runTask({ kind: 'head', body: bytes(chat), maxDepth: 64 }), bodyHead(bytes(chat), 64));
  t.same(runTask({ kind: 'translate', body: bytes(chat), model, strict: false }), translateBody(bytes(chat), model, false));
});
