// The provider's most common non-streamed answer, one text block (../openai-shared/text-answer.ts),
// written as a chat.completion around the text's JSON string literal as it came, already escaped,
// without JSON.parse of the answer or serialising the text again (bench/micro/chat-response.ts). The
// bytes equal stringifyCompletion(translateMessageToCompletion(JSON.parse(answer))) whenever the provider
// escaped the text as JSON.stringify would; otherwise they differ only in escaping (tested). A known
// stop reason and a usage object that JSON.parse accepts are required too; anything else takes the full path.
import { quoteJson } from '../../../lib/json/quote.js';
import type { TokenUsage } from '../../../metering/token-usage.js';
import { stringifyChatUsage } from './completion-json.js';
import { mapFinishReason } from '../openai-shared/finish-reason.js';
import { recognizeTextAnswer } from '../openai-shared/text-answer.js';
import { answerUsagesOfText } from './usage.js';

export interface FastCompletion {
  /** The chat.completion JSON text. */
  body: string;
  /** What the provider reported, for metering. */
  usage: TokenUsage | null;
}

/** The chat.completion for `answer`, or null when the answer is not exactly the shape above. */
export function fastCompletion(answer: string, created: number, model: string): FastCompletion | null {
  const m = recognizeTextAnswer(answer);
  if (m === null) return null;
  const { id, textLiteral: text, stopReason, usageText } = m;
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
