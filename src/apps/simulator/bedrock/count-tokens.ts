// Bedrock's CountTokens for Anthropic's models: `POST /model/{modelId}/count-tokens` with
// `{"input": {"invokeModel": {"body": "<base64 of an InvokeModel body>"}}}`, answered by
// `{"inputTokens": N}`. The inner body is checked as InvokeModel checks it (Bedrock's own rules, then
// the model's, `max_tokens` included) and its input counted as the provider's count_tokens counts it.
// The other member of the input union, `converse`, is the Converse API's, which the simulator does
// not play: it is refused as an operation this endpoint does not take.
import { isRecord } from '../../../lib/is-record.js';
import { tallyInput } from '../reply/estimate.js';
import { validateMessagesRequest } from '../validate/request.js';
import type { ModelIndex } from '../models.js';
import type { ApiFailure } from '../types.js';

/** The InvokeModel body inside a CountTokens request; a ValidationException's message when there is none. */
export function invokeBodyOf(body: Buffer): Buffer | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return 'Malformed input request, please reformat your input and try again.';
  }
  const input = isRecord(parsed) ? parsed.input : undefined;
  if (!isRecord(input)) return "1 validation error detected: Value null at 'input' failed to satisfy constraint: Member must not be null";
  if ('converse' in input) return 'The simulator counts tokens of InvokeModel bodies only (input.invokeModel).';
  const invoke = input.invokeModel;
  const encoded = isRecord(invoke) ? invoke.body : undefined;
  if (typeof encoded !== 'string') return "1 validation error detected: Value null at 'input.invokeModel.body' failed to satisfy constraint: Member must not be null";
  // Base64 as AWS's JSON protocol writes a blob: any other character is not one.
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return "1 validation error detected: Value at 'input.invokeModel.body' failed to satisfy constraint: Member must be valid Base64";
  return Buffer.from(encoded, 'base64');
}

/** The count of an InvokeModel request already through Bedrock's own checks, or the model's refusal. */
export function countInvokeTokens(request: Record<string, unknown>, models: ModelIndex, beta: boolean): { inputTokens: number } | ApiFailure {
  const checked = validateMessagesRequest(request, { models, beta });
  if (!checked.ok) return checked.failure;
  return { inputTokens: tallyInput(checked.value).total };
}
