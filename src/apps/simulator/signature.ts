// Signatures of the simulator's thinking blocks. Like the provider's, a signature is checked when
// the block comes back in a later request, so a gateway that edits or drops thinking text is caught.
import { createHash } from 'node:crypto';

const PREFIX = 'simsig1.';

export function signThinking(thinking: string): string {
  const digest = createHash('sha256').update('model-gateway-simulator\n').update(thinking).digest('base64');
  return PREFIX + digest;
}

/**
 * True when `signature` was made by signThinking for `thinking`. An empty `thinking` with one of
 * our signatures is accepted: that is how a block generated with display "omitted" comes back.
 */
export function verifyThinking(thinking: string, signature: string): boolean {
  if (!signature.startsWith(PREFIX)) return false;
  if (thinking === '') return signature.length > PREFIX.length;
  return signature === signThinking(thinking);
}
