// Recognises the provider's most common non-streamed answer, one text block, without JSON.parse: its
// message id, the text's JSON string literal as the provider escaped it, its stop reason and its usage
// object's text. The OpenAI formats' translators write their answer around the literal
// (chat-to-anthropic/fast-completion.ts, responses-to-anthropic/fast-response.ts).
//
// The guard is strict: exactly the keys the provider writes, in its order, and a usage object at most
// one level deep. Anything else (tool use, thinking, several blocks, citations, another field or key
// order) is not recognised and takes the full path.
import { JSON_STRING_LITERAL } from './json-literal.js';

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

export interface TextAnswer {
  /** The provider's message id (`msg_…`). */
  id: string;
  /** The text as a JSON string literal, quotes included. */
  textLiteral: string;
  stopReason: string;
  /** The usage object's JSON text. */
  usageText: string;
}

/** The parts of `answer`, or null when it is not exactly the shape above. */
export function recognizeTextAnswer(answer: string): TextAnswer | null {
  if (answer.length > MAX_FAST_ANSWER_CHARS) return null;
  const m = SHAPE.exec(answer);
  if (m === null) return null;
  const [, id, textLiteral, stopReason, usageText] = m as unknown as [string, string, string, string, string];
  return { id, textLiteral, stopReason, usageText };
}
