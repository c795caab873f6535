// A thinking block travels to a Responses client and back inside a `reasoning` item's
// `encrypted_content`: the provider refuses a later turn of a tool loop whose thinking came back
// changed, and a Responses client keeps only what the item carries. The block is written whole
// (text and signature, or the redacted data) as base64url JSON behind a version prefix; the client
// treats it as opaque, as it does the real service's encrypted reasoning.
import type { RedactedThinkingBlockParam, ThinkingBlockParam } from '../../anthropic/wire.js';
import { isRecord } from '../../../lib/is-record.js';

const PREFIX = 'mgw1.';

export type CarriedThinking = ThinkingBlockParam | RedactedThinkingBlockParam;

export function encodeThinking(block: CarriedThinking): string {
  const payload = block.type === 'thinking' ? { t: block.thinking, s: block.signature } : { r: block.data };
  return PREFIX + Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

/** The block `encrypted_content` carries, or null when it is not one the gateway wrote. */
export function decodeThinking(carried: string): CarriedThinking | null {
  if (!carried.startsWith(PREFIX)) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(carried.slice(PREFIX.length), 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!isRecord(payload)) return null;
  if (typeof payload.t === 'string' && typeof payload.s === 'string') return { type: 'thinking', thinking: payload.t, signature: payload.s };
  if (typeof payload.r === 'string') return { type: 'redacted_thinking', data: payload.r };
  return null;
}
