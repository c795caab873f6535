// A front is how one API answers: the provider's own, Bedrock's or Vertex AI's. The model behind
// them is the same (validation, the reply, the account's limits and cache); what differs is the
// shape of an error, the headers of a success, and how a stream is framed. A front is made per
// request, knowing its request id and the account the request is for.
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Account } from '../accounts/accounts.js';
import type { SimClock } from '../accounts/clock.js';
import type { LimitRefusal } from '../accounts/rate-limits.js';
import type { IdKind } from '../ids.js';
import type { Reply } from '../reply/generate.js';
import { frame, type SseFrame } from '../reply/render.js';
import type { ApiFailure, Fault } from '../types.js';
import { baseHeaders, defaultErrorMessage, errorTypeForStatus, sendError, sendJson, STREAM_HEADERS, unmeteredRateHeaders } from './respond.js';

export type StatusFault = Extract<Fault, { kind: 'status' }>;

/** What the front may report about a reply it answers with (Bedrock's token-count headers and metrics). */
export interface ReplyFacts {
  reply: Reply;
  /** The simulator's clock when the request was read. */
  startedAt: number;
}

/** How a stream is framed on the wire. */
export interface StreamWire {
  readonly headers: OutgoingHttpHeaders;
  encode(frame: SseFrame): string | Uint8Array;
  /** The message that ends a stream with an error (the error-event fault). */
  error(type: string, message: string | undefined): string | Uint8Array;
  /** Bytes that cannot be read as the wire's framing (the malformed-sse fault). */
  broken(): string | Uint8Array;
}

export interface ReplyFront {
  readonly requestId: string;
  /** The kind of id its messages get (`msg`, `msg_bdrk`, `msg_vrtx`). */
  readonly messageIdKind: IdKind;
  /** Headers of a successful answer; `facts` when the answer is a generated reply. */
  okHeaders(facts: ReplyFacts | null): OutgoingHttpHeaders;
  /** An error answer before any byte was written: `failure` is in the provider's terms, the front restates it. */
  sendError(res: ServerResponse, failure: ApiFailure): void;
  /** An injected status fault, as this API would fail. */
  sendFault(res: ServerResponse, fault: StatusFault): void;
  /** A request over its account's rate limit. */
  sendLimited(res: ServerResponse, refusal: LimitRefusal): void;
  wire(facts: ReplyFacts | null): StreamWire;
}

const BROKEN_FRAME = 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_del\n\n';

/** The provider's SSE: each event as `event: <type>\ndata: <json>\n\n`. */
export const SSE_WIRE: StreamWire = {
  headers: STREAM_HEADERS,
  encode: (f) => f.text,
  error: (type, message) => frame({ type: 'error', error: { type, message: message ?? defaultErrorMessage(type) } }).text,
  broken: () => BROKEN_FRAME,
};

const LIMIT_NAMES = { requests: 'requests', input_tokens: 'input tokens', output_tokens: 'output tokens' } as const;

/** The provider's own answer to a request over a limit. */
export function limitFailure(refusal: LimitRefusal, accountId: string): ApiFailure {
  return {
    status: 429,
    type: 'rate_limit_error',
    message: `This request would exceed the rate limit for your organization (${accountId}) of ${refusal.limit} ${LIMIT_NAMES[refusal.dimension]} per minute. Please try again later.`,
    retryAfter: refusal.retryAfterSeconds,
  };
}

/** The provider's own API: errors in its shape, every answer with the account's rate-limit headers. */
export class AnthropicFront implements ReplyFront {
  readonly messageIdKind = 'msg';

  constructor(
    readonly requestId: string,
    /** Null until the credential selected an account (or when it selects none). */
    private readonly account: Account | null,
    private readonly clock: SimClock,
  ) {}

  private rateLimits(): Readonly<Record<string, string>> {
    const now = this.clock.now();
    return this.account === null ? unmeteredRateHeaders(now) : this.account.limits.headers(now);
  }

  okHeaders(): OutgoingHttpHeaders {
    return baseHeaders(this.requestId, this.rateLimits());
  }

  sendJson(res: ServerResponse, status: number, body: unknown): void {
    sendJson(res, status, this.requestId, body, this.rateLimits());
  }

  sendError(res: ServerResponse, failure: ApiFailure): void {
    sendError(res, this.requestId, failure, this.rateLimits());
  }

  sendFault(res: ServerResponse, fault: StatusFault): void {
    const type = fault.errorType ?? errorTypeForStatus(fault.status);
    const retryAfter = fault.retryAfter ?? (fault.status === 429 || fault.status === 529 ? 1 : undefined);
    this.sendError(res, { status: fault.status, type, message: fault.message ?? defaultErrorMessage(type), retryAfter });
  }

  sendLimited(res: ServerResponse, refusal: LimitRefusal): void {
    this.sendError(res, limitFailure(refusal, this.account?.id ?? 'unknown'));
  }

  wire(): StreamWire {
    return SSE_WIRE;
  }
}
