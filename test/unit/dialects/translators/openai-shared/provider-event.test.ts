// A provider stream event for the chat and Responses translators: the small events of the provider's
// own layout are made without JSON.parse, and must be exactly what the parse gives; anything else is
// parsed, and what cannot be read fails the stream or is ignored as before.
import t from 'tap';
import { commonEvent, readProviderEvent } from '../../../../../src/dialects/translators/openai-shared/provider-event.js';

t.test('the common small events are what JSON.parse gives', async (t) => {
  const common = [
    '{"type":"ping"}',
    '{"type":"message_stop"}',
    '{"type":"content_block_stop","index":0}',
    '{"type":"content_block_stop","index":123456789}',
    '{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":200}}',
    '{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":0}}',
  ];
  for (const data of common) {
    const made = commonEvent(data);
    t.not(made, null, `${data}: made without the parse`);
    t.same(made, JSON.parse(data), `${data}: as parsed`);
    t.same(readProviderEvent({ event: undefined, data }), { ok: true, event: JSON.parse(data) });
  }
});

t.test('anything else takes the parse', async (t) => {
  const others = [
    '{"type":"ping" }',
    '{"type":"content_block_stop","index":01}',
    '{"type":"content_block_stop","index":1234567890}',
    '{"type":"content_block_stop","index":0,"extra":1}',
    '{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"input_tokens":1,"output_tokens":2}}',
    '{"type":"message_start","message":{}}',
  ];
  for (const data of others) t.equal(commonEvent(data), null, data);
  t.same(readProviderEvent({ event: 'content_block_stop', data: '{"type":"content_block_stop","index":1234567890}' }), { ok: true, event: { type: 'content_block_stop', index: 1234567890 } });
  t.same(readProviderEvent({ event: 'ping', data: 'not json' }), { ok: false, malformed: 'The upstream sent a stream event that is not valid JSON.' });
  t.same(readProviderEvent({ event: 'message_stop', data: '[1]' }), { ok: false, malformed: 'The upstream sent a malformed stream event.' });
  t.same(readProviderEvent({ event: 'vendor_thing', data: '"x"' }), { ok: false, malformed: null });
});
