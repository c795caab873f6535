// Whether a relayed stream already ended as a whole answer: the last thing received is the surface's
// closing event, however the bytes were split and whichever line ends they used.
import t from 'tap';
import { StreamEnding } from '../../../../src/apps/proxy/stream-ending.js';

const MESSAGES_END = 'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"}}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n';
const CHAT_END = 'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';

const cases: Array<{ name: string; format: 'messages' | 'chat'; text: string; complete: boolean }> = [
  { name: 'messages: message_stop last', format: 'messages', text: MESSAGES_END, complete: true },
  { name: 'messages: CRLF line ends', format: 'messages', text: MESSAGES_END.replaceAll('\n', '\r\n'), complete: true },
  { name: 'messages: message_stop still without its blank line', format: 'messages', text: MESSAGES_END.trimEnd(), complete: true },
  { name: 'messages: cut before message_stop', format: 'messages', text: MESSAGES_END.slice(0, MESSAGES_END.indexOf('event: message_stop')), complete: false },
  { name: 'messages: half the message_stop line', format: 'messages', text: MESSAGES_END.slice(0, -8), complete: false },
  { name: 'messages: something after message_stop', format: 'messages', text: `${MESSAGES_END}event: ping\ndata: {"type":"ping"}\n\n`, complete: false },
  { name: 'messages: the chat marker means nothing here', format: 'messages', text: CHAT_END, complete: false },
  { name: 'chat: [DONE] last', format: 'chat', text: CHAT_END, complete: true },
  { name: 'chat: an error chunk, then [DONE]', format: 'chat', text: 'data: {"error":{"message":"x"}}\n\ndata: [DONE]\n\n', complete: true },
  { name: 'chat: cut before [DONE]', format: 'chat', text: CHAT_END.slice(0, CHAT_END.indexOf('data: [DONE]')), complete: false },
  { name: 'chat: "[DONE]" inside generated text', format: 'chat', text: 'data: {"choices":[{"delta":{"content":"data: [DONE]"}}]}\n\n', complete: false },
  { name: 'nothing received', format: 'chat', text: '', complete: false },
];

t.test('complete only when the closing event came last, whole or split anywhere', async (t) => {
  for (const c of cases) {
    const bytes = Buffer.from(`data: {"choices":[{"delta":{"content":"ünïcødé ✓"}}]}\n\n${c.text}`, 'utf8');
    let agrees = true;
    for (let cut = 0; cut <= bytes.length; cut++) {
      const e = StreamEnding.of(c.format);
      e.push(bytes.subarray(0, cut));
      e.push(bytes.subarray(cut));
      agrees &&= e.complete === c.complete;
    }
    const bytewise = StreamEnding.of(c.format);
    for (let i = 0; i < bytes.length; i++) bytewise.push(bytes.subarray(i, i + 1));
    t.ok(agrees && bytewise.complete === c.complete, `${c.name}: ${c.complete ? 'complete' : 'not complete'}, split anywhere and byte by byte`);
  }
});
