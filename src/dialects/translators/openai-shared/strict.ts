// `x-gateway-strict: true` on a translated surface: any change to what the client asked for is a 400
// naming the first field changed, instead of a warning.
import type { TranslationWarning } from '../warnings.js';

/** `x-gateway-strict: true`: the client prefers a 400 over any change to what it asked for. */
export function strictRefusal(warnings: readonly TranslationWarning[]): { ok: false; message: string; param: string } {
  const first = warnings[0]!;
  const list = warnings.map((w) => `${w.kind} (${w.detail})`).join(', ');
  return {
    ok: false,
    param: first.detail,
    message: `strict mode: the request cannot be sent unchanged: ${list}`,
  };
}
