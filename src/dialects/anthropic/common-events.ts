// The two stream events whose JSON the gateway reads on the messages relay, message_start and
// message_delta, in the layout the provider writes them in every stream (test/fixtures): read by one
// expression each instead of JSON.parse. The two parses cost as much per stream as reading its 200
// deltas (~5 µs a stream in the gateway's profile, issue 35). Anything else (other member order, an
// escape in the id or model, another usage shape) is undefined, and the caller parses the text.
import { COUNT_PATTERN, usageOfCommonText, type TokenUsage } from '../../metering/token-usage.js';

export interface CommonMessageStart {
  id: string;
  model: string;
  usage: TokenUsage;
}

const MESSAGE_START_HEAD =
  /^\{"type":"message_start","message":\{"id":"([A-Za-z0-9_-]{1,128})","type":"message","role":"assistant","model":"([A-Za-z0-9._:@/-]{1,128})","content":\[\],"stop_reason":null,"stop_sequence":null,"usage":/;
/** What closes the usage object's message and the event. */
const MESSAGE_START_END = '}}';

/** A message_start's id, model and usage; undefined when the text is not in the common layout. */
export function messageStartOfCommonText(text: string): CommonMessageStart | undefined {
  const head = MESSAGE_START_HEAD.exec(text);
  if (head === null || !text.endsWith(MESSAGE_START_END)) return undefined;
  // The usage object is the message's last member: the rest, up to the two closing braces.
  const usage = usageOfCommonText(text.slice(head[0].length, text.length - MESSAGE_START_END.length));
  return usage === undefined ? undefined : { id: head[1]!, model: head[2]!, usage };
}

export interface CommonMessageDelta {
  stopReason: string;
  /**
   * The usage object as JSON.parse gives it: the output count alone, or (newer API versions, the
   * simulator) after the three input counts, a cache count null where the provider wrote null.
   */
  usage: CommonDeltaUsage;
}

export type CommonDeltaUsage =
  | { output_tokens: number }
  | { input_tokens: number; cache_creation_input_tokens: number | null; cache_read_input_tokens: number | null; output_tokens: number };

const MESSAGE_DELTA = new RegExp(
  '^\\{"type":"message_delta","delta":\\{"stop_reason":"([a-z_]{1,40})","stop_sequence":null\\},"usage":\\{' +
    `(?:"input_tokens":${COUNT_PATTERN},"cache_creation_input_tokens":(?:${COUNT_PATTERN}|null),"cache_read_input_tokens":(?:${COUNT_PATTERN}|null),)?` +
    `"output_tokens":${COUNT_PATTERN}\\}\\}$`,
);

/**
 * A message_delta that carries a stop reason and the output count, alone or after the three input
 * counts (the layout of newer API versions, and the simulator's); undefined otherwise.
 */
export function messageDeltaOfCommonText(text: string): CommonMessageDelta | undefined {
  const m = MESSAGE_DELTA.exec(text);
  if (m === null) return undefined;
  const output = Number(m[5]);
  const usage: CommonDeltaUsage =
    m[2] === undefined
      ? { output_tokens: output }
      : { input_tokens: Number(m[2]), cache_creation_input_tokens: countOrNull(m[3]), cache_read_input_tokens: countOrNull(m[4]), output_tokens: output };
  return { stopReason: m[1]!, usage };
}

function countOrNull(digits: string | undefined): number | null {
  return digits === undefined ? null : Number(digits);
}
