// The parse-json stage alone: reads ctx.body and the JSON depth limit, writes ctx.json, answers 400
// invalid_request (param naming a member given twice) for anything that is not one JSON object.
import t from 'tap';
import { parseJsonStage } from '../../../../src/gateway/stages/parse-json.js';
import { GatewayError } from '../../../../src/dialects/errors/codes.js';
import type { GatewayConfig } from '../../../../src/config/config.js';
import { recordingNext, runtimeWith, stageContext } from './stage-context.js';

const stage = parseJsonStage(runtimeWith({ config: { limits: { jsonDepth: 3 } } as unknown as GatewayConfig }));

function withBody(body: string | null) {
  const ctx = stageContext();
  ctx.body = body === null ? null : Buffer.from(body);
  return ctx;
}

t.test('a JSON object is written to ctx.json and the chain runs', async (t) => {
  const ctx = withBody('{"model":"m","messages":[{"role":"user"}]}');
  const next = recordingNext();
  await stage(ctx, next);
  t.same(ctx.json, { model: 'm', messages: [{ role: 'user' }] });
  t.same(next.calls, [ctx]);
});

t.test('refusals: 400 invalid_request with the reason, nothing written, the chain not run', async (t) => {
  const cases: Array<[string, string | null, RegExp, string | null]> = [
    ['no body', null, /empty/, null],
    ['an empty body', '', /empty/, null],
    ['not JSON', '{"model":', /not valid JSON/, null],
    ['an array', '[1]', /must be a JSON object/, null],
    ['a string', '"x"', /must be a JSON object/, null],
    ['null', 'null', /must be a JSON object/, null],
    ['deeper than the limit', '{"a":{"b":{"c":{"d":1}}}}', /deeper than 3 levels/, null],
    ['a member twice', '{"model":"a","model":"b"}', /model: the request body names this member more than once/, 'model'],
  ];
  for (const [name, body, message, param] of cases) {
    const ctx = withBody(body);
    const next = recordingNext();
    let thrown: unknown = null;
    try {
      await stage(ctx, next);
    } catch (err) {
      thrown = err;
    }
    t.ok(thrown instanceof GatewayError, name);
    t.match(thrown, { code: 'invalid_request', status: 400, message, param }, name);
    t.equal(ctx.json, null, `${name}: nothing written`);
    t.same(next.calls, [], `${name}: the chain stops`);
  }
});

t.test('a key like __proto__ stays plain data', async (t) => {
  const ctx = withBody('{"__proto__":{"polluted":true}}');
  await stage(ctx, recordingNext());
  t.equal(({} as Record<string, unknown>).polluted, undefined);
  t.same(Object.keys(ctx.json ?? {}), ['__proto__']);
});
