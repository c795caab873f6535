// The provider's most common non-streamed answer, one text block (../openai-shared/text-answer.ts),
// written as a `response` around the text's JSON string literal as it came, without JSON.parse of the
// answer. The bytes equal the full path's (./response.ts) whenever the provider escaped the text as
// JSON.stringify would; otherwise they differ only in escaping (tested). A known stop reason and the
// provider's common usage object are required too; anything else takes the full path.
import type { TokenUsage } from '../../../metering/token-usage.js';
import { usageOfCommonText } from '../../../metering/token-usage.js';
import { recognizeTextAnswer } from '../openai-shared/text-answer.js';
import { ResponseEnvelope } from './envelope.js';
import { itemIdOf, messageItem, responseIdOf } from './items.js';
import { outcomeOf, responsesUsageFrom } from './outcome.js';

export interface FastResponse {
  body: string;
  usage: TokenUsage;
}

export function fastResponse(answer: string, createdAt: number, model: string, clientBody: Readonly<Record<string, unknown>> | null): FastResponse | null {
  const m = recognizeTextAnswer(answer);
  if (m === null) return null;
  const outcome = outcomeOf(m.stopReason);
  // An unknown reason is reported as a warning by the full path.
  if (outcome.unknown) return null;
  // The common usage object carries no thinking count: reasoning_tokens is 0, as the full path gives it.
  const usage = usageOfCommonText(m.usageText);
  if (usage === undefined) return null;
  const id = responseIdOf(m.id);
  const envelope = new ResponseEnvelope(id, createdAt, model, clientBody);
  const output = `[${messageItem(itemIdOf('msg', id, 0), 'completed', m.textLiteral)}]`;
  return { body: envelope.json(outcome.status, 'null', outcome.incompleteJson, output, JSON.stringify(responsesUsageFrom(usage, undefined))), usage };
}
