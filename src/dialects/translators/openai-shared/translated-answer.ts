// What the chat and Responses translators answer with alike: a JSON body, a provider error in the chat
// error shape (both formats use it, with the provider's status and retry advice), and a stream re-framed
// event by event through one mapper (SSE parse → event translation → SSE frames per provider chunk).
import type { OutgoingHttpHeaders } from 'node:http';
import { RelayedOutput } from '../../anthropic/relayed-output.js';
import { HOT_DELTA, emptyDeltaPlace, readDeltaHead, type DeltaPlace } from '../../anthropic/delta-bytes.js';
import type { FrameOutput } from '../../sse/frame-output.js';
import { emptyUsage, type TokenUsage } from '../../../metering/token-usage.js';
import { streamFailureOf, type StreamFailure } from '../../errors/stream-frames.js';
import type { Frame } from '../../sse/frames.js';
import type { SseEvent } from '../../sse/parser.js';
import { Reframer, type StreamMapper } from '../../sse/reframer.js';
import type { AnswerFacts, AnswerHead, ClientResponse, RelayEnd, StreamTranslation } from '../translator.js';
import { emptyAnswerFacts } from '../../anthropic/answer-facts.js';
import { NO_WARNINGS, type TranslationWarning } from '../warnings.js';
import { translateUpstreamError } from './error.js';

export function jsonResponse(status: number, text: string, headers: OutgoingHttpHeaders, usage: ClientResponse['usage'], warnings: readonly TranslationWarning[]): ClientResponse {
  headers['content-type'] = 'application/json';
  headers['content-length'] = Buffer.byteLength(text);
  return { status, body: text, usage, warnings };
}

/** A provider error (status >= 300) in the chat error shape, same status. */
export function upstreamErrorResponse(status: number, body: Buffer, head: AnswerHead, headers: OutgoingHttpHeaders): ClientResponse {
  const translated = translateUpstreamError(status, body);
  // The provider's advice on when to retry; a success carries none (its headers are not read).
  const retryAfter = head.header('retry-after');
  if (retryAfter !== undefined) headers['retry-after'] = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
  return jsonResponse(translated.status, JSON.stringify(translated.body), headers, null, NO_WARNINGS);
}

/**
 * What a stream translator keeps while it maps the provider's events: the usage so far (cumulative,
 * complete after message_delta), its warnings, whether the answer completed, whether content went out.
 */
export abstract class StreamProgress {
  protected readonly tokenUsage = emptyUsage();
  protected readonly warningList: TranslationWarning[] = [];
  /** Set once message_stop arrived: the response completed normally. */
  protected completed = false;
  /** Set once content (text, reasoning or a tool call) was emitted: the time-to-first-token mark. */
  protected sawToken = false;
  /** The provider's answer id, model and stop reason (for the request's trace span). */
  readonly answer: AnswerFacts = emptyAnswerFacts();
  /** The provider's error type, once its stream carried an `error` event. */
  providerError: string | null = null;

  get usage(): TokenUsage {
    return this.tokenUsage;
  }

  get warnings(): TranslationWarning[] {
    return this.warningList;
  }

  get finished(): boolean {
    return this.completed;
  }

  get firstTokenSeen(): boolean {
    return this.sawToken;
  }
}

/** A stream translator of the provider's events: what it emitted, and how it ends a stream that broke. */
export interface EventTranslator extends StreamMapper<SseEvent, Frame> {
  readonly finished: boolean;
  readonly firstTokenSeen: boolean;
  readonly usage: TokenUsage;
  readonly warnings: readonly TranslationWarning[];
  readonly answer: AnswerFacts;
  readonly providerError: string | null;
  /** The frames that close a stream the relay saw fail (its idle timeout, a broken source). */
  failed(failure: StreamFailure): Frame[];
  /**
   * A delta in the provider's own layout (its head read into `place`, its data ending at dataEnd),
   * written into `output` as bytes: true; false (nothing written) sends it the general way, to map().
   */
  deltaBytes(bytes: Buffer, place: DeltaPlace, dataEnd: number, output: FrameOutput): boolean;
}

/** A stream answer: sets its response headers and re-frames the provider's events through `translator`. */
export class ReframedStream implements StreamTranslation {
  private readonly reframer: Reframer;
  private readonly relayed = new RelayedOutput();

  constructor(
    headers: OutgoingHttpHeaders,
    private readonly translator: EventTranslator,
  ) {
    headers['content-type'] = 'text/event-stream; charset=utf-8';
    headers['cache-control'] = 'no-cache';
    // Every provider event passes the relayed-output count on its way to the translator.
    const relayed = this.relayed;
    const place = emptyDeltaPlace();
    this.reframer = new Reframer(
      {
        map(ev) {
          // Only a delta (named so, or nameless: its data says) is copied out to be counted: not every event.
          if (ev.event === 'content_block_delta' || ev.event === undefined) relayed.event(ev.data);
          return translator.map(ev);
        },
        // A delta the reader recognised by its head, read once for the count and the translator's bytes.
        hotBytes(bytes, view, afterHead, dataEnd, output) {
          if (!readDeltaHead(bytes, view, afterHead, dataEnd, place) || !translator.deltaBytes(bytes, place, dataEnd, output)) return false;
          relayed.deltaRead(place, dataEnd);
          return true;
        },
        // Counted from where the reader found it, without comparing the head again.
        mapHot(ev, bytes, view, afterHead, dataEnd) {
          relayed.deltaAt(bytes, view, afterHead, dataEnd);
          return translator.map(ev);
        },
        end: () => translator.end(),
      },
      { hot: HOT_DELTA },
    );
  }

  chunk(chunk: Buffer, earlierSent?: boolean): string | Buffer {
    return this.reframer.push(chunk, earlierSent);
  }

  end(): string | Buffer {
    return this.reframer.end();
  }

  close(end: RelayEnd, failure: unknown): string | Buffer {
    if (end !== 'source_failed') return '';
    return this.reframer.close(this.translator.failed(streamFailureOf(failure)));
  }

  get complete(): boolean {
    return this.translator.finished;
  }

  /** A ping or an opening event is not a token: the translator knows when content first went out. */
  get firstTokenSeen(): boolean {
    return this.translator.firstTokenSeen;
  }

  get usage(): ClientResponse['usage'] {
    return this.translator.usage;
  }

  get relayedTokens(): number {
    return this.relayed.tokens;
  }

  get warnings(): readonly TranslationWarning[] {
    return this.translator.warnings;
  }

  get answer(): AnswerFacts {
    return this.translator.answer;
  }

  get providerError(): string | null {
    return this.translator.providerError;
  }
}
