// Recognises the provider's most common non-streamed answer, one text block, and writes the
// chat.completion around the text's JSON string literal as it came, already escaped, without
// JSON.parse of the answer or serialising the text again (bench/micro/chat-response.ts). The bytes
// equal stringifyCompletion(translateMessageToCompletion(JSON.parse(answer))) whenever the provider
// escaped the text as JSON.stringify would; otherwise they differ only in escaping (tested).
//
// The guard is strict: exactly the keys the provider writes, in its order, a known stop reason, and a
// usage object at most one level deep that JSON.parse accepts. Anything else (tool use, thinking,
// several blocks, citations, another field or key order) is not recognised and takes the full path.
import { quoteJson } from '../../../lib/json/quote.js';
import type { TokenUsage } from '../../../metering/token-usage.js';
import { stringifyChatUsage } from './completion-json.js';
import { mapFinishReason } from '../openai-shared/finish-reason.js';
import { JSON_STRING_LITERAL } from '../openai-shared/json-literal.js';
import { answerUsagesOfText } from './usage.js';

/** Longer answers take the full parse: the regular expression's backtracking stack grows with the text. */
export const MAX_FAST_ANSWER_CHARS = 64 * 1024;

const SHAPE = new RegExp(
  '^\\{"id":"(msg_[A-Za-z0-9_]{1,100})","type":"message","role":"assistant","model":' +
    JSON_STRING_LITERAL +
    ',"content":\\[\\{"type":"text","text":(' +
    JSON_STRING_LITERAL +
    ')\\}\\],"stop_reason":"([a-z_]{1,40})","stop_sequence":(?:null|' +
    JSON_STRING_LITERAL +
    '),"usage":(\\{[^{}]*(?:\\{[^{}]*\\}[^{}]*)*\\})\\}$',
);

export interface FastCompletion {
  /** The chat.completion JSON text. */
  body: string;
  /** What the provider reported, for metering. */
  usage: TokenUsage | null;
}

/** The chat.completion for `answer`, or null when the answer is not exactly the shape above. */
export function fastCompletion(answer: string, created: number, model: string): FastCompletion | null {
  if (answer.length > MAX_FAST_ANSWER_CHARS) return null;
  const m = SHAPE.exec(answer);
  if (m === null) return null;
  const [, id, text, stopReason, usageText] = m as unknown as [string, string, string, string, string];
  const finish = mapFinishReason(stopReason);
  // An unknown reason is reported as a warning by the full path.
  if (finish.unknown) return null;
  const usage = answerUsagesOfText(usageText);
  if (usage === null) return null;
  return {
    body: `{"id":"chatcmpl-${id}","object":"chat.completion","created":${created},"model":${quoteJson(model)},"choices":[{"index":0,"message":{"role":"assistant","content":${text},"refusal":null},"logprobs":null,"finish_reason":"${finish.reason}"}],"usage":${stringifyChatUsage(usage.chat)}}`,
    usage: usage.tokens,
  };
}
