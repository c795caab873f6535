// message_start and message_delta read by expression in the provider's common layout: what they read
// agrees with JSON.parse of the same text whenever they answer, they answer for that layout, and any
// other layout is left to the parse (undefined).
import t from 'tap';
import fc from 'fast-check';
import { messageDeltaOfCommonText, messageStartOfCommonText } from '../../../../src/dialects/anthropic/common-events.js';
import { mergeProviderUsage, usageOf } from '../../../../src/metering/token-usage.js';

const usage = { input_tokens: 15, cache_creation_input_tokens: 0, cache_read_input_tokens: 7, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 3 }, output_tokens: 1, service_tier: 'standard' };
const startOf = (message: Record<string, unknown>) => JSON.stringify({ type: 'message_start', message });
const common = { id: 'msg_01WJrFay', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null, stop_sequence: null, usage };

t.test('message_start, table-driven', async (t) => {
  t.same(messageStartOfCommonText(startOf(common)), { id: 'msg_01WJrFay', model: 'claude-sonnet-4-6', usage: { input: 15, output: 1, cacheRead: 7, cacheWrite: 0, cacheWrite1h: 3 } }, 'the common layout');
  const others: Array<[string, string]> = [
    ['content before model (the recorded API streams)', startOf({ id: 'm', type: 'message', role: 'assistant', content: [], model: 'x', stop_reason: null, stop_sequence: null, usage })],
    ['a member after usage', startOf({ ...common, container: null })],
    ['an escape in the model', startOf({ ...common, model: 'a/b\\c' })],
    ['usage with a server tool count', startOf({ ...common, usage: { ...usage, server_tool_use: { web_search_requests: 1 } } })],
    ['usage without the cache counts', startOf({ ...common, usage: { input_tokens: 1, output_tokens: 1 } })],
    ['content already there', startOf({ ...common, content: [{ type: 'text', text: 'hi' }] })],
    ['spaces', JSON.stringify({ type: 'message_start', message: common }, null, 1)],
    ['another event', JSON.stringify({ type: 'message_delta', message: common })],
  ];
  for (const [name, text] of others) t.equal(messageStartOfCommonText(text), undefined, name);
});

t.test('message_delta, table-driven', async (t) => {
  const delta = (d: Record<string, unknown>, u: Record<string, unknown>) => JSON.stringify({ type: 'message_delta', delta: d, usage: u });
  t.same(messageDeltaOfCommonText(delta({ stop_reason: 'end_turn', stop_sequence: null }, { output_tokens: 200 })), { stopReason: 'end_turn', usage: { output_tokens: 200 } });
  t.equal(messageDeltaOfCommonText(delta({ stop_reason: 'stop_sequence', stop_sequence: 'END' }, { output_tokens: 2 })), undefined, 'a stop sequence');
  t.same(
    messageDeltaOfCommonText(delta({ stop_reason: 'end_turn', stop_sequence: null }, { input_tokens: 15, cache_creation_input_tokens: 0, cache_read_input_tokens: null, output_tokens: 200 })),
    { stopReason: 'end_turn', usage: { input_tokens: 15, cache_creation_input_tokens: 0, cache_read_input_tokens: null, output_tokens: 200 } },
    'the newer layout: the input counts repeated',
  );
  t.equal(messageDeltaOfCommonText(delta({ stop_reason: 'end_turn', stop_sequence: null }, { input_tokens: 3, output_tokens: 2 })), undefined, 'some of the input counts only');
  t.equal(
    messageDeltaOfCommonText(delta({ stop_reason: 'end_turn', stop_sequence: null }, { input_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 2, server_tool_use: { web_search_requests: 1 } })),
    undefined,
    'a server tool count',
  );
  t.equal(messageDeltaOfCommonText(delta({ stop_reason: null, stop_sequence: null }, { output_tokens: 2 })), undefined, 'no stop reason');
  t.equal(messageDeltaOfCommonText(delta({ stop_reason: 'end_turn', stop_sequence: null }, { output_tokens: 1e16 })), undefined, 'a count past 15 digits');
});

t.test('property: message_delta, whenever it answers, reads what JSON.parse and the merge read', async () => {
  const count = fc.oneof(fc.nat(), fc.constant(null), fc.maxSafeNat());
  const usage = fc.oneof(
    fc.record({ output_tokens: fc.oneof(fc.nat(), fc.maxSafeNat()) }),
    fc.record({ input_tokens: fc.oneof(fc.nat(), fc.maxSafeNat()), cache_creation_input_tokens: count, cache_read_input_tokens: count, output_tokens: fc.nat() }),
  );
  const stopReason = fc.oneof(fc.constantFrom('end_turn', 'max_tokens', 'tool_use', 'pause_turn'), fc.string({ maxLength: 12 }));
  fc.assert(
    fc.property(stopReason, usage, fc.record({ input: fc.nat(), output: fc.nat(), cacheRead: fc.nat(), cacheWrite: fc.nat() }), (reason, u, before) => {
      const json = JSON.stringify({ type: 'message_delta', delta: { stop_reason: reason, stop_sequence: null }, usage: u });
      const read = messageDeltaOfCommonText(json);
      if (read === undefined) {
        // Only a stop reason outside the plain alphabet, or an oversized count, leaves it to the parse.
        if (/^[a-z_]{1,40}$/.test(reason) && Object.values(u).every((v) => v === null || v < 1e15)) throw new Error(`not read: ${json}`);
        return;
      }
      if (read.stopReason !== reason) throw new Error(`stop reason differs: ${json}`);
      if (JSON.stringify(read.usage) !== JSON.stringify(u)) throw new Error(`usage differs from the parse's: ${json}`);
      // Merged into the same earlier counts, as the observer merges it and as the parse is merged.
      const merged = { ...before };
      mergeProviderUsage(merged, u);
      const applied = { ...before };
      mergeProviderUsage(applied, read.usage);
      if (JSON.stringify(applied) !== JSON.stringify(merged)) throw new Error(`counts differ: ${json}`);
    }),
    { numRuns: 500 },
  );
});

t.test('property: whenever they answer, they read what JSON.parse reads', async () => {
  const count = fc.oneof(fc.nat(), fc.constant(null), fc.maxSafeNat());
  const text = fc.oneof(fc.string(), fc.stringMatching(/^[A-Za-z0-9._:@/-]{1,20}$/), fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/));
  const start = fc.record({
    id: text,
    model: text,
    usage: fc.record({ input_tokens: fc.nat(), cache_creation_input_tokens: count, cache_read_input_tokens: count, cache_creation: fc.record({ ephemeral_5m_input_tokens: fc.nat(), ephemeral_1h_input_tokens: fc.nat() }), output_tokens: fc.nat(), service_tier: fc.constantFrom('standard', 'priority') }),
  });
  fc.assert(
    fc.property(start, (s) => {
      const json = startOf({ id: s.id, type: 'message', role: 'assistant', model: s.model, content: [], stop_reason: null, stop_sequence: null, usage: s.usage });
      const read = messageStartOfCommonText(json);
      const parsed = JSON.parse(json) as { message: { id: string; model: string; usage: unknown } };
      const plainId = /^[A-Za-z0-9_-]{1,128}$/;
      const plainModel = /^[A-Za-z0-9._:@/-]{1,128}$/;
      if (read === undefined) {
        // Only an id or model outside the plain alphabet, or an oversized count, leaves it to the parse.
        if (plainId.test(s.id) && plainModel.test(s.model) && Object.values(s.usage).every((v) => typeof v !== 'number' || v < 1e15)) throw new Error(`not read: ${json}`);
        return;
      }
      const full = usageOf(parsed.message.usage)!;
      if (read.id !== parsed.message.id || read.model !== parsed.message.model) throw new Error(`facts differ: ${json}`);
      for (const k of ['input', 'output', 'cacheRead', 'cacheWrite', 'cacheWrite1h'] as const) {
        if ((read.usage[k] ?? 0) !== (full[k] ?? 0)) throw new Error(`${k} differs: ${json}`);
      }
    }),
    { numRuns: 500 },
  );
});
