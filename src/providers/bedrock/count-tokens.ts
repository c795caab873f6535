// Bedrock's CountTokens (`POST /model/{modelId}/count-tokens`): the InvokeModel body it would count,
// base64 inside `{"input":{"invokeModel":{"body":…}}}`, answered by `{"inputTokens": N}`, which goes
// back as the provider's count_tokens answer `{"input_tokens": N}`. InvokeModel's body needs
// `max_tokens`, which a count_tokens request has no reason to carry: 1 is added when it is absent.
import { editMembers } from '../../lib/json/edit-members.js';
import { isRecord } from '../../lib/is-record.js';

export function bedrockCountTokensPath(modelId: string): string {
  return `/model/${encodeURIComponent(modelId)}/count-tokens`;
}

/** `invokeBody`: the Messages body already restated for InvokeModel (request-body.ts). */
export function bedrockCountTokensBody(invokeBody: Buffer): Buffer {
  const counted = editMembers(invokeBody, { addIfAbsent: [['max_tokens', 1]] });
  return Buffer.from(JSON.stringify({ input: { invokeModel: { body: counted.toString('base64') } } }), 'utf8');
}

const INPUT_TOKENS = Buffer.from('"inputTokens"', 'latin1');
/** A CountTokens answer is a few bytes; a Messages answer is never this short with that member. */
const MAX_COUNT_ANSWER_BYTES = 256;

/** The provider's count_tokens body for a CountTokens answer; null for any other answer. */
export function countTokensAnswer(body: Buffer): Buffer | null {
  if (body.length > MAX_COUNT_ANSWER_BYTES || !body.includes(INPUT_TOKENS)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  if (!isRecord(parsed) || typeof parsed.inputTokens !== 'number' || Object.keys(parsed).length !== 1) return null;
  return Buffer.from(JSON.stringify({ input_tokens: parsed.inputTokens }), 'utf8');
}
