// The chat surface's offload stages alone, with a real translation pool (one worker thread). Both read
// ctx.body's size against the pool's threshold: a smaller body goes to the inline stage they wrap,
// untouched. The parse step writes the body's head to ctx.json (the large arrays as empty arrays of
// their length, so the limits still count them) and answers 400 for a body that is not one JSON
// object; the translate step writes the provider call (the same as the inline translation's), the
// stream flags, the warnings header and the fallback translation, and answers 400 for a refused one.
import t from 'tap';
import type { Test } from 'tap';
import { offloadParseStage, offloadTranslateStage } from '../../../../../src/gateway/stages/chat/offload-stages.js';
import { translateRequestStage, WARNINGS_HEADER, type TranslateOptions } from '../../../../../src/gateway/stages/translate-request.js';
import { parseJsonStage } from '../../../../../src/gateway/stages/parse-json.js';
import type { Stage } from '../../../../../src/gateway/compose.js';
import type { RequestContext } from '../../../../../src/gateway/context.js';
import type { GatewayConfig } from '../../../../../src/config/config.js';
import { DEFAULT_MODELS } from '../../../../../src/catalog/model.js';
import { createTranslatePool, type TranslatePool } from '../../../../../src/gateway/offload/pool.js';
import { Translators } from '../../../../../src/dialects/translators/registry.js';
import { chatToAnthropic } from '../../../../../src/dialects/translators/chat-to-anthropic/translator.js';
import { recordingNext, runtimeWith, stageContext } from '../stage-context.js';

const MIN_BYTES = 2048;
const opus = DEFAULT_MODELS.find((m) => m.id === 'claude-opus-4-7')!;
const sonnet = DEFAULT_MODELS.find((m) => m.id === 'claude-sonnet-4-6')!;
const OPTIONS: TranslateOptions = { dialect: 'chat', operation: 'messages', allowFallback: true };
const rt = runtimeWith({ config: { limits: { jsonDepth: 8 } } as unknown as GatewayConfig, translators: new Translators([chatToAnthropic]) });

/** A pool of one worker thread for one test, closed when it ends (not when a whole unit group does). */
function poolFor(t: Test): TranslatePool {
  const pool = createTranslatePool({ threads: 1, minBytes: MIN_BYTES });
  t.teardown(() => pool.close());
  return pool;
}

/** A chat request of `turns` messages padded to at least the pool's threshold, or kept small. */
function chatBody(large: boolean, extra: Record<string, unknown> = {}): Buffer {
  const text = large ? 'x'.repeat(MIN_BYTES) : 'hi';
  return Buffer.from(JSON.stringify({ model: opus.id, max_tokens: 64, messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: text }], ...extra }));
}

/** An inline stage that only records that it was handed the request. */
function recordingInline(): Stage & { readonly calls: RequestContext[] } {
  const calls: RequestContext[] = [];
  return Object.assign(async (ctx: RequestContext, next: (ctx: RequestContext) => Promise<void>) => {
    calls.push(ctx);
    await next(ctx);
  }, { calls });
}

function withBody(body: Buffer, headers: Record<string, string> = {}): RequestContext {
  const ctx = stageContext({ headers, route: { name: '/openai/v1/chat/completions', surface: 'chat', errorFormat: 'chat' } });
  ctx.body = body;
  return ctx;
}

t.test('a body under the threshold goes to the inline stage, for both steps, the pool not asked', async (t) => {
  const pool = poolFor(t);
  const before = pool.completed;
  for (const make of [(inline: Stage) => offloadParseStage(rt, pool, inline), (inline: Stage) => offloadTranslateStage(rt, pool, inline, OPTIONS)]) {
    const inline = recordingInline();
    const ctx = withBody(chatBody(false));
    const next = recordingNext();
    await make(inline)(ctx, next);
    t.same(inline.calls, [ctx]);
    t.same(next.calls, [ctx]);
  }
  t.equal(pool.completed, before);
});

t.test('parse: a large body\'s head is written, its messages an array of their length; the inline stage not used', async (t) => {
  const pool = poolFor(t);
  const inline = recordingInline();
  const ctx = withBody(chatBody(true, { stream: true, temperature: 0.2 }));
  const next = recordingNext();
  const before = pool.completed;
  await offloadParseStage(rt, pool, inline)(ctx, next);
  t.same(inline.calls, []);
  t.same(next.calls, [ctx]);
  t.equal(pool.completed, before + 1, 'parsed on the worker');
  const { messages, ...head } = ctx.json ?? {};
  t.same(head, { model: opus.id, max_tokens: 64, stream: true, temperature: 0.2 });
  t.ok(Array.isArray(messages) && messages.length === 2, 'messages: two, for the message limit');
});

t.test('parse: a large body that is not one JSON object is the parse stage\'s 400', async (t) => {
  const pool = poolFor(t);
  const cases: Array<[string, Buffer, Record<string, unknown>]> = [
    ['not JSON', Buffer.concat([chatBody(true), Buffer.from('{')]), { message: 'The request body is not valid JSON.' }],
    ['too deep', Buffer.from(JSON.stringify({ model: opus.id, pad: 'x'.repeat(MIN_BYTES), deep: [[[[[[[[[[1]]]]]]]]]] })), { message: /deeper than 8 levels/ }],
    ['a member twice', Buffer.from(`{"model":"a","pad":"${'x'.repeat(MIN_BYTES)}","model":"b"}`), { param: 'model' }],
  ];
  for (const [name, body, error] of cases) {
    const ctx = withBody(body);
    const next = recordingNext();
    await t.rejects(offloadParseStage(rt, pool, parseJsonStage(rt))(ctx, next), { code: 'invalid_request', ...error }, name);
    t.equal(ctx.json, null, `${name}: nothing written`);
    t.same(next.calls, [], `${name}: the chain stops`);
  }
});

/** The context after the parse step and model resolution, as the translate step finds it. */
async function parsedAndResolved(pool: TranslatePool, body: Buffer, headers: Record<string, string> = {}): Promise<RequestContext> {
  const ctx = withBody(body, headers);
  await offloadParseStage(rt, pool, parseJsonStage(rt))(ctx, recordingNext());
  ctx.model = opus;
  return ctx;
}

t.test('translate: the worker\'s provider call is the inline translation\'s, with its flags and warnings', async (t) => {
  const pool = poolFor(t);
  const body = chatBody(true, { stream: true, stream_options: { include_usage: true }, seed: 7 });
  const pooled = await parsedAndResolved(pool, body);
  const next = recordingNext();
  await offloadTranslateStage(rt, pool, recordingInline(), OPTIONS)(pooled, next);
  t.same(next.calls, [pooled]);

  const inline = withBody(body);
  inline.json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  inline.model = opus;
  await translateRequestStage(rt, OPTIONS)(inline, recordingNext());

  t.same(JSON.parse(String(pooled.call?.body)), JSON.parse(String(inline.call?.body)), 'the same provider body');
  t.same([pooled.stream, pooled.includeUsage], [true, true]);
  t.same(pooled.warnings, inline.warnings);
  t.equal(pooled.headers[WARNINGS_HEADER], 'field_ignored:seed');
  t.equal(pooled.callFor?.(opus, 'anthropic'), pooled.call, 'the requested model\'s call as made');
  const fallback = pooled.callFor?.(sonnet, 'anthropic');
  t.equal(fallback?.bodyModel, sonnet.id, 'a fallback is translated again from the whole body');
  t.same(JSON.parse(String(fallback?.body)).messages, JSON.parse(String(inline.call?.body)).messages);
});

t.test('translate: a request the translation refuses is a 400, the chain not run', async (t) => {
  const pool = poolFor(t);
  const cases: Array<[string, Buffer, Record<string, string>, { code: string; param: string }]> = [
    ['strict with a field that would be dropped', chatBody(true, { seed: 7 }), { 'x-gateway-strict': 'true' }, { code: 'invalid_request', param: 'seed' }],
    ['no messages', Buffer.from(JSON.stringify({ model: opus.id, max_tokens: 64, pad: 'x'.repeat(MIN_BYTES) })), {}, { code: 'invalid_request', param: 'messages' }],
  ];
  for (const [name, body, headers, error] of cases) {
    const ctx = await parsedAndResolved(pool, body, headers);
    const next = recordingNext();
    await t.rejects(offloadTranslateStage(rt, pool, recordingInline(), OPTIONS)(ctx, next), error, name);
    t.equal(ctx.call, null, `${name}: no call`);
    t.same(next.calls, [], `${name}: the chain stops`);
  }
});

t.test('translate without a resolved model: a bug, said so', async (t) => {
  const pool = poolFor(t);
  const ctx = await parsedAndResolved(pool, chatBody(true));
  ctx.model = null;
  await t.rejects(offloadTranslateStage(rt, pool, recordingInline(), OPTIONS)(ctx, recordingNext()), /no model was resolved/);
});
