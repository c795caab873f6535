// A whole Messages answer's id, model and stop reason, read from the body's two ends without a parse.
import t from 'tap';
import { answerFactsOfMessageBody } from '../../../../src/dialects/anthropic/answer-facts.js';

const answer = (content: unknown, tail = '"stop_reason":"end_turn","stop_sequence":null') =>
  Buffer.from(`{"id":"msg_01AbC","type":"message","role":"assistant","model":"claude-haiku-4-5-20251001","content":${JSON.stringify(content)},${tail},"usage":{"input_tokens":3,"output_tokens":5}}`);

t.test('the provider order: each fact from its own end of the body', async (t) => {
  const cases: Array<[string, Buffer, unknown]> = [
    ['text', answer([{ type: 'text', text: 'hello' }]), { id: 'msg_01AbC', model: 'claude-haiku-4-5-20251001', finishReason: 'end_turn' }],
    ['max_tokens', answer([], '"stop_reason":"max_tokens","stop_sequence":null'), { id: 'msg_01AbC', model: 'claude-haiku-4-5-20251001', finishReason: 'max_tokens' }],
    ['no stop reason', answer([], '"stop_reason":null,"stop_sequence":null'), { id: 'msg_01AbC', model: 'claude-haiku-4-5-20251001', finishReason: null }],
    // Look-alike members inside the content: a tool's input, a text quoting JSON.
    [
      'look-alikes in the content',
      answer([{ type: 'tool_use', id: 'toolu_1', name: 'f', input: { model: 'fake', stop_reason: 'fake', id: 'fake' } }, { type: 'text', text: '{"model":"fake","stop_reason":"fake"}' }], '"stop_reason":"tool_use","stop_sequence":null'),
      { id: 'msg_01AbC', model: 'claude-haiku-4-5-20251001', finishReason: 'tool_use' },
    ],
    ['not the provider order', Buffer.from('{"type":"message","content":[],"id":"msg_1","model":"m","stop_reason":"end_turn"}'), { id: null, model: null, finishReason: 'end_turn' }],
    ['an escaped value', Buffer.from('{"id":"msg\\u0031","model":"m","content":[]}'), { id: null, model: 'm', finishReason: null }],
    ['not JSON at all', Buffer.from('upstream says no'), { id: null, model: null, finishReason: null }],
  ];
  for (const [name, body, expected] of cases) t.same(answerFactsOfMessageBody(body), expected, name);
});
