// What a Messages answer says of itself (its id, the model that wrote it, why it stopped), for the
// request's trace span. A stream's facts come from the events that are parsed anyway (message_start,
// message_delta); a whole answer is scanned, not parsed, and only for a sampled span.
import type { AnswerFacts } from '../translators/translator.js';
import { isRecord } from '../../lib/is-record.js';

export function emptyAnswerFacts(): AnswerFacts {
  return { id: null, model: null, finishReason: null };
}

/** message_start: the message's id and model. */
export function noteMessageStart(facts: AnswerFacts, message: unknown): void {
  if (!isRecord(message)) return;
  if (typeof message.id === 'string') facts.id = message.id;
  if (typeof message.model === 'string') facts.model = message.model;
}

/** message_delta: the stop reason, kept and returned (null: this delta carries none). */
export function noteMessageDelta(facts: AnswerFacts, delta: unknown): string | null {
  if (!isRecord(delta) || typeof delta.stop_reason !== 'string') return null;
  facts.finishReason = delta.stop_reason;
  return delta.stop_reason;
}

const ID = Buffer.from('"id":"');
const MODEL = Buffer.from('"model":"');
const CONTENT = Buffer.from('"content":');
const STOP_REASON = Buffer.from('"stop_reason":"');
/** The provider writes `id` first: it is looked for at the start only. */
const ID_WITHIN = 16;

/**
 * A whole Messages answer's facts without parsing its content: the provider writes `id` and `model`
 * before `content` and `stop_reason` after it, so each is read from its own end of the body. A
 * member name right after `{` or `,` cannot be inside a string (its quote would be escaped); a value
 * holding an escape is not read. What cannot be found this way is null.
 */
export function answerFactsOfMessageBody(body: Buffer): AnswerFacts {
  const facts = emptyAnswerFacts();
  const content = body.indexOf(CONTENT);
  const idAt = body.indexOf(ID);
  if (idAt >= 0 && idAt < ID_WITHIN && isMemberName(body, idAt)) facts.id = stringAfter(body, idAt + ID.length);
  const modelAt = body.indexOf(MODEL);
  if (modelAt >= 0 && (content < 0 || modelAt < content) && isMemberName(body, modelAt)) facts.model = stringAfter(body, modelAt + MODEL.length);
  const stopAt = body.lastIndexOf(STOP_REASON);
  if (stopAt > content && isMemberName(body, stopAt)) facts.finishReason = stringAfter(body, stopAt + STOP_REASON.length);
  return facts;
}

const OPEN_BRACE = 0x7b;
const COMMA = 0x2c;
const QUOTE = 0x22;

function isMemberName(body: Buffer, at: number): boolean {
  const before = body[at - 1];
  return before === OPEN_BRACE || before === COMMA;
}

/** The string value starting at `start` (after its opening quote); null when long or escaped. */
function stringAfter(body: Buffer, start: number): string | null {
  const end = body.indexOf(QUOTE, start);
  if (end < 0 || end - start > 256) return null;
  const text = body.toString('utf8', start, end);
  return text.includes('\\') ? null : text;
}
