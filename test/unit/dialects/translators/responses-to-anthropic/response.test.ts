// The whole (non-streamed) answer: output items per block type, status from the stop reason, usage,
// names mapped back; the fast path for a one-text answer writes the full path's bytes.
import t from 'tap';
import { ResponseEnvelope } from '../../../../../src/dialects/translators/responses-to-anthropic/envelope.js';
import { fastResponse } from '../../../../../src/dialects/translators/responses-to-anthropic/fast-response.js';
import { translateMessageToResponse } from '../../../../../src/dialects/translators/responses-to-anthropic/response.js';
import { decodeThinking } from '../../../../../src/dialects/translators/responses-to-anthropic/thinking-carrier.js';
import { toolNamesOf } from '../../../../../src/dialects/translators/responses-to-anthropic/tool-names.js';

const USAGE = { input_tokens: 10, cache_creation_input_tokens: 4, cache_read_input_tokens: 6, cache_creation: { ephemeral_5m_input_tokens: 4, ephemeral_1h_input_tokens: 0 }, output_tokens: 20, service_tier: 'standard' };
const message = (content: unknown[], stop = 'end_turn', usage: Record<string, unknown> = USAGE) => ({ id: 'msg_01abc', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content, stop_reason: stop, stop_sequence: null, usage });
const envelope = (client: Record<string, unknown> | null = null) => new ResponseEnvelope('resp_01abc', 1767225600, 'claude-sonnet-4-6', client);

t.test('every block type becomes its item; usage counts cache reads and writes', async (t) => {
  const client = { tools: [{ type: 'custom', name: 'apply_patch' }, { type: 'namespace', name: 'fs', tools: [{ type: 'function', name: 'read' }] }], max_output_tokens: 99, metadata: { a: 'b' } };
  const r = translateMessageToResponse(
    message([
      { type: 'thinking', thinking: 'hmm', signature: 'sig' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'text', text: 'Hi "there"' },
      { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} },
      { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'toolu_2', name: 'apply_patch', input: { input: '*** Begin' } },
      { type: 'tool_use', id: 'toolu_3', name: 'fs__read', input: { path: 'a' } },
    ], 'tool_use', { ...USAGE, output_tokens_details: { thinking_tokens: 7 } }),
    envelope(client),
    toolNamesOf(client.tools),
  );
  const body = JSON.parse(r.body);
  t.match(body, { id: 'resp_01abc', object: 'response', status: 'completed', error: null, incomplete_details: null, model: 'claude-sonnet-4-6', store: false, max_output_tokens: 99, metadata: { a: 'b' } });
  t.same(body.output.map((i: { type: string }) => i.type), ['reasoning', 'reasoning', 'message', 'function_call', 'custom_tool_call', 'function_call']);
  t.same(decodeThinking(body.output[0].encrypted_content), { type: 'thinking', thinking: 'hmm', signature: 'sig' });
  t.same(body.output[0].summary, [{ type: 'summary_text', text: 'hmm' }]);
  t.same(decodeThinking(body.output[1].encrypted_content), { type: 'redacted_thinking', data: 'opaque' });
  t.same(body.output[1].summary, []);
  t.match(body.output[2], { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hi "there"', annotations: [] }] });
  t.same(body.output[3], { id: 'fc_1', type: 'function_call', status: 'completed', call_id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' });
  t.same(body.output[4], { id: 'ctc_2', type: 'custom_tool_call', status: 'completed', call_id: 'toolu_2', name: 'apply_patch', input: '*** Begin' });
  t.same(body.output[5], { id: 'fc_3', type: 'function_call', status: 'completed', call_id: 'toolu_3', name: 'read', namespace: 'fs', arguments: '{"path":"a"}' });
  t.same(body.usage, { input_tokens: 20, input_tokens_details: { cached_tokens: 6 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 7 }, total_tokens: 40 });
  t.same(r.usage, { input: 10, output: 20, cacheRead: 6, cacheWrite: 4 });
  t.same(r.warnings, []);
});

t.test('status from the stop reason', async (t) => {
  const cases: Array<[string, string, unknown, boolean]> = [
    ['end_turn', 'completed', null, false],
    ['stop_sequence', 'completed', null, false],
    ['tool_use', 'completed', null, false],
    ['pause_turn', 'completed', null, false],
    ['max_tokens', 'incomplete', { reason: 'max_output_tokens' }, false],
    ['model_context_window_exceeded', 'incomplete', { reason: 'max_output_tokens' }, false],
    ['refusal', 'incomplete', { reason: 'content_filter' }, false],
    ['something_new', 'completed', null, true],
  ];
  for (const [stop, status, details, unknown] of cases) {
    const r = translateMessageToResponse(message([{ type: 'text', text: 'x' }], stop), envelope(), toolNamesOf(undefined));
    const body = JSON.parse(r.body);
    t.equal(body.status, status, stop);
    t.same(body.incomplete_details, details);
    t.same(r.warnings, unknown ? [{ kind: 'finish_reason_unknown', detail: 'stop_reason' }] : []);
  }
});

t.test('the fast path writes the full path’s bytes for a one-text answer, and declines the rest', async (t) => {
  for (const text of ['Hello', 'quote " and \\ and \n and é and 😀', '']) {
    for (const stop of ['end_turn', 'max_tokens']) {
      const answer = JSON.stringify(message([{ type: 'text', text }], stop));
      const fast = fastResponse(answer, 1767225600, 'claude-sonnet-4-6', { max_output_tokens: 5 });
      const full = translateMessageToResponse(JSON.parse(answer), envelope({ max_output_tokens: 5 }), toolNamesOf(undefined));
      t.equal(fast?.body, full.body, `${JSON.stringify(text)} ${stop}`);
      t.same(fast?.usage, full.usage);
    }
  }
  t.equal(fastResponse(JSON.stringify(message([{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }])), 0, 'm', null), null, 'a tool call');
  t.equal(fastResponse(JSON.stringify(message([{ type: 'text', text: 'x' }], 'new_reason')), 0, 'm', null), null, 'an unknown stop reason');
  t.equal(fastResponse(JSON.stringify(message([{ type: 'text', text: 'x' }], 'end_turn', { ...USAGE, output_tokens_details: { thinking_tokens: 3 } })), 0, 'm', null), null, 'usage with a thinking count');
});
