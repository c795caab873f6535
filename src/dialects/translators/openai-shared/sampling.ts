// Request fields the chat and the Responses formats share: sampling (per-model acceptance), the output
// length the model may produce, and the end user's id (docs/contract.md, "Chat-completions decisions";
// docs/wire.md, "Messages requests").

import type { ModelTraits } from '../../model-traits.js';
import type { MessagesRequest } from '../../anthropic/wire.js';
import { expectString, isAbsent, optionalInteger, optionalNumberInRange, type Warnings } from './invalid.js';

type Sampling = Pick<MessagesRequest, 'temperature' | 'top_p' | 'top_k'>;

export function mapSampling(body: Record<string, unknown>, model: ModelTraits, warnings: Warnings): Sampling {
  const out: Sampling = {};
  const temperature = optionalNumberInRange(body.temperature, 'temperature', 0, 2);
  const topP = optionalNumberInRange(body.top_p, 'top_p', 0, 1);
  const topK = optionalInteger(body.top_k, 'top_k', 0);
  if (temperature !== undefined) {
    if (!model.accepts.temperature) {
      // The provider's default is 1: leaving out a 1 changes nothing.
      if (temperature !== 1) warnings.add('sampling_field_dropped', 'temperature');
    } else if (temperature > 1) {
      warnings.add('temperature_clamped', 'temperature');
      out.temperature = 1;
    } else {
      out.temperature = temperature;
    }
  }
  if (topP !== undefined) {
    if (model.accepts.topP) out.top_p = topP;
    else if (topP !== 1) warnings.add('sampling_field_dropped', 'top_p');
  }
  if (topK !== undefined) {
    if (model.accepts.topK) out.top_k = topK;
    else warnings.add('sampling_field_dropped', 'top_k');
  }
  return out;
}

/**
 * The `max_tokens` sent for the output length the client asked for under `param` (undefined: none,
 * so the catalogue default, with a warning), capped at the model's own ceiling (with a warning).
 */
export function capOutputTokens(requested: number | undefined, param: string, model: ModelTraits, warnings: Warnings): number {
  const cap = model.maxOutputTokens ?? Infinity;
  if (requested === undefined) {
    warnings.add('max_tokens_defaulted', param);
    return Math.min(model.defaultMaxTokens, cap);
  }
  if (requested > cap) {
    warnings.add('max_tokens_capped', param);
    return cap;
  }
  return requested;
}

// `metadata.user_id` must be an opaque id, never personal data (docs/wire.md, "Messages requests").
// Plain string checks rather than an e-mail regex: the value is client-controlled and may be huge.
function looksLikeEmail(s: string): boolean {
  const at = s.indexOf('@');
  return at > 0 && s.indexOf('.', at + 2) > 0;
}
const PHONE = /^\+?[\d\s().-]{7,}$/;

/** `param`: the field the id came in (`user`, or the Responses format's `safety_identifier`). */
export function mapUser(raw: unknown, warnings: Warnings, param = 'user'): MessagesRequest['metadata'] {
  if (isAbsent(raw)) return undefined;
  const user = expectString(raw, param);
  if (user.length === 0) return undefined;
  if (looksLikeEmail(user) || PHONE.test(user)) {
    warnings.add('field_ignored', param);
    return undefined;
  }
  return { user_id: user };
}
