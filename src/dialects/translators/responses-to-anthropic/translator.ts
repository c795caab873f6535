// responses → anthropic: the Responses surface. A Responses request becomes a Messages request; the
// provider's message becomes a `response` object, its event stream the Responses event stream (SSE
// parse → event translation → SSE frames per provider chunk), its error the chat error shape with
// the same status (the shape the OpenAI service answers both formats' errors in).
import { sessionHeader } from './session.js';
import { answerFactsOfMessageBody } from '../../anthropic/answer-facts.js';
import { isRecord } from '../../../lib/is-record.js';
import type { ClientRequest, ProviderRequest, Translator } from '../translator.js';
import type { ModelTraits } from '../../model-traits.js';
import { messagesRequest, stringifyMessagesRequest } from '../openai-shared/request-json.js';
import { jsonResponse, ReframedStream, upstreamErrorResponse } from '../openai-shared/translated-answer.js';
import { NO_WARNINGS } from '../warnings.js';
import { ResponseEnvelope } from './envelope.js';
import { fastResponse } from './fast-response.js';
import { responseIdOf } from './items.js';
import { translateResponsesRequest } from './request.js';
import { translateMessageToResponse } from './response.js';
import { ResponsesStreamTranslator } from './stream.js';
import { toolNamesOf } from './tool-names.js';

export const responsesToAnthropic: Translator = {
  client: 'responses',
  provider: 'anthropic',
  request: responsesRequest,
  streams: (_status, clientAskedStream) => clientAskedStream,
  stream(meta, _head, headers) {
    const tools = toolNamesOf(meta.clientBody?.tools);
    return new ReframedStream(headers, new ResponsesStreamTranslator({ createdAt: nowSeconds(), model: meta.model, clientBody: meta.clientBody, tools }));
  },
  success(_status, body, meta, _head, headers) {
    const answer = body.toString('utf8');
    const createdAt = nowSeconds();
    const fast = fastResponse(answer, createdAt, meta.model, meta.clientBody);
    if (fast !== null) return jsonResponse(200, fast.body, headers, fast.usage, NO_WARNINGS);
    const parsed: unknown = JSON.parse(answer);
    const message = isRecord(parsed) ? parsed : {};
    const envelope = new ResponseEnvelope(responseIdOf(typeof message.id === 'string' ? message.id : 'unknown'), createdAt, meta.model, meta.clientBody);
    const r = translateMessageToResponse(message, envelope, toolNamesOf(meta.clientBody?.tools));
    return jsonResponse(200, r.body, headers, r.usage, r.warnings);
  },
  answer: answerFactsOfMessageBody,
  error: upstreamErrorResponse,
};

/** The Messages request for `model`; a fallback translates the client's request again, for its model. */
function responsesRequest(client: ClientRequest, model: ModelTraits): ProviderRequest {
  const t = translateResponsesRequest(client.json, model, { strict: client.strict, sessionHeader: sessionHeaderOf(client) });
  return t.ok ? messagesRequest(stringifyMessagesRequest(t.request), model.id, { ...t, includeUsage: false }) : t;
}

function sessionHeaderOf(client: ClientRequest): string | undefined {
  return sessionHeader(client.headers);
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
