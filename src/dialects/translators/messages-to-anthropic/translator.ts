// anthropic → anthropic: the messages surface. The client's bytes go to the provider as they came and
// the provider's answer comes back as it was sent; usage is read on the side. Only a fallback changes
// the request: the model, and the sampling fields the fallback model does not accept.
import { HeaderNames } from '../../../lib/http/raw-headers.js';
import type { OutgoingHttpHeaders } from 'node:http';
import { ANTHROPIC } from '../../anthropic/api.js';
import { AnthropicStreamObserver, usageFromMessageBody } from '../../anthropic/stream-usage.js';
import { messagesErrorEvent, STREAM_INTERRUPTED, streamFailureOf } from '../../errors/stream-frames.js';
import type { ModelTraits } from '../../model-traits.js';
import { answerFactsOfMessageBody } from '../../anthropic/answer-facts.js';
import { NO_WARNINGS } from '../warnings.js';
import type { AnswerFacts, AnswerHead, ClientResponse, ClientRequest, RelayEnd, ProviderRequest, StreamTranslation, Translator } from '../translator.js';

export const messagesToAnthropic: Translator = {
  client: 'messages',
  provider: 'anthropic',
  request: passThroughRequest,
  // Only a 200 event stream is relayed as one; anything else is read whole and passed back.
  streams: (status) => status === 200,
  stream(_meta, head, headers) {
    passBackHeaders(head, headers);
    headers['cache-control'] = 'no-cache';
    return new PassThroughStream();
  },
  success: (status, body, _meta, head, headers) => wholeResponse(status, body, usageFromMessageBody(body), head, headers),
  error: (status, body, head, headers) => wholeResponse(status, body, null, head, headers),
  answer: answerFactsOfMessageBody,
};

function passThroughRequest(client: ClientRequest, model: ModelTraits, fallback: boolean): ProviderRequest {
  const body = fallback ? readdressed(client.json, model) : client.body;
  const named = fallback ? model.id : String(client.json.model);
  return { ok: true, body, model: named, forwarded: true, warnings: NO_WARNINGS, stream: client.json.stream === true, includeUsage: false };
}

/** The client's request for another model: `model` replaced, sampling fields it would refuse left out. */
function readdressed(json: Record<string, unknown>, model: ModelTraits): string {
  const fields: Record<string, unknown> = { ...json, model: model.id };
  if (!model.accepts.temperature) delete fields.temperature;
  if (!model.accepts.topP) delete fields.top_p;
  if (!model.accepts.topK) delete fields.top_k;
  return JSON.stringify(fields);
}

function wholeResponse(status: number, body: Buffer, usage: ClientResponse['usage'], head: AnswerHead, headers: OutgoingHttpHeaders): ClientResponse {
  passBackHeaders(head, headers);
  headers['content-length'] = body.length;
  return { status, body, usage, warnings: NO_WARNINGS };
}

/**
 * The provider's response headers a messages client should see. Its `anthropic-ratelimit-*` headers
 * are not among them: they describe the upstream account every tenant shares (a key with limits
 * gets its own, set by the rate-limit stage).
 */
function passBackHeaders(head: AnswerHead, into: OutgoingHttpHeaders): void {
  const values = head.headersOf(PASS_BACK);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v !== undefined) into[PASS_BACK.names[i]!] = v;
  }
}

const PASS_BACK = new HeaderNames(ANTHROPIC.passBackHeaders);

/** The bytes go through unchanged; the observer reads usage and completion on the side. */
class PassThroughStream implements StreamTranslation {
  private readonly observer = new AnthropicStreamObserver();
  readonly warnings = NO_WARNINGS;
  /** The relay writes each chunk before the observer reads it: the client never waits for the usage. */
  readonly unchanged = true;

  chunk(chunk: Buffer): Buffer {
    this.observer.push(chunk);
    return chunk;
  }

  end(): string {
    return '';
  }

  /** After message_stop the client holds a complete message: a connection that breaks later owes it nothing. */
  close(end: RelayEnd, failure: unknown): string {
    this.observer.end();
    if (end === 'client_gone' || this.observer.sawMessageStop || this.observer.errorEvent !== null) return '';
    const f = end === 'source_failed' ? streamFailureOf(failure) : STREAM_INTERRUPTED;
    return messagesErrorEvent(f.messagesType, f.message);
  }

  get complete(): boolean {
    return this.observer.sawMessageStop;
  }

  get firstTokenSeen(): boolean {
    return this.observer.firstTokenSeen;
  }

  get usage(): ClientResponse['usage'] {
    return this.observer.usage;
  }

  get providerError(): string | null {
    return this.observer.errorEvent?.type ?? null;
  }

  get relayedTokens(): number {
    return this.observer.relayed.tokens;
  }

  get answer(): AnswerFacts {
    return this.observer.answer;
  }
}
