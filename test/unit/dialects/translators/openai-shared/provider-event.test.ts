// A provider stream event for the chat and Responses translators: the small events of the provider's
// own layout are made without JSON.parse, and must be exactly what the parse gives; anything else is
// parsed, and what cannot be read fails the stream or is ignored as before.
import t from 'tap';
import { commonEvent, readProviderEvent } from '../../../../../src/dialects/translators/openai-shared/provider-event.js';

t.test('the common small events are made as JSON.parse gives them; the rest is parsed', async (t) => {
  const cases: Array<[string, boolean]> = [
    ['{"type":"ping"}', true],
    ['{"type":"message_stop"}', true],
    ['{"type":"content_block_stop","index":0}', true],
    ['{"type":"content_block_stop","index":123456789}', true],
    ['{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":200}}', true],
    ['{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":0}}', true],
    ['{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"input_tokens":15,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":200}}', true],
    ['{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"input_tokens":15,"cache_creation_input_tokens":null,"cache_read_input_tokens":null,"output_tokens":200}}', true],
    ['{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"input_tokens":15,"cache_read_input_tokens":0,"cache_creation_input_tokens":0,"output_tokens":200}}', false],
    ['{"type":"ping" }', false],
    ['{"type":"content_block_stop","index":1234567890}', false],
    ['{"type":"content_block_stop","index":0,"extra":1}', false],
    ['{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"input_tokens":1,"output_tokens":2}}', false],
    ['{"type":"message_start","message":{}}', false],
  ];
  for (const [data, common] of cases) {
    const made = commonEvent(data);
    if (common) t.same(made, JSON.parse(data), `${data}: made without the parse, as parsed`);
    else t.equal(made, null, `${data}: left to the parse`);
    t.same(readProviderEvent({ event: undefined, data }), { ok: true, event: JSON.parse(data) }, `${data}: read`);
  }
  t.equal(commonEvent('{"type":"content_block_stop","index":01}'), null, 'not JSON: left to the parse, which refuses it');
});

t.test('what cannot be read fails the stream, or is ignored when it is not the provider\'s', async (t) => {
  t.same(readProviderEvent({ event: 'ping', data: 'not json' }), { ok: false, malformed: 'The upstream sent a stream event that is not valid JSON.' });
  t.same(readProviderEvent({ event: 'message_stop', data: '[1]' }), { ok: false, malformed: 'The upstream sent a malformed stream event.' });
  t.same(readProviderEvent({ event: 'vendor_thing', data: '"x"' }), { ok: false, malformed: null });
});
