// The resolve-model stage alone: reads the parsed body's `model` and `stream`, the catalogue and the
// key's allowed models; writes ctx.requestedModel, ctx.stream and ctx.model; answers 400 for a missing
// model or a stream that is not a boolean, 404 model_not_found (the name echoed short, on one line),
// 403 model_not_allowed.
import t from 'tap';
import { resolveModelStage } from '../../../../src/gateway/stages/resolve-model.js';
import { Catalogue } from '../../../../src/catalog/catalogue.js';
import { DEFAULT_MODELS } from '../../../../src/catalog/model.js';
import type { RequestContext } from '../../../../src/gateway/context.js';
import { principal, recordingNext, runtimeWith, stageContext } from './stage-context.js';

const catalogue = new Catalogue({ defaults: DEFAULT_MODELS, configured: [{ id: 'claude-haiku-4-5-20251001', aliases: ['haiku'] }], fetchLive: null, refreshMs: 60_000 });
const stage = resolveModelStage(runtimeWith({ catalogue }));

function asking(body: Record<string, unknown>, allowed: string[] | null = null): RequestContext {
  const ctx = stageContext();
  ctx.json = body;
  ctx.principal = principal({ allowedModels: allowed === null ? null : new Set(allowed) });
  return ctx;
}

t.test('a catalogue model or alias: the model, the name as written and the stream flag are written', async (t) => {
  const cases: Array<[string, Record<string, unknown>, string, boolean]> = [
    ['an id', { model: 'claude-sonnet-4-6' }, 'claude-sonnet-4-6', false],
    ['an alias', { model: 'haiku', stream: true }, 'claude-haiku-4-5-20251001', true],
    ['stream false', { model: 'claude-opus-4-7', stream: false }, 'claude-opus-4-7', false],
    ['stream null', { model: 'claude-opus-4-7', stream: null }, 'claude-opus-4-7', false],
  ];
  for (const [name, body, id, stream] of cases) {
    const ctx = asking(body);
    const next = recordingNext();
    await stage(ctx, next);
    t.equal(ctx.model?.id, id, name);
    t.equal(ctx.requestedModel, body.model, `${name}: the name as the client wrote it`);
    t.equal(ctx.stream, stream, `${name}: stream`);
    t.same(next.calls, [ctx], `${name}: the chain runs`);
  }
});

t.test('refusals: the error, its param, the chain not run, no model written', async (t) => {
  const long = 'x'.repeat(300);
  const cases: Array<[string, RequestContext, { code: string; status?: number; param?: string; message?: string | RegExp }]> = [
    ['no model', asking({}), { code: 'invalid_request', status: 400, param: 'model', message: /model id \(string\) is required/ }],
    ['an empty name', asking({ model: '' }), { code: 'invalid_request', param: 'model' }],
    ['a number', asking({ model: 7 }), { code: 'invalid_request', param: 'model' }],
    ['stream as a string', asking({ model: 'claude-opus-4-7', stream: 'yes' }), { code: 'invalid_request', status: 400, param: 'stream', message: 'stream: must be a boolean.' }],
    ['an unknown model', asking({ model: 'gpt-4o' }), { code: 'model_not_found', status: 404, param: 'model', message: 'The model "gpt-4o" does not exist or is not served by this gateway.' }],
    ['a name with line breaks', asking({ model: 'a\r\nb' }), { code: 'model_not_found', message: /"a  b"/ }],
    ['a key without the model', asking({ model: 'claude-opus-4-7' }, ['claude-sonnet-4-6']), { code: 'model_not_allowed', status: 403, param: 'model', message: /"claude-opus-4-7"/ }],
    ['an alias the key may not use', asking({ model: 'haiku' }, ['claude-sonnet-4-6']), { code: 'model_not_allowed', message: /"claude-haiku-4-5-20251001"/ }],
  ];
  for (const [name, ctx, error] of cases) {
    const next = recordingNext();
    await t.rejects(async () => stage(ctx, next), error, name);
    t.equal(ctx.model, null, `${name}: no model`);
    t.same(next.calls, [], `${name}: the chain stops`);
  }
  const ctx = asking({ model: long });
  const err = await (async () => stage(ctx, recordingNext()))().then(() => null, (e: unknown) => e as Error);
  t.ok(err !== null && err.message.length < 200, 'a long unknown name is echoed clipped');
  t.equal(ctx.requestedModel, long, 'the requested name is still recorded for the access line');
});
