// The anthropic provider type: the Messages API of one account, behind its own connection pool,
// authenticated by its API key (x-api-key). Requests go as the dialect writes them; only a route
// that names the account's own id for the model changes the body's `model` member.
import { ANTHROPIC } from '../../dialects/anthropic/api.js';
import { editMembers } from '../../lib/json/edit-members.js';
import type { ReplayableRequest, UpstreamOptions } from '../../upstream/client.js';
import { UpstreamClient } from '../../upstream/client.js';
import { upstreamCredentialScrub } from '../../upstream/credential-scrub.js';
import type { Provider, ProviderCall } from '../provider.js';
import { builtRequestHeaders, forwardedRequestHeaders } from './headers.js';
import { fetchLiveModels } from './live-models.js';

/** The id of the one provider a gateway builds from ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL. */
export const ANTHROPIC_PROVIDER_ID = 'anthropic';
export const ANTHROPIC_ENDPOINT = 'https://api.anthropic.com';

export interface AnthropicSettings {
  /** Everything before `/v1/messages`. */
  readonly baseUrl: string;
  /** null: no credential is sent (a private endpoint that needs none). */
  readonly apiKey: string | null;
}

export function createAnthropicProvider(id: string, settings: AnthropicSettings, options: UpstreamOptions): Provider {
  const client = new UpstreamClient(settings.baseUrl, options);
  const key = settings.apiKey;
  return {
    id,
    type: 'anthropic',
    genAiProvider: 'anthropic',
    dialect: 'anthropic',
    client,
    request: (call) => messagesRequest(call, key),
    streamDecoder: () => null,
    normalize: (answer) => answer,
    scrubCredential: upstreamCredentialScrub(key),
    listModels: () => fetchLiveModels(client, key),
    close: () => client.close(),
  };
}

function messagesRequest(call: ProviderCall, key: string | null): ReplayableRequest {
  const path = (call.operation === 'messages' ? ANTHROPIC.messagesPath : ANTHROPIC.countTokensPath) + call.query;
  const body = call.modelNamed && call.model !== call.bodyModel ? editMembers(asBuffer(call.body), { set: [['model', call.model]] }) : call.body;
  const headers = call.forwarded ? forwardedRequestHeaders(call.incoming, key) : builtRequestHeaders(call.incoming, key);
  return { method: 'POST', path, headers, body };
}

function asBuffer(body: Buffer | string): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
}
