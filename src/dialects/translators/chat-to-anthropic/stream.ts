// The provider's stream events → chat.completion.chunk frames (docs/wire.md, "Chat chunks"). One instance
// per response; it is the mapper a sse/Reframer runs between the SSE parser and the frames.

import { STREAM_INTERRUPTED, type StreamFailure as RelayFailure } from '../../errors/stream-frames.js';
import { mergeProviderUsage } from '../../../metering/token-usage.js';
import { dataFrameAround, PIECE, type Frame, type FramePieces } from '../../sse/frames.js';
import type { FrameOutput } from '../../sse/frame-output.js';
import { literalEnd, type DeltaKind, type DeltaPlace } from '../../anthropic/delta-bytes.js';
import type { SseEvent } from '../../sse/parser.js';
import { ChunkWriter } from './chunk-writer.js';
import { chatStreamErrorChunk } from '../openai-shared/error.js';
import { scanFastDelta } from '../openai-shared/fast-delta.js';
import { NO_MESSAGE_START, outOfOrder, readProviderEvent, streamErrorOf } from '../openai-shared/provider-event.js';
import { StreamProgress, type EventTranslator } from '../openai-shared/translated-answer.js';
import { mapFinishReason } from '../openai-shared/finish-reason.js';
import { isRecord } from '../../../lib/is-record.js';
import { chatUsageFrom } from './usage.js';
import { noteMessageDelta, noteMessageStart } from '../../anthropic/answer-facts.js';
import { thinkingTokensOf } from '../openai-shared/thinking-tokens.js';

type Json = Record<string, unknown>;

const PING: Frame = { kind: 'comment', text: 'ping' };
const DONE: Frame = { kind: 'done' };

export interface StreamFailure {
  type: string;
  code: string;
  message: string;
}

export interface ChatStreamOptions {
  created: number;
  model: string;
  includeUsage: boolean;
  /**
   * Recognise plain text, thinking and tool-argument deltas without JSON.parse (./fast-delta.ts).
   * On by default; off, every event is parsed in full (tests compare the two).
   */
  fastDeltas?: boolean;
}

export class ChatStreamTranslator extends StreamProgress implements EventTranslator {
  private readonly opts: ChatStreamOptions;
  private readonly fastDeltas: boolean;
  private writer: ChunkWriter | null = null;
  /**
   * Anthropic block index → OpenAI tool index (which counts tool calls only), whether arguments came,
   * and the frame of its argument pieces (made at the first piece that takes the byte path).
   */
  private readonly tools = new Map<number, { k: number; gotArguments: boolean; argumentsFrame: FramePieces | null }>();
  /** The frames of a text and a reasoning piece, made with the writer. */
  private contentFrame: FramePieces | null = null;
  private reasoningFrame: FramePieces | null = null;
  /** Text and thinking blocks started and not stopped: the only ones whose deltas take the fast path. */
  private readonly openBlocks = new Map<number, 'text' | 'thinking'>();
  /**
   * The last piece's block, kind and frame: a stream's pieces come block after block, so most find their
   * frame here without the two look-ups (a Map's hashing per delta, issue 35). Forgotten whenever a
   * block starts or stops.
   */
  private lastPiece: { index: number; kind: DeltaKind; frame: FramePieces } | null = null;
  private toolCount = 0;
  private finishSent = false;
  private closed = false;
  private thinkingTokens: number | undefined = undefined;
  private failureInfo: StreamFailure | null = null;

  constructor(opts: ChatStreamOptions) {
    super();
    this.opts = opts;
    this.fastDeltas = opts.fastDeltas ?? true;
  }

  /** Why the stream ended with an error frame, if it did. */
  get failure(): StreamFailure | null {
    return this.failureInfo;
  }

  map(ev: SseEvent): Frame[] {
    if (this.closed) return [];
    if (ev.event === 'ping') return [PING];
    if (this.fastDeltas && this.writer !== null) {
      const frames = this.fastDelta(this.writer, ev.data);
      if (frames !== null) return frames;
    }
    const read = readProviderEvent(ev);
    if (!read.ok) return read.malformed === null ? [] : this.fail('api_error', 'upstream_protocol_error', read.malformed);
    const parsed = read.event;
    const type = parsed.type;
    if (type === 'message_start') return this.onMessageStart(parsed);
    if (type === 'error') return this.onError(parsed);
    if (type === 'ping') return [PING];
    const w = this.writer;
    if (w === null) {
      return outOfOrder(type) ? this.fail('api_error', 'upstream_protocol_error', NO_MESSAGE_START) : [];
    }
    switch (type) {
      case 'content_block_start':
        return this.onBlockStart(w, parsed);
      case 'content_block_delta':
        return this.onBlockDelta(w, parsed);
      case 'content_block_stop':
        return this.onBlockStop(w, parsed);
      case 'message_delta':
        return this.onMessageDelta(w, parsed);
      case 'message_stop':
        return this.onMessageStop(w);
      default:
        return []; // new event types may appear; they are ignored (docs/wire.md, "SSE framing")
    }
  }

  /** The upstream ended. Without message_stop the client must hear about it (docs/wire.md, "Event order"). */
  end(): Frame[] {
    if (this.closed) return [];
    return this.fail(STREAM_INTERRUPTED.chatType, STREAM_INTERRUPTED.chatCode, STREAM_INTERRUPTED.message);
  }

  /** The relay saw the provider's stream fail (idle timeout, broken source). */
  failed(f: RelayFailure): Frame[] {
    return this.fail(f.chatType, f.chatCode, f.message);
  }

  /**
   * Ends the stream with an error frame and [DONE] (also for the caller: idle timeout, broken source);
   * nothing once the stream is over, message_stop included: a complete answer owes no error after it.
   */
  fail(type: string, code: string, message: string): Frame[] {
    if (this.closed) return [];
    this.closed = true;
    this.failureInfo = { type, code, message };
    return [{ kind: 'data', json: JSON.stringify(chatStreamErrorChunk(type, code, message)) }, DONE];
  }

  private onMessageStart(ev: Json): Frame[] {
    if (this.writer !== null) return [];
    const message = isRecord(ev.message) ? ev.message : {};
    noteMessageStart(this.answer, message);
    const id = typeof message.id === 'string' ? message.id : 'unknown';
    if (isRecord(message.usage)) mergeProviderUsage(this.tokenUsage, message.usage);
    this.writer = new ChunkWriter(`chatcmpl-${id}`, this.opts.created, this.opts.model);
    return [data(this.writer.role())];
  }

  private onBlockStart(w: ChunkWriter, ev: Json): Frame[] {
    this.lastPiece = null;
    const block = ev.content_block;
    if (!isRecord(block)) return [];
    if (block.type === 'tool_use' && typeof ev.index === 'number') {
      const k = this.toolCount++;
      this.tools.set(ev.index, { k, gotArguments: false, argumentsFrame: null });
      this.sawToken = true;
      return [data(w.toolStart(k, String(block.id), String(block.name)))];
    }
    if (block.type === 'text' || block.type === 'thinking') {
      if (typeof ev.index === 'number') this.openBlocks.set(ev.index, block.type);
      return block.type === 'text' ? this.content(w, block.text) : this.reasoning(w, block.thinking);
    }
    return [];
  }

  /**
   * A text, thinking or tool-argument delta in the exact shape ./fast-delta.ts recognises, on a block
   * this translator knows to be of that kind: the frames the full parse would give (the piece escaped
   * as the provider escaped it). Null for anything else, which then takes the full parse.
   */
  private fastDelta(w: ChunkWriter, json: string): Frame[] | null {
    const d = scanFastDelta(json);
    if (d === null || d.literal.length === 2) return null; // an empty piece emits nothing: left to the full path
    const frame = this.pieceFrame(w, d.kind, d.index);
    return frame === null ? null : [{ kind: 'framed', text: frame.beforeText + d.literal + frame.afterText }];
  }

  /**
   * The same for a delta read in place (./fast-delta.ts's shape, checked on the bytes by literalEnd):
   * the frame goes out as its prefix, the provider's piece copied as it came, its suffix.
   */
  deltaBytes(bytes: Buffer, place: DeltaPlace, dataEnd: number, output: FrameOutput): boolean {
    const w = this.writer;
    if (this.closed || !this.fastDeltas || w === null) return false;
    const close = literalEnd(bytes, place.valueStart, dataEnd);
    if (close === -1 || close === place.valueStart) return false; // an empty piece emits nothing: left to the full path
    const frame = this.pieceFrame(w, place.kind, place.index);
    if (frame === null) return false;
    output.openFrame(frame.bytes);
    output.addRange(bytes, place.valueStart - 1, close + 1);
    output.closeFrame(frame.bytes);
    return true;
  }

  /**
   * The frame a well-formed piece of block `index` goes out in, noting what it changes (a tool's
   * arguments came, a token went out); null when the block is not of the piece's kind: the full parse
   * decides. Each frame is made once per stream (per tool for arguments).
   */
  private pieceFrame(w: ChunkWriter, kind: DeltaKind, index: number): FramePieces | null {
    const last = this.lastPiece;
    // What the frame's first piece noted (arguments came, a token went out) holds for the rest.
    if (last !== null && last.index === index && last.kind === kind) return last.frame;
    const frame = this.newPieceFrame(w, kind, index);
    this.lastPiece = frame === null ? null : { index, kind, frame };
    return frame;
  }

  private newPieceFrame(w: ChunkWriter, kind: DeltaKind, index: number): FramePieces | null {
    if (kind === 'input_json') {
      const tool = this.tools.get(index);
      if (!tool) return null;
      tool.gotArguments = true;
      return (tool.argumentsFrame ??= dataFrameAround(w.toolArgumentsLiteral(tool.k, PIECE)));
    }
    if (this.openBlocks.get(index) !== kind) return null;
    this.sawToken = true;
    return kind === 'text' ? (this.contentFrame ??= dataFrameAround(w.contentLiteral(PIECE))) : (this.reasoningFrame ??= dataFrameAround(w.reasoningLiteral(PIECE)));
  }

  private onBlockDelta(w: ChunkWriter, ev: Json): Frame[] {
    const delta = ev.delta;
    if (!isRecord(delta)) return [];
    switch (delta.type) {
      case 'text_delta':
        return this.content(w, delta.text);
      case 'thinking_delta':
        return this.reasoning(w, delta.thinking);
      case 'input_json_delta': {
        // Only client tool_use blocks map to tool calls; server_tool_use input is not the client's.
        const tool = typeof ev.index === 'number' ? this.tools.get(ev.index) : undefined;
        const piece = delta.partial_json;
        if (!tool || typeof piece !== 'string' || piece.length === 0) return [];
        tool.gotArguments = true;
        return [data(w.toolArguments(tool.k, piece))];
      }
      default:
        return []; // signature_delta, citations_delta: no chat equivalent
    }
  }

  private onBlockStop(w: ChunkWriter, ev: Json): Frame[] {
    if (typeof ev.index === 'number') this.openBlocks.delete(ev.index);
    this.lastPiece = null;
    const tool = typeof ev.index === 'number' ? this.tools.get(ev.index) : undefined;
    if (!tool || tool.gotArguments) return [];
    tool.gotArguments = true;
    return [data(w.toolArguments(tool.k, '{}'))]; // so clients can always parse the arguments
  }

  private onMessageDelta(w: ChunkWriter, ev: Json): Frame[] {
    if (isRecord(ev.usage)) {
      mergeProviderUsage(this.tokenUsage, ev.usage);
      this.thinkingTokens = thinkingTokensOf(ev.usage) ?? this.thinkingTokens;
    }
    const stop = noteMessageDelta(this.answer, ev.delta);
    if (stop === null || this.finishSent) return [];
    return [this.finish(w, stop)];
  }

  private onMessageStop(w: ChunkWriter): Frame[] {
    const frames: Frame[] = [];
    if (!this.finishSent) frames.push(this.finish(w, null));
    if (this.opts.includeUsage) frames.push(data(w.usage(chatUsageFrom(this.tokenUsage, this.thinkingTokens))));
    frames.push(DONE);
    this.closed = true;
    this.completed = true;
    return frames;
  }

  private onError(ev: Json): Frame[] {
    const e = streamErrorOf(ev);
    this.providerError = e.type;
    // After the stream began, the error keeps the provider's own type (docs/wire.md); the code is the chat one.
    return this.fail(e.type, e.code, e.message);
  }

  private finish(w: ChunkWriter, stop: string | null): Frame {
    const { reason, unknown } = mapFinishReason(stop);
    if (unknown) this.warningList.push({ kind: 'finish_reason_unknown', detail: 'stop_reason' });
    this.finishSent = true;
    return data(w.finish(reason));
  }

  private content(w: ChunkWriter, text: unknown): Frame[] {
    if (typeof text !== 'string' || text.length === 0) return [];
    this.sawToken = true;
    return [data(w.content(text))];
  }

  private reasoning(w: ChunkWriter, text: unknown): Frame[] {
    if (typeof text !== 'string' || text.length === 0) return [];
    this.sawToken = true;
    return [data(w.reasoning(text))];
  }
}

function data(json: string): Frame {
  return { kind: 'data', json };
}
