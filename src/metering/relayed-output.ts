import type { TokenUsage } from './token-usage.js';

// How much output a stream relayed to the client, for a request the client cancelled before the
// provider's final usage came (finding N3: such a stream was metered at the 1 output token of its first
// event). It reads the provider's SSE (Anthropic's, which every provider stream is decoded to) as it goes
// by, without parsing JSON: a `content_block_delta` data line's value runs from its field
// ("text", "thinking", "partial_json") to the line's closing `"}}`. Escapes count as the characters
// they take on the wire, so the estimate errs on the side of more.

/** Characters per output token in the estimate (English text and JSON come near it). */
export const CHARS_PER_OUTPUT_TOKEN = 4;
/** A partial line longer than this is dropped rather than kept (no delta line is that long). */
const MAX_CARRY = 1 << 20;

const DELTA_LINE = Buffer.from('data: {"type":"content_block_delta"');
const VALUE_FIELDS = ['"text":"', '"thinking":"', '"partial_json":"'].map((f) => Buffer.from(f));
const LINE_END = '"}}'.length;

export class RelayedOutput {
  private carry: Buffer | null = null;
  /** Characters of text, thinking and tool-argument deltas seen so far. */
  chars = 0;

  push(bytes: Buffer): void {
    const buf = this.carry === null ? bytes : Buffer.concat([this.carry, bytes]);
    this.carry = null;
    let start = 0;
    for (let nl = buf.indexOf(10, start); nl >= 0; nl = buf.indexOf(10, start)) {
      this.line(buf, start, nl);
      start = nl + 1;
    }
    if (start < buf.length && buf.length - start <= MAX_CARRY) this.carry = Buffer.from(buf.subarray(start));
  }

  /** The output tokens relayed, as estimated from the characters. */
  get tokens(): number {
    return Math.ceil(this.chars / CHARS_PER_OUTPUT_TOKEN);
  }

  private line(buf: Buffer, start: number, end: number): void {
    if (end > start && buf[end - 1] === 13) end--;
    if (end - start < DELTA_LINE.length || buf.compare(DELTA_LINE, 0, DELTA_LINE.length, start, start + DELTA_LINE.length) !== 0) return;
    for (const field of VALUE_FIELDS) {
      const at = buf.indexOf(field, start + DELTA_LINE.length);
      if (at < 0 || at >= end) continue;
      this.chars += Math.max(0, end - LINE_END - (at + field.length));
      return;
    }
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
