// The provider's stream events → the Responses event stream (docs/wire.md, "Responses surface"). One
// instance per response; it is the mapper a sse/Reframer runs between the SSE parser and the frames.
//
// message_start opens the response (`response.created`, `response.in_progress`); each content block
// is one output item (`response.output_item.added` … `.done`, with the part and delta events of its
// type between); message_stop closes it with `response.completed` (or `response.incomplete`) carrying
// every item and the usage. Every event has the next `sequence_number`. Text, thinking and
// tool-argument deltas are recognised without JSON.parse (../openai-shared/fast-delta.ts): the
// provider's escaped piece is spliced into the event, and kept for the item's final text.

import { noteMessageDelta, noteMessageStart } from '../../anthropic/answer-facts.js';
import { STREAM_INTERRUPTED, type StreamFailure } from '../../errors/stream-frames.js';
import { mergeProviderUsage } from '../../../metering/token-usage.js';
import { quoteJson } from '../../../lib/json/quote.js';
import { isRecord } from '../../../lib/is-record.js';
import type { Frame } from '../../sse/frames.js';
import { frameBytes, type FrameBytes, type FrameOutput } from '../../sse/frame-output.js';
import { literalEnd, type DeltaKind, type DeltaPlace } from '../../anthropic/delta-bytes.js';
import type { SseEvent } from '../../sse/parser.js';
import { scanFastDelta } from '../openai-shared/fast-delta.js';
import { NO_MESSAGE_START, outOfOrder, readProviderEvent, streamErrorOf } from '../openai-shared/provider-event.js';
import { thinkingTokensOf } from '../openai-shared/thinking-tokens.js';
import { StreamProgress, type EventTranslator } from '../openai-shared/translated-answer.js';
import { ResponseEnvelope } from './envelope.js';
import { callItemIdOf, itemIdOf, messageItem, outputTextPart, reasoningItem, responseIdOf, summaryPart, toolCallItem } from './items.js';
import { outcomeOf, responsesUsageFrom } from './outcome.js';
import { customInput } from './response.js';
import { encodeThinking } from './thinking-carrier.js';
import type { ToolCallKind, ToolNames } from './tool-names.js';

type Json = Record<string, unknown>;

const PING: Frame = { kind: 'comment', text: 'ping' };
/** The provider's delta kind each item takes. */
const DELTA_KIND_OF: Record<OpenItem['kind'], DeltaKind> = { text: 'text', reasoning: 'thinking', call: 'input_json' };
/** A delta event's bytes after its literal: the sequence number's member, then (after the number) its end. */
const SEQUENCE_MEMBER = Buffer.from(',"sequence_number":');
/** What closes a delta event after its sequence number. */
const DELTA_END = '}\n\n';

/** An open output item: one provider content block. `pieces` are its text so far, as JSON string contents (no quotes). */
type OpenItem =
  | { kind: 'text'; outputIndex: number; id: string; pieces: string[]; deltaHead: string; deltaFrame?: FrameBytes }
  | { kind: 'reasoning'; outputIndex: number; id: string; pieces: string[]; deltaHead: string; deltaFrame?: FrameBytes; signature: string; redacted: string | null }
  | { kind: 'call'; outputIndex: number; id: string; pieces: string[]; deltaHead: string; deltaFrame?: FrameBytes; callId: string; tool: ToolCallKind };

export interface ResponsesStreamOptions {
  createdAt: number;
  model: string;
  clientBody: Readonly<Record<string, unknown>> | null;
  tools: ToolNames;
  /** Recognise text, thinking and tool-argument deltas without JSON.parse; on by default (tests compare). */
  fastDeltas?: boolean;
}

export class ResponsesStreamTranslator extends StreamProgress implements EventTranslator {
  private readonly fastDeltas: boolean;
  private envelope: ResponseEnvelope | null = null;
  private sequence = 0;
  /** Open items by the provider's content block index. */
  private readonly open = new Map<number, OpenItem>();
  /** Every item's final JSON, by output index (a hole while the item is open). */
  private readonly items: string[] = [];
  private stopReason: string | null = null;
  private thinkingTokens: number | undefined = undefined;
  private closed = false;

  constructor(private readonly opts: ResponsesStreamOptions) {
    super();
    this.fastDeltas = opts.fastDeltas ?? true;
  }

  map(ev: SseEvent): Frame[] {
    if (this.closed) return [];
    if (ev.event === 'ping') return [PING];
    if (this.fastDeltas && this.envelope !== null) {
      const frames = this.fastDelta(ev.data);
      if (frames !== null) return frames;
    }
    const read = readProviderEvent(ev);
    if (!read.ok) return read.malformed === null ? [] : this.fail('upstream_protocol_error', read.malformed);
    const parsed = read.event;
    const type = parsed.type;
    if (type === 'message_start') return this.onMessageStart(parsed);
    if (type === 'error') return this.onError(parsed);
    if (type === 'ping') return [PING];
    if (this.envelope === null) {
      return outOfOrder(type) ? this.fail('upstream_protocol_error', NO_MESSAGE_START) : [];
    }
    switch (type) {
      case 'content_block_start':
        return this.onBlockStart(parsed);
      case 'content_block_delta':
        return this.onBlockDelta(parsed);
      case 'content_block_stop':
        return typeof parsed.index === 'number' ? this.closeItem(parsed.index, 'completed') : [];
      case 'message_delta':
        return this.onMessageDelta(parsed);
      case 'message_stop':
        return this.onMessageStop();
      default:
        return []; // new event types may appear; they are ignored (docs/wire.md, "SSE framing")
    }
  }

  /** The upstream ended. Without message_stop the client must hear about it (docs/wire.md, "Event order"). */
  end(): Frame[] {
    return this.fail(STREAM_INTERRUPTED.chatCode, STREAM_INTERRUPTED.message);
  }

  /** The relay saw the provider's stream fail (idle timeout, broken source). */
  failed(f: StreamFailure): Frame[] {
    return this.fail(f.chatCode, f.message);
  }

  /** Ends the stream with `response.failed` (also for the caller: idle timeout, broken source); nothing once it is over. */
  fail(code: string, message: string): Frame[] {
    if (this.closed) return [];
    this.closed = true;
    const envelope = (this.envelope ??= new ResponseEnvelope('resp_failed', this.opts.createdAt, this.opts.model, this.opts.clientBody));
    const error = `{"code":${quoteJson(code)},"message":${quoteJson(message)}}`;
    return [this.event('response.failed', `"response":${envelope.json('failed', error, 'null', this.outputJson(), this.usageJson())}`)];
  }

  private onMessageStart(ev: Json): Frame[] {
    if (this.envelope !== null) return [];
    const message = isRecord(ev.message) ? ev.message : {};
    noteMessageStart(this.answer, message);
    if (isRecord(message.usage)) mergeProviderUsage(this.tokenUsage, message.usage);
    const id = responseIdOf(typeof message.id === 'string' ? message.id : 'unknown');
    const envelope = (this.envelope = new ResponseEnvelope(id, this.opts.createdAt, this.opts.model, this.opts.clientBody));
    const response = `"response":${envelope.json('in_progress', 'null', 'null', '[]', 'null')}`;
    return [this.event('response.created', response), this.event('response.in_progress', response)];
  }

  private onBlockStart(ev: Json): Frame[] {
    const block = ev.content_block;
    if (!isRecord(block) || typeof ev.index !== 'number') return [];
    const outputIndex = this.items.length;
    this.items.push('');
    const envelopeId = this.envelope!.id;
    const at = `"output_index":${outputIndex}`;
    switch (block.type) {
      case 'text': {
        const id = itemIdOf('msg', envelopeId, outputIndex);
        const ref = `"item_id":${quoteJson(id)},${at},"content_index":0`;
        const item: OpenItem = { kind: 'text', outputIndex, id, pieces: [], deltaHead: this.deltaHead('response.output_text.delta', `${ref},"logprobs":[]`) };
        this.open.set(ev.index, item);
        const frames = [
          this.event('response.output_item.added', `${at},"item":{"id":${quoteJson(id)},"type":"message","status":"in_progress","role":"assistant","content":[]}`),
          this.event('response.content_part.added', `${ref},"part":${outputTextPart('""', false)}`),
        ];
        if (typeof block.text === 'string' && block.text !== '') frames.push(this.delta(item, JSON.stringify(block.text)));
        return frames;
      }
      case 'thinking':
      case 'redacted_thinking': {
        const id = itemIdOf('rs', envelopeId, outputIndex);
        const deltaHead = this.deltaHead('response.reasoning_summary_text.delta', `"item_id":${quoteJson(id)},${at},"summary_index":0`);
        const redacted = block.type === 'redacted_thinking' && typeof block.data === 'string' ? block.data : null;
        const item: OpenItem = { kind: 'reasoning', outputIndex, id, pieces: [], deltaHead, signature: '', redacted };
        this.open.set(ev.index, item);
        return [this.event('response.output_item.added', `${at},"item":{"id":${quoteJson(id)},"type":"reasoning","summary":[]}`)];
      }
      case 'tool_use': {
        const callId = String(block.id);
        const tool = this.opts.tools.of(String(block.name));
        const id = callItemIdOf(tool, callId);
        // A custom tool's input is one string inside the provider's JSON: it is sent whole at the block's end.
        const deltaHead = tool.kind === 'custom' ? '' : this.deltaHead('response.function_call_arguments.delta', `"item_id":${quoteJson(id)},${at}`);
        this.open.set(ev.index, { kind: 'call', outputIndex, id, pieces: [], deltaHead, callId, tool });
        this.sawToken = true;
        return [this.event('response.output_item.added', `${at},"item":${toolCallItem(id, 'in_progress', callId, tool, '""')}`)];
      }
      default:
        this.items.pop(); // server tools: run by the provider, no item of the client's
        return [];
    }
  }

  /**
   * A text, thinking or tool-argument delta in the exact shape ../openai-shared/fast-delta.ts
   * recognises, on an open item of that kind: the event the full parse would give (the piece escaped
   * as the provider escaped it). Null for anything else, which then takes the full parse.
   */
  private fastDelta(json: string): Frame[] | null {
    const d = scanFastDelta(json);
    if (d === null || d.literal.length === 2) return null; // an empty piece emits nothing: left to the full path
    const item = this.itemTaking(d.kind, d.index);
    return item === undefined ? null : this.piece(item, d.literal);
  }

  private onBlockDelta(ev: Json): Frame[] {
    const delta = ev.delta;
    const item = typeof ev.index === 'number' ? this.open.get(ev.index) : undefined;
    if (!isRecord(delta) || item === undefined) return [];
    switch (delta.type) {
      case 'text_delta':
        return item.kind === 'text' ? this.textPiece(item, delta.text) : [];
      case 'thinking_delta':
        return item.kind === 'reasoning' ? this.textPiece(item, delta.thinking) : [];
      case 'signature_delta':
        if (item.kind === 'reasoning' && typeof delta.signature === 'string') item.signature += delta.signature;
        return [];
      case 'input_json_delta':
        return item.kind === 'call' ? this.textPiece(item, delta.partial_json) : [];
      default:
        return []; // citations_delta: no Responses equivalent here
    }
  }

  private textPiece(item: OpenItem, text: unknown): Frame[] {
    return typeof text === 'string' && text !== '' ? this.piece(item, JSON.stringify(text)) : [];
  }

  /** One piece of an item's text, as a JSON string literal: kept, and sent on (a custom tool's at its end). */
  private piece(item: OpenItem, literal: string): Frame[] {
    item.pieces.push(literal.slice(1, -1));
    this.sawToken = true;
    if (item.kind === 'call' && item.tool.kind === 'custom') return [];
    if (item.kind === 'reasoning' && item.pieces.length === 1) {
      return [this.event('response.reasoning_summary_part.added', `"item_id":${quoteJson(item.id)},"output_index":${item.outputIndex},"summary_index":0,"part":${summaryPart('""')}`), this.delta(item, literal)];
    }
    return [this.delta(item, literal)];
  }

  /** Closes the item of a provider block: its done events, its final JSON kept for the response. */
  private closeItem(index: number, status: 'completed' | 'incomplete'): Frame[] {
    const item = this.open.get(index);
    if (item === undefined) return [];
    this.open.delete(index);
    const text = `"${item.pieces.join('')}"`;
    const at = `"output_index":${item.outputIndex}`;
    const frames: Frame[] = [];
    let json: string;
    if (item.kind === 'text') {
      const ref = `"item_id":${quoteJson(item.id)},${at},"content_index":0`;
      frames.push(this.event('response.output_text.done', `${ref},"text":${text},"logprobs":[]`));
      frames.push(this.event('response.content_part.done', `${ref},"part":${outputTextPart(text, false)}`));
      json = messageItem(item.id, status, text);
    } else if (item.kind === 'reasoning') {
      const shown = item.pieces.length > 0;
      if (shown) {
        const ref = `"item_id":${quoteJson(item.id)},${at},"summary_index":0`;
        frames.push(this.event('response.reasoning_summary_text.done', `${ref},"text":${text}`));
        frames.push(this.event('response.reasoning_summary_part.done', `${ref},"part":${summaryPart(text)}`));
      }
      const carried =
        item.redacted !== null
          ? encodeThinking({ type: 'redacted_thinking', data: item.redacted })
          : encodeThinking({ type: 'thinking', thinking: JSON.parse(text) as string, signature: item.signature });
      json = reasoningItem(item.id, shown ? text : null, carried);
    } else {
      const ref = `"item_id":${quoteJson(item.id)},${at}`;
      let payload: string;
      if (item.tool.kind === 'custom') {
        payload = quoteJson(customInputOf(JSON.parse(text) as string));
        frames.push(this.event('response.custom_tool_call_input.delta', `${ref},"delta":${payload}`));
        frames.push(this.event('response.custom_tool_call_input.done', `${ref},"input":${payload}`));
      } else {
        // A call with no arguments gets `{}`, so clients can always parse them.
        payload = item.pieces.length === 0 ? '"{}"' : text;
        frames.push(this.event('response.function_call_arguments.done', `${ref},"name":${quoteJson(item.tool.name)},"arguments":${payload}`));
      }
      json = toolCallItem(item.id, status, item.callId, item.tool, payload);
    }
    this.items[item.outputIndex] = json;
    frames.push(this.event('response.output_item.done', `${at},"item":${json}`));
    return frames;
  }

  private onMessageDelta(ev: Json): Frame[] {
    if (isRecord(ev.usage)) {
      mergeProviderUsage(this.tokenUsage, ev.usage);
      this.thinkingTokens = thinkingTokensOf(ev.usage) ?? this.thinkingTokens;
    }
    const stop = noteMessageDelta(this.answer, ev.delta);
    if (stop !== null) this.stopReason = stop;
    return [];
  }

  private onMessageStop(): Frame[] {
    const frames: Frame[] = [];
    // A block cut by max_tokens may end without content_block_stop (docs/wire.md, "Event order").
    for (const index of [...this.open.keys()]) frames.push(...this.closeItem(index, 'incomplete'));
    const outcome = outcomeOf(this.stopReason);
    if (outcome.unknown) this.warningList.push({ kind: 'finish_reason_unknown', detail: 'stop_reason' });
    const response = this.envelope!.json(outcome.status, 'null', outcome.incompleteJson, this.outputJson(), this.usageJson());
    frames.push(this.event(outcome.status === 'completed' ? 'response.completed' : 'response.incomplete', `"response":${response}`));
    this.closed = true;
    this.completed = true;
    return frames;
  }

  private onError(ev: Json): Frame[] {
    const e = streamErrorOf(ev);
    this.providerError = e.type;
    return this.fail(e.code, e.message);
  }

  private outputJson(): string {
    return `[${this.items.filter((i) => i !== '').join(',')}]`;
  }

  private usageJson(): string {
    return JSON.stringify(responsesUsageFrom(this.tokenUsage, this.thinkingTokens));
  }

  private event(type: string, members: string): Frame {
    return { kind: 'event', event: type, json: `{"type":"${type}","sequence_number":${this.sequence++},${members}}` };
  }

  /**
   * A delta event's SSE text up to its `delta` value, `event:` line included: built once per item, so
   * each delta (most of a stream's events) is one concatenation of a few pieces.
   */
  private deltaHead(type: string, members: string): string {
    return `event: ${type}\ndata: {"type":"${type}",${members},"delta":`;
  }

  /**
   * The same as fastDelta for a delta read in place (checked on the bytes by literalEnd): the piece is
   * kept as text for the item's done events, and the delta event goes out as bytes, its head made once
   * per item and the provider's literal copied as it came. A reasoning item's first piece (which opens
   * its summary part first) and a custom tool's input take fastDelta's way.
   */
  deltaBytes(bytes: Buffer, place: DeltaPlace, dataEnd: number, output: FrameOutput): boolean {
    if (this.closed || !this.fastDeltas || this.envelope === null) return false;
    const item = this.itemTaking(place.kind, place.index);
    if (item === undefined || (item.kind === 'reasoning' && item.pieces.length === 0) || (item.kind === 'call' && item.tool.kind === 'custom')) return false;
    const close = literalEnd(bytes, place.valueStart, dataEnd);
    if (close === -1 || close === place.valueStart) return false; // an empty piece emits nothing: left to the full path
    item.pieces.push(bytes.toString('utf8', place.valueStart, close));
    this.sawToken = true;
    const frame = (item.deltaFrame ??= frameBytes(item.deltaHead, DELTA_END));
    output.openFrame(frame);
    output.addRange(bytes, place.valueStart - 1, close + 1);
    output.addBytes(SEQUENCE_MEMBER);
    output.addDecimal(this.sequence++);
    output.closeFrame(frame);
    return true;
  }

  /** The open item of block `index` when it takes pieces of this kind (text, reasoning, tool arguments). */
  private itemTaking(kind: DeltaKind, index: number): OpenItem | undefined {
    const item = this.open.get(index);
    return item !== undefined && DELTA_KIND_OF[item.kind] === kind ? item : undefined;
  }

  private delta(item: OpenItem, literal: string): Frame {
    return { kind: 'framed', text: `${item.deltaHead}${literal},"sequence_number":${this.sequence++}}\n\n` };
  }
}

/** A custom tool's arguments JSON → its one string (the raw text when the call was cut mid-JSON). */
function customInputOf(argumentsJson: string): string {
  try {
    const parsed: unknown = JSON.parse(argumentsJson);
    return isRecord(parsed) ? customInput(parsed) : argumentsJson;
  } catch {
    return argumentsJson;
  }
}
