// The translate-request stage alone, with the real translators: the warnings header first, then the stage.
import t from 'tap';
import { validateHeaderValue } from 'node:http';
import { DEFAULT_MODELS } from '../../../../src/catalog/model.js';
import { translateRequestStage, warningsHeaderValue, WARNINGS_HEADER, type TranslateOptions } from '../../../../src/gateway/stages/translate-request.js';
import { translateChatRequest } from '../../../../src/dialects/translators/chat-to-anthropic/request.js';
import type { RequestContext } from '../../../../src/gateway/context.js';
import { Translators } from '../../../../src/dialects/translators/registry.js';
import { messagesToAnthropic } from '../../../../src/dialects/translators/messages-to-anthropic/translator.js';
import { chatToAnthropic } from '../../../../src/dialects/translators/chat-to-anthropic/translator.js';
import { responsesToAnthropic } from '../../../../src/dialects/translators/responses-to-anthropic/translator.js';
import { sessionSeed } from '../../../../src/policy/routing/rendezvous.js';
import { principal, recordingNext, runtimeWith, stageContext } from './stage-context.js';

const model = DEFAULT_MODELS.find((m) => m.id === 'claude-sonnet-4-6')!;

t.test('the warnings header lists every kind with its detail, client field names made safe by the translation', async (t) => {
  const body = { model: model.id, max_tokens: 10, messages: [{ role: 'user', content: 'x' }], seed: 1, 'bad\r\nname: x': 1, '': 1, n: 2 };
  const r = translateChatRequest(body, model, { strict: false });
  if (!r.ok) throw new Error(r.message);
  const value = warningsHeaderValue(r.warnings);
  t.equal(value, 'field_ignored:seed, field_ignored:bad??name??x, field_ignored:?, n_reduced:n');
  t.doesNotThrow(() => validateHeaderValue('x-gateway-translation-warnings', value));
});

// The stage itself: reads the model, the parsed body and bytes, the query, the strict header and the
// principal; writes the call for the requested model, the stream flags, the warnings (and their
// header), the fallback translation and the route order's seed; answers 400 for a request the
// translation refuses.
const opus = DEFAULT_MODELS.find((m) => m.id === 'claude-opus-4-7')!;
const translators = new Translators([messagesToAnthropic, chatToAnthropic, responsesToAnthropic]);
const rt = runtimeWith({ translators });
const MESSAGES: TranslateOptions = { dialect: 'messages', operation: 'messages', allowFallback: true };
const COUNT_TOKENS: TranslateOptions = { dialect: 'messages', operation: 'count_tokens', allowFallback: false };
const CHAT: TranslateOptions = { dialect: 'chat', operation: 'messages', allowFallback: true };

function asking(body: Record<string, unknown>, headers: Record<string, string> = {}): RequestContext {
  const ctx = stageContext({ headers });
  ctx.json = body;
  ctx.body = Buffer.from(JSON.stringify(body));
  ctx.model = model;
  ctx.principal = principal();
  return ctx;
}

t.test('messages surface: the client\'s bytes go as they came, its headers forwarded; a fallback gets its own body', async (t) => {
  const ctx = asking({ model: model.id, max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'x' }] });
  const next = recordingNext();
  await translateRequestStage(rt, MESSAGES)(ctx, next);
  t.same(next.calls, [ctx]);
  t.equal(ctx.call?.body, ctx.body, 'the same bytes');
  t.match(ctx.call, { operation: 'messages', forwarded: true, bodyModel: model.id, stream: true, query: '' });
  t.equal(ctx.stream, true);
  t.same(ctx.warnings, []);
  t.equal(ctx.headers[WARNINGS_HEADER], undefined);
  t.equal(ctx.callFor?.(model, 'anthropic'), ctx.call, 'the requested model\'s call as made');
  const fallback = ctx.callFor?.(opus, 'anthropic');
  t.equal(fallback?.bodyModel, opus.id);
  t.equal(JSON.parse(String(fallback?.body)).model, opus.id);
});

t.test('count_tokens: no other model may answer', async (t) => {
  const ctx = asking({ model: model.id, messages: [{ role: 'user', content: 'x' }] });
  await translateRequestStage(rt, COUNT_TOKENS)(ctx, recordingNext());
  t.equal(ctx.call?.operation, 'count_tokens');
  t.equal(ctx.callFor?.(opus, 'anthropic'), null);
});

t.test('chat surface: translated, the warnings written with their header, usage asked for when the client did', async (t) => {
  const ctx = asking({ model: model.id, max_tokens: 10, seed: 3, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'x' }] });
  await translateRequestStage(rt, CHAT)(ctx, recordingNext());
  t.match(JSON.parse(String(ctx.call?.body)), { model: model.id, max_tokens: 10, stream: true, messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] });
  t.equal(ctx.call?.forwarded, false);
  t.same([ctx.stream, ctx.includeUsage], [true, true]);
  t.match(ctx.warnings, [{ kind: 'field_ignored', detail: 'seed' }]);
  t.equal(ctx.headers[WARNINGS_HEADER], 'field_ignored:seed');
});

t.test('refusals: 400 with the param, nothing written, the chain not run', async (t) => {
  const cases: Array<[string, TranslateOptions, RequestContext, { code: string; param: string }]> = [
    ['strict chat with a field that would be dropped', CHAT, asking({ model: model.id, seed: 3, messages: [{ role: 'user', content: 'x' }] }, { 'x-gateway-strict': 'true' }), { code: 'invalid_request', param: 'seed' }],
    ['chat without messages', CHAT, asking({ model: model.id }), { code: 'invalid_request', param: 'messages' }],
  ];
  for (const [name, options, ctx, error] of cases) {
    const next = recordingNext();
    await t.rejects(async () => translateRequestStage(rt, options)(ctx, next), error, name);
    t.same([ctx.call, ctx.callFor], [null, null], `${name}: nothing written`);
    t.same(next.calls, [], `${name}: the chain stops`);
  }
});

t.test('a session the request names seeds the route order by key and session; none, a random seed', async (t) => {
  const named = asking({ model: model.id, user: 'alice', messages: [{ role: 'user', content: 'x' }] });
  await translateRequestStage(rt, CHAT)(named, recordingNext());
  t.equal(named.session, true);
  t.equal(named.seed, sessionSeed('key-1', 'alice'));
  const anonymous = asking({ model: model.id, messages: [{ role: 'user', content: 'x' }] });
  await translateRequestStage(rt, CHAT)(anonymous, recordingNext());
  t.equal(anonymous.session, false);
});

t.test('without a resolved model: a bug, said so', async (t) => {
  const ctx = asking({ model: model.id, messages: [] });
  ctx.model = null;
  await t.rejects(async () => translateRequestStage(rt, CHAT)(ctx, recordingNext()), /no model was resolved/);
});
