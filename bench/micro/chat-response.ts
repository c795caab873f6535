// A non-streamed chat answer: the provider's message → chat.completion text, by the full path (parse,
// translate, serialise) and by the fast path that splices the text literal (fast-completion.ts), for a
// short answer and a long one. `node dist/bench/micro/chat-response.js`
import { stringifyCompletion } from '../../src/dialects/translators/chat-to-anthropic/completion-json.js';
import { fastCompletion } from '../../src/dialects/translators/chat-to-anthropic/fast-completion.js';
import { translateMessageToCompletion } from '../../src/dialects/translators/chat-to-anthropic/response.js';
import type { Message } from '../../src/dialects/anthropic/wire.js';
import { MODEL } from '../scenarios.js';
import type { MicroCase } from './harness.js';
import { formatResults, isMain, measure } from './harness.js';

const CREATED = 1_790_000_000;

function providerAnswer(text: string): Buffer {
  const usage = { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }, output_tokens: 12, service_tier: 'standard' };
  const message = { id: 'msg_01JmXpOEMTx5DD3H6GBafIIZ', type: 'message', role: 'assistant', model: MODEL, content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null, usage };
  return Buffer.from(JSON.stringify(message));
}

export function chatResponseCases(): MicroCase[] {
  const cases: MicroCase[] = [];
  for (const [label, answer] of [
    ['16 tokens', providerAnswer('You said: Write a short greeting. and that is all there is')],
    ['2,000 tokens', providerAnswer('A sentence of the answer, with "quotes" and a newline.\n'.repeat(180))],
  ] as const) {
    cases.push(
      {
        name: `${label}: parse + translate + stringify`,
        fn: () => {
          const { completion } = translateMessageToCompletion(JSON.parse(answer.toString('utf8')) as Message, { created: CREATED, model: MODEL });
          return stringifyCompletion(completion).length;
        },
      },
      { name: `${label}: fast path`, fn: () => fastCompletion(answer.toString('utf8'), CREATED, MODEL)!.body.length },
    );
  }
  return cases;
}

if (isMain(import.meta.url)) console.log(formatResults('chat response translation, per answer', chatResponseCases().map((c) => measure(c))));
