// How Bedrock answers (http/front.ts): errors as `x-amzn-errortype` over `{"message": …}`, a success
// with its request id and token-count headers, a stream as application/vnd.amazon.eventstream frames
// (@smithy/eventstream-codec): each Messages stream event in a `chunk` event whose payload is
// `{"bytes":"<base64 of the event's JSON>","p":"<padding>"}`, `message_stop` carrying
// `amazon-bedrock-invocationMetrics`, and an error as an `exception` message.
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { endJson } from '../../../lib/json-response.js';
import type { SimClock } from '../accounts/clock.js';
import type { LimitRefusal } from '../accounts/rate-limits.js';
import type { ReplyFacts, ReplyFront, StatusFault, StreamWire } from '../http/front.js';
import { errorTypeForStatus } from '../http/respond.js';
import type { SseFrame } from '../reply/render.js';
import type { ApiFailure } from '../types.js';

const codec = new EventStreamCodec(
  (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'),
  (text) => Buffer.from(text, 'utf8'),
);

/** Bedrock's exceptions: status and the message it sends when nothing more specific is said. */
const EXCEPTIONS: Readonly<Record<string, { status: number; message: string }>> = {
  ValidationException: { status: 400, message: 'Malformed input request, please reformat your input and try again.' },
  AccessDeniedException: { status: 403, message: "You don't have access to the model with the specified model ID." },
  UnrecognizedClientException: { status: 403, message: 'The security token included in the request is invalid.' },
  ResourceNotFoundException: { status: 404, message: 'The specified resource could not be found.' },
  ModelTimeoutException: { status: 408, message: 'Model has timed out in processing the request. Try your request again.' },
  ModelErrorException: { status: 424, message: 'The model encountered an error processing the request. Try your request again.' },
  ModelStreamErrorException: { status: 424, message: 'An error occurred while streaming the response. Retry your request.' },
  ThrottlingException: { status: 429, message: 'Too many requests, please wait before trying again.' },
  ModelNotReadyException: { status: 429, message: 'The model is not ready to serve inference requests. Try your request again.' },
  ServiceQuotaExceededException: { status: 400, message: 'Your request exceeds the service quota for your account.' },
  InternalServerException: { status: 500, message: 'The system encountered an unexpected error during processing. Try your request again.' },
  ServiceUnavailableException: { status: 503, message: 'Bedrock is unable to process your request.' },
};

/** The provider's error types, as Bedrock reports the same condition. */
const EXCEPTION_OF_TYPE: Readonly<Record<string, string>> = {
  invalid_request_error: 'ValidationException',
  request_too_large: 'ValidationException',
  authentication_error: 'UnrecognizedClientException',
  permission_error: 'AccessDeniedException',
  billing_error: 'AccessDeniedException',
  not_found_error: 'ResourceNotFoundException',
  rate_limit_error: 'ThrottlingException',
  api_error: 'InternalServerException',
  timeout_error: 'ModelTimeoutException',
  overloaded_error: 'ServiceUnavailableException',
};

/** The exception Bedrock answers a status with. */
const EXCEPTION_OF_STATUS: Readonly<Record<number, string>> = {
  400: 'ValidationException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  408: 'ModelTimeoutException',
  424: 'ModelErrorException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
  529: 'ServiceUnavailableException',
};

/** An exception name of Bedrock's own, or the one that stands for a provider error type. */
export function exceptionFor(type: string, status: number): string {
  if (Object.hasOwn(EXCEPTIONS, type)) return type;
  if (Object.hasOwn(EXCEPTION_OF_TYPE, type)) return EXCEPTION_OF_TYPE[type]!;
  return EXCEPTION_OF_TYPE[errorTypeForStatus(status)]!;
}

/** The exception for a status alone (an injected fault without an error type). */
function exceptionForStatus(status: number): string {
  return EXCEPTION_OF_STATUS[status] ?? (status >= 500 ? 'InternalServerException' : 'ValidationException');
}

/** Bedrock's HTTP error: `x-amzn-errortype` names it, the body is `{"message": …}`. */
export function sendBedrockError(res: ServerResponse, requestId: string, exception: string, message?: string, status?: number): void {
  const known = Object.hasOwn(EXCEPTIONS, exception) ? EXCEPTIONS[exception] : undefined;
  endJson(res, status ?? known?.status ?? 400, JSON.stringify({ message: message ?? known?.message ?? exception }), {
    'x-amzn-requestid': requestId,
    'x-amzn-errortype': `${exception}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
  });
}

const PADDING = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function stringHeader(value: string) {
  return { type: 'string' as const, value };
}

function chunkMessage(json: string, padding: number): Uint8Array {
  const payload = `{"bytes":"${Buffer.from(json, 'utf8').toString('base64')}","p":"${PADDING.slice(0, padding)}"}`;
  return codec.encode({
    headers: { ':event-type': stringHeader('chunk'), ':content-type': stringHeader('application/json'), ':message-type': stringHeader('event') },
    body: Buffer.from(payload, 'utf8'),
  });
}

/** A mid-stream exception: `:message-type: exception`, the name in lower camel case. */
export function exceptionMessage(exception: string, message: string): Uint8Array {
  const name = exception.charAt(0).toLowerCase() + exception.slice(1);
  return codec.encode({
    headers: { ':exception-type': stringHeader(name), ':content-type': stringHeader('application/json'), ':message-type': stringHeader('exception') },
    body: Buffer.from(JSON.stringify({ message }), 'utf8'),
  });
}

export class BedrockFront implements ReplyFront {
  readonly messageIdKind = 'msg_bdrk';

  constructor(
    readonly requestId: string,
    private readonly clock: SimClock,
  ) {}

  okHeaders(facts: ReplyFacts | null): OutgoingHttpHeaders {
    const headers: OutgoingHttpHeaders = { 'x-amzn-requestid': this.requestId };
    if (facts !== null) {
      const { input } = facts.reply;
      headers['x-amzn-bedrock-invocation-latency'] = String(Math.max(0, Math.round(this.clock.now() - facts.startedAt)));
      headers['x-amzn-bedrock-input-token-count'] = String(input.input);
      headers['x-amzn-bedrock-output-token-count'] = String(facts.reply.outputTokens);
      headers['x-amzn-bedrock-cache-read-input-token-count'] = String(input.cacheRead);
      headers['x-amzn-bedrock-cache-write-input-token-count'] = String(input.cacheWrite);
    }
    return headers;
  }

  sendError(res: ServerResponse, failure: ApiFailure): void {
    const exception = exceptionFor(failure.type, failure.status);
    // The model's own validation messages pass through; Bedrock words its other errors itself.
    sendBedrockError(res, this.requestId, exception, exception === 'ValidationException' ? failure.message : undefined);
  }

  /** The fault's errorType may name a Bedrock exception (`ThrottlingException`); else its status picks one. */
  sendFault(res: ServerResponse, fault: StatusFault): void {
    const exception = fault.errorType === undefined ? exceptionForStatus(fault.status) : exceptionFor(fault.errorType, fault.status);
    sendBedrockError(res, this.requestId, exception, fault.message);
  }

  sendLimited(res: ServerResponse, _refusal: LimitRefusal): void {
    sendBedrockError(res, this.requestId, 'ThrottlingException');
  }

  wire(facts: ReplyFacts | null): StreamWire {
    const clock = this.clock;
    let count = 0;
    return {
      headers: { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-bedrock-content-type': 'application/json' },
      encode(frame: SseFrame) {
        count++;
        if (frame.type !== 'message_stop' || facts === null) return chunkMessage(frame.data, count % PADDING.length);
        const { input } = facts.reply;
        const latency = Math.max(0, Math.round(clock.now() - facts.startedAt));
        const metrics = {
          inputTokenCount: input.input,
          outputTokenCount: facts.reply.outputTokens,
          invocationLatency: latency,
          firstByteLatency: latency,
          cacheReadInputTokenCount: input.cacheRead,
          cacheWriteInputTokenCount: input.cacheWrite,
        };
        return chunkMessage(JSON.stringify({ type: 'message_stop', 'amazon-bedrock-invocationMetrics': metrics }), count % PADDING.length);
      },
      error(type, message) {
        const exception = exceptionFor(type, 500);
        // A stream breaks on the model's side as a modelStreamErrorException, unless it is throttling or capacity.
        const name = exception === 'ThrottlingException' || exception === 'ServiceUnavailableException' || Object.hasOwn(EXCEPTIONS, type) ? exception : 'ModelStreamErrorException';
        return exceptionMessage(name, message ?? EXCEPTIONS[name]!.message);
      },
      broken() {
        // A chunk whose message CRC is wrong.
        const bytes = Buffer.from(chunkMessage('{"type":"ping"}', 1));
        bytes[bytes.length - 1] ^= 0xff;
        return bytes;
      },
    };
  }
}
