// Request fields with no provider equivalent. docs/contract.md: they are ignored without failing,
// and each one that would have had an effect is listed as a `field_ignored` warning.

import { safeDetail } from '../warnings.js';
import { isAbsent, type Warnings } from '../openai-shared/invalid.js';
import { isRecord } from '../../../lib/is-record.js';

/** Fields the translation maps (or reads) itself. */
const MAPPED = new Set([
  'model', 'messages', 'max_tokens', 'max_completion_tokens', 'temperature', 'top_p', 'top_k', 'stop',
  'stream', 'stream_options', 'tools', 'tool_choice', 'parallel_tool_calls', 'user', 'n',
]);

/** Values equal to the chat format's own default: ignoring them changes nothing, so no warning. */
const NO_EFFECT: Record<string, (v: unknown) => boolean> = {
  logprobs: (v) => v === false,
  top_logprobs: (v) => v === 0,
  presence_penalty: (v) => v === 0,
  frequency_penalty: (v) => v === 0,
  store: (v) => v === false,
  service_tier: (v) => v === 'auto' || v === 'default',
  response_format: (v) => isRecord(v) && v.type === 'text',
  modalities: (v) => Array.isArray(v) && v.length === 1 && v[0] === 'text',
  logit_bias: (v) => isRecord(v) && Object.keys(v).length === 0,
  metadata: (v) => isRecord(v) && Object.keys(v).length === 0,
};

export function warnIgnoredFields(body: Record<string, unknown>, warnings: Warnings): void {
  for (const key of Object.keys(body)) {
    if (MAPPED.has(key)) continue;
    const v = body[key];
    if (isAbsent(v) || (Object.hasOwn(NO_EFFECT, key) && NO_EFFECT[key]!(v))) continue;
    warnings.add('field_ignored', safeDetail(key));
  }
}
