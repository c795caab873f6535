// Scalar request fields: sampling, output length, stop sequences, user (docs/contract.md,
// "Chat-completions decisions"; docs/wire.md, "Messages requests").

import type { ModelTraits } from '../../model-traits.js';
import type { MessagesRequest } from '../../anthropic/wire.js';
import { expectString, fail, isAbsent, isBlank, optionalInteger, optionalNumberInRange, type Warnings } from './invalid.js';

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

/** `max_completion_tokens` wins over `max_tokens`; neither → the catalogue default; both capped by the model. */
export function mapMaxTokens(body: Record<string, unknown>, model: ModelTraits, warnings: Warnings): number {
  const completion = optionalInteger(body.max_completion_tokens, 'max_completion_tokens', 1);
  const legacy = optionalInteger(body.max_tokens, 'max_tokens', 1);
  if (completion !== undefined && legacy !== undefined && completion !== legacy) warnings.add('field_ignored', 'max_tokens');
  const requested = completion ?? legacy;
  const cap = model.maxOutputTokens ?? Infinity;
  if (requested === undefined) {
    warnings.add('max_tokens_defaulted', 'max_tokens');
    return Math.min(model.defaultMaxTokens, cap);
  }
  if (requested > cap) {
    warnings.add('max_tokens_capped', completion !== undefined ? 'max_completion_tokens' : 'max_tokens');
    return cap;
  }
  return requested;
}

const MAX_STOP_SEQUENCES = 4;

/** A string or up to 4 strings; blank entries are refused upstream, so they are dropped (with a warning). */
export function mapStop(raw: unknown, warnings: Warnings): string[] | undefined {
  if (isAbsent(raw)) return undefined;
  if (typeof raw === 'string') return keepStop(raw, 'stop', warnings) ? [raw] : undefined;
  if (!Array.isArray(raw)) fail('stop', 'stop must be a string or an array of strings');
  if (raw.length > MAX_STOP_SEQUENCES) fail('stop', `stop may hold at most ${MAX_STOP_SEQUENCES} sequences, got ${raw.length}`);
  const kept = raw.filter((s, i) => keepStop(expectString(s, `stop[${i}]`), `stop[${i}]`, warnings));
  return kept.length > 0 ? kept : undefined;
}

function keepStop(s: string, param: string, warnings: Warnings): boolean {
  if (!isBlank(s)) return true;
  warnings.add('stop_sequence_dropped', param);
  return false;
}

// `metadata.user_id` must be an opaque id, never personal data (docs/wire.md, "Messages requests").
// Plain string checks rather than an e-mail regex: the value is client-controlled and may be huge.
function looksLikeEmail(s: string): boolean {
  const at = s.indexOf('@');
  return at > 0 && s.indexOf('.', at + 2) > 0;
}
const PHONE = /^\+?[\d\s().-]{7,}$/;

export function mapUser(raw: unknown, warnings: Warnings): MessagesRequest['metadata'] {
  if (isAbsent(raw)) return undefined;
  const user = expectString(raw, 'user');
  if (user.length === 0) return undefined;
  if (looksLikeEmail(user) || PHONE.test(user)) {
    warnings.add('field_ignored', 'user');
    return undefined;
  }
  return { user_id: user };
}
