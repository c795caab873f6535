// The limit-messages stage alone: reads the parsed body's conversation field (`messages`, or the
// Responses surface's `input`) and the configured maximum, writes nothing, answers 400 invalid_request
// naming the field when the conversation is longer.
import t from 'tap';
import { limitMessagesStage } from '../../../../src/gateway/stages/limit-messages.js';
import type { GatewayConfig } from '../../../../src/config/config.js';
import { recordingNext, runtimeWith, stageContext } from './stage-context.js';

const rt = runtimeWith({ config: { limits: { maxMessages: 2 } } as unknown as GatewayConfig });
const items = (n: number) => Array.from({ length: n }, () => ({ role: 'user', content: 'x' }));

t.test('at or under the maximum, or no list at all, the chain runs', async (t) => {
  const cases: Array<[string, 'messages' | 'input', Record<string, unknown>]> = [
    ['two messages', 'messages', { messages: items(2) }],
    ['no messages', 'messages', {}],
    ['input as a string', 'input', { input: 'one long prompt' }],
    ['two input items', 'input', { input: items(2) }],
    ['three messages, but the route counts input', 'input', { messages: items(3) }],
  ];
  for (const [name, field, body] of cases) {
    const ctx = stageContext();
    ctx.json = body;
    const next = recordingNext();
    await limitMessagesStage(rt, field)(ctx, next);
    t.same(next.calls, [ctx], name);
  }
});

t.test('over the maximum: 400 naming the field and the count, the chain not run', async (t) => {
  const cases: Array<['messages' | 'input', RegExp]> = [
    ['messages', /^messages: at most 2 messages are accepted, got 3\.$/],
    ['input', /^input: at most 2 items are accepted, got 3\.$/],
  ];
  for (const [field, message] of cases) {
    const ctx = stageContext();
    ctx.json = { [field]: items(3) };
    const next = recordingNext();
    await t.rejects(async () => limitMessagesStage(rt, field)(ctx, next), { code: 'invalid_request', status: 400, param: field, message }, field);
    t.same(next.calls, [], `${field}: the chain stops`);
  }
});

t.test('a route that did not parse the body first is a bug, not a client error', async (t) => {
  await t.rejects(async () => limitMessagesStage(rt, 'messages')(stageContext(), recordingNext()), /read the body before any stage parsed it/);
});
