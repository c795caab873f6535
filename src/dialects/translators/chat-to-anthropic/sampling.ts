// The chat format's own scalar fields: output length and stop sequences (docs/contract.md,
// "Chat-completions decisions"; docs/wire.md, "Messages requests"). Sampling and `user`: ../openai-shared/sampling.ts.

import type { ModelTraits } from '../../model-traits.js';
import { expectString, fail, isAbsent, isBlank, optionalInteger, type Warnings } from '../openai-shared/invalid.js';
import { capOutputTokens } from '../openai-shared/sampling.js';

/** `max_completion_tokens` wins over `max_tokens`; neither → the catalogue default; both capped by the model. */
export function mapMaxTokens(body: Record<string, unknown>, model: ModelTraits, warnings: Warnings): number {
  const completion = optionalInteger(body.max_completion_tokens, 'max_completion_tokens', 1);
  const legacy = optionalInteger(body.max_tokens, 'max_tokens', 1);
  if (completion !== undefined && legacy !== undefined && completion !== legacy) warnings.add('field_ignored', 'max_tokens');
  return capOutputTokens(completion ?? legacy, completion !== undefined ? 'max_completion_tokens' : 'max_tokens', model, warnings);
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
