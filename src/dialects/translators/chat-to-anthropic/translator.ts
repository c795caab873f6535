// openai → anthropic: the chat-completions surface. A chat request becomes a Messages request; the
// provider's message becomes a chat.completion, its event stream a chunk stream (SSE parse → event
// translation → SSE frames per provider chunk), its error the chat error shape with the same status.
import type { OutgoingHttpHeaders } from 'node:http';
import type { Message } from '../../anthropic/wire.js';
import type { ModelTraits } from '../../model-traits.js';
import type { AnswerHead, ResponseMeta, ClientResponse, ClientRequest, ProviderRequest, Translator } from '../translator.js';
import { NO_WARNINGS } from '../warnings.js';
import { answerFactsOfMessageBody } from '../../anthropic/answer-facts.js';
import { jsonResponse, ReframedStream, upstreamErrorResponse } from '../openai-shared/translated-answer.js';
import { stringifyCompletion } from './completion-json.js';
import { fastCompletion } from './fast-completion.js';
import { translateChatRequest } from './request.js';
import { messagesRequest, stringifyMessagesRequest } from '../openai-shared/request-json.js';
import { translateMessageToCompletion } from './response.js';
import { ChatStreamTranslator } from './stream.js';

export const chatToAnthropic: Translator = {
  client: 'chat',
  provider: 'anthropic',
  request: chatRequest,
  streams: (_status, clientAskedStream) => clientAskedStream,
  stream(meta, _head, headers) {
    return new ReframedStream(headers, new ChatStreamTranslator({ created: Math.floor(Date.now() / 1000), model: meta.model, includeUsage: meta.includeUsage }));
  },
  success: completion,
  answer: answerFactsOfMessageBody,
  error: upstreamErrorResponse,
};

/** The Messages request for `model`; a fallback translates the client's request again, for its model. */
function chatRequest(client: ClientRequest, model: ModelTraits): ProviderRequest {
  const t = translateChatRequest(client.json, model, { strict: client.strict });
  return t.ok ? messagesRequest(stringifyMessagesRequest(t.request), model.id, t) : t;
}

function completion(_status: number, body: Buffer, meta: ResponseMeta, _head: AnswerHead, headers: OutgoingHttpHeaders): ClientResponse {
  const answer = body.toString('utf8');
  const created = Math.floor(Date.now() / 1000);
  const fast = fastCompletion(answer, created, meta.model);
  if (fast !== null) return jsonResponse(200, fast.body, headers, fast.usage, NO_WARNINGS);
  const { completion, warnings, usage } = translateMessageToCompletion(JSON.parse(answer) as Message, { created, model: meta.model });
  return jsonResponse(200, stringifyCompletion(completion), headers, usage, warnings);
}
