// Chat request translation, alone and with the JSON work around it (parse the client's bytes,
// translate, serialise the provider body), for a small request and a 1 MiB conversation: the numbers
// that decide whether large bodies belong on a worker thread. `node dist/bench/micro/chat-request.js`
import { DEFAULT_MODELS } from '../../src/catalog/model.js';
import { translateChatRequest } from '../../src/dialects/translators/chat-to-anthropic/request.js';
import { stringifyMessagesRequest } from '../../src/dialects/translators/openai-shared/request-json.js';
import { largeChatBody, MODEL } from '../scenarios.js';
import type { MicroCase } from './harness.js';
import { formatResults, isMain, measure } from './harness.js';

export function chatRequestCases(): MicroCase[] {
  const model = DEFAULT_MODELS.find((m) => m.id === MODEL)!;
  const small = {
    model: MODEL,
    max_tokens: 16,
    messages: [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Write a short greeting for the release notes of a gateway.' },
    ],
  };
  const cases: MicroCase[] = [];
  for (const [label, body] of [
    ['small', small],
    ['1 MiB', largeChatBody(1024 * 1024)],
  ] as const) {
    const bytes = Buffer.from(JSON.stringify(body));
    const translated = translateChatRequest(body, model, { strict: false });
    if (!translated.ok) throw new Error(translated.message);
    const request = translated.request;
    cases.push(
      { name: `${label}: translateChatRequest`, fn: () => translateChatRequest(body, model, { strict: false }) },
      { name: `${label}: provider body by JSON.stringify`, fn: () => JSON.stringify(request).length },
      { name: `${label}: provider body by stringifyMessagesRequest`, fn: () => stringifyMessagesRequest(request).length },
      {
        name: `${label}: parse + translate + stringify`,
        fn: () => {
          const result = translateChatRequest(JSON.parse(bytes.toString('utf8')), model, { strict: false });
          return result.ok ? stringifyMessagesRequest(result.request).length : 0;
        },
      },
    );
  }
  return cases;
}

if (isMain(import.meta.url)) console.log(formatResults('chat request translation, per request', chatRequestCases().map((c) => measure(c))));
