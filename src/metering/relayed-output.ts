import { startsAt } from '../lib/text-at.js';
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
/**
 * A delta's data in the provider's own layout, up to its index's digits. Written out, not joined from
 * DELTA_EVENT: a joined string stays a rope, and every compare against a rope costs a runtime call.
 */
export const DELTA_HEAD = '{"type":"content_block_delta","index":';
/** From the comma after the index to the value's opening quote, by the kind's first two letters. */
const TEXT_KIND = ',"delta":{"type":"text_delta","text":"';
const THINKING_KIND = ',"delta":{"type":"thinking_delta","thinking":"';
const INPUT_KIND = ',"delta":{"type":"input_json_delta","partial_json":"';
const KIND_AT = ',"delta":{"type":"'.length;

/**
 * Where the value starts in a delta in the provider's own layout, given where its index's digits start
 * (just after DELTA_HEAD), else -1 (the caller searches for the field). The kind is read from its
 * first letters, so one compare checks the rest: a search for the field cost more than all the
 * event's other work.
 */
function usualValueStart(text: string, digits: number, end: number): number {
  let i = digits;
  while (isDigit(text.charCodeAt(i))) i++;
  if (i === digits) return -1;
  const first = text.charCodeAt(i + KIND_AT);
  const kind = first === 0x69 /* i */ ? INPUT_KIND : first !== 0x74 /* t */ ? null : text.charCodeAt(i + KIND_AT + 1) === 0x65 /* e */ ? TEXT_KIND : THINKING_KIND;
  return kind !== null && startsAt(text, i, end, kind) ? i + kind.length : -1;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

export class RelayedOutput {
  /** Characters of text, thinking and tool-argument deltas seen so far. */
  chars = 0;

  /** One provider event's `data` (a stream's parser calls this for every event it dispatches). */
  event(data: string): void {
    this.eventAt(data, 0, data.length);
  }

  /** The same for data at text[start, end), read in place (../dialects/sse/named-events.ts hands events over so). */
  eventAt(text: string, start: number, end: number): void {
    if (startsAt(text, start, end, DELTA_HEAD)) this.deltaAt(text, start + DELTA_HEAD.length, end);
    else if (startsAt(text, start, end, DELTA_EVENT)) this.searched(text, start + DELTA_EVENT.length, end);
  }

  /** A content_block_delta's data whose DELTA_HEAD ends at `digits`, up to `end`. */
  deltaAt(text: string, digits: number, end: number): void {
    const valueStart = usualValueStart(text, digits, end);
    if (valueStart !== -1) this.count(end, valueStart);
    else this.searched(text, digits, end);
  }

  /** Members in another order: the first value field after `from` is the one. */
  private searched(text: string, from: number, end: number): void {
    for (let i = 0; i < VALUE_FIELDS.length; i++) {
      const at = text.indexOf(VALUE_FIELDS[i]!, from);
      if (at >= 0 && at < end) return this.count(end, at + VALUE_FIELDS[i]!.length);
    }
  }

  private count(end: number, valueStart: number): void {
    this.chars += Math.max(0, end - DATA_END - valueStart);
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
