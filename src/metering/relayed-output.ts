import type { TokenUsage } from './token-usage.js';

// How much output a stream relayed to the client, for a request the client cancelled before the
// provider's final usage came (finding N3: such a stream was metered at the 1 output token of its first
// event). It reads the provider's SSE events (Anthropic's, which every provider stream is decoded to)
// as the stream's own parser hands them over, without parsing JSON: a `content_block_delta` event's
// value runs from its field ("text", "thinking", "partial_json") to the data's closing `"}}`. Escapes
// count as the characters they take on the wire, so the estimate errs on the side of more.
//
// It used to scan the relayed bytes for itself, line by line, beside the parser that already split
// them: two native Buffer searches and a compare per line were about a tenth of a streamed request's
// CPU in the bench's profiles. Counting the events the parser dispatches costs one startsWith and one
// indexOf on a string the parser made anyway. An event counts once its closing blank line arrived.

/** Characters per output token in the estimate (English text and JSON come near it). */
export const CHARS_PER_OUTPUT_TOKEN = 4;

const DELTA_EVENT = '{"type":"content_block_delta"';
const VALUE_FIELDS = ['"text":"', '"thinking":"', '"partial_json":"'];
const DATA_END = '"}}'.length;

export class RelayedOutput {
  /** Characters of text, thinking and tool-argument deltas seen so far. */
  chars = 0;

  /** One provider event's `data` (a stream's parser calls this for every event it dispatches). */
  event(data: string): void {
    if (!data.startsWith(DELTA_EVENT)) return;
    for (let i = 0; i < VALUE_FIELDS.length; i++) {
      const field = VALUE_FIELDS[i]!;
      const at = data.indexOf(field, DELTA_EVENT.length);
      if (at < 0) continue;
      this.chars += Math.max(0, data.length - DATA_END - (at + field.length));
      return;
    }
  }

  /** The output tokens relayed, as estimated from the characters. */
  get tokens(): number {
    return Math.ceil(this.chars / CHARS_PER_OUTPUT_TOKEN);
  }
}

/**
 * The usage to meter a cancelled stream at: what the provider reported, its output raised to what was
 * relayed, its input (when it never reported any) the reservation's estimate. `estimated` says whether
 * any count was raised, which the usage row records.
 */
export function cancelledUsage(reported: TokenUsage | null, relayedTokens: number, inputEstimate: number): { usage: TokenUsage; estimated: boolean } {
  const usage = reported === null ? { input: inputEstimate, output: 0, cacheRead: 0, cacheWrite: 0 } : { ...reported };
  let estimated = reported === null;
  if (relayedTokens > usage.output) {
    usage.output = relayedTokens;
    estimated = true;
  }
  return { usage, estimated };
}
