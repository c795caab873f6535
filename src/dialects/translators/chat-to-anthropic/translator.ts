// openai → anthropic: the chat-completions surface. A chat request becomes a Messages request; the
// provider's message becomes a chat.completion, its event stream a chunk stream (SSE parse → event
// translation → SSE frames per provider chunk), its error the chat error shape with the same status.
import type { OutgoingHttpHeaders } from 'node:http';
import type { Message } from '../../anthropic/wire.js';
import { ANTHROPIC } from '../../anthropic/api.js';
import { streamFailureOf } from '../../errors/stream-frames.js';
import type { ModelTraits } from '../../model-traits.js';
import { answerFactsOfMessageBody } from '../../anthropic/answer-facts.js';
import { Reframer } from '../../sse/reframer.js';
import type { AnswerFacts, AnswerHead, ResponseMeta, ClientResponse, ClientRequest, ProviderRequest, RelayEnd, StreamTranslation, Translator } from '../translator.js';
import { NO_WARNINGS, type TranslationWarning } from '../warnings.js';
import { stringifyCompletion } from './completion-json.js';
import { translateUpstreamError } from './error.js';
import { fastCompletion } from './fast-completion.js';
import { translateChatRequest } from './request.js';
import { stringifyMessagesRequest } from './request-json.js';
import { translateMessageToCompletion } from './response.js';
import { ChatStreamTranslator } from './stream.js';

export const chatToAnthropic: Translator = {
  client: 'chat',
  provider: 'anthropic',
  request: chatRequest,
  streams: (_status, clientAskedStream) => clientAskedStream,
  stream(meta, _head, headers) {
    headers['content-type'] = 'text/event-stream; charset=utf-8';
    headers['cache-control'] = 'no-cache';
    return new ChunkStream(meta);
  },
  success: completion,
  answer: answerFactsOfMessageBody,
  error(status, body, head, headers) {
    const translated = translateUpstreamError(status, body);
    // The provider's advice on when to retry; a success carries none (its headers are not read).
    const retryAfter = head.header('retry-after');
    if (retryAfter !== undefined) headers['retry-after'] = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
    return jsonResponse(translated.status, JSON.stringify(translated.body), headers, null, NO_WARNINGS);
  },
};

/** The Messages request for `model`; a fallback translates the client's request again, for its model. */
function chatRequest(client: ClientRequest, model: ModelTraits): ProviderRequest {
  const t = translateChatRequest(client.json, model, { strict: client.strict });
  return t.ok ? messagesRequest(stringifyMessagesRequest(t.request), t) : t;
}

/** A translated Messages body as the provider request (inline, or serialised by a translation worker). */
export function messagesRequest(
  body: string | Buffer,
  decisions: { warnings: readonly TranslationWarning[]; stream: boolean; includeUsage: boolean },
): ProviderRequest & { ok: true } {
  return { ok: true, path: ANTHROPIC.messagesPath, body, forwarded: false, warnings: decisions.warnings, stream: decisions.stream, includeUsage: decisions.includeUsage };
}

function completion(_status: number, body: Buffer, meta: ResponseMeta, _head: AnswerHead, headers: OutgoingHttpHeaders): ClientResponse {
  const answer = body.toString('utf8');
  const created = Math.floor(Date.now() / 1000);
  const fast = fastCompletion(answer, created, meta.model);
  if (fast !== null) return jsonResponse(200, fast.body, headers, fast.usage, NO_WARNINGS);
  const { completion, warnings, usage } = translateMessageToCompletion(JSON.parse(answer) as Message, { created, model: meta.model });
  return jsonResponse(200, stringifyCompletion(completion), headers, usage, warnings);
}

function jsonResponse(status: number, text: string, headers: OutgoingHttpHeaders, usage: ClientResponse['usage'], warnings: readonly TranslationWarning[]): ClientResponse {
  headers['content-type'] = 'application/json';
  headers['content-length'] = Buffer.byteLength(text);
  return { status, body: text, usage, warnings };
}

class ChunkStream implements StreamTranslation {
  private readonly translator: ChatStreamTranslator;
  private readonly reframer: Reframer;

  constructor(meta: ResponseMeta) {
    this.translator = new ChatStreamTranslator({ created: Math.floor(Date.now() / 1000), model: meta.model, includeUsage: meta.includeUsage });
    this.reframer = new Reframer(this.translator);
  }

  chunk(chunk: Buffer): string {
    return this.reframer.push(chunk);
  }

  end(): string {
    return this.reframer.end();
  }

  close(end: RelayEnd, failure: unknown): string {
    if (end !== 'source_failed') return '';
    const f = streamFailureOf(failure);
    return this.reframer.close(this.translator.fail(f.chatType, f.chatCode, f.message));
  }

  get complete(): boolean {
    return this.translator.finished;
  }

  /** A ping or the role chunk is not a token: the translator knows when content first went out. */
  get firstTokenSeen(): boolean {
    return this.translator.firstTokenSeen;
  }

  get usage(): ClientResponse['usage'] {
    return this.translator.usage;
  }

  get answer(): AnswerFacts {
    return this.translator.answer;
  }

  get warnings(): readonly TranslationWarning[] {
    return this.translator.warnings;
  }
}
