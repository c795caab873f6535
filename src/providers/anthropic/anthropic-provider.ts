// The anthropic provider: the Messages API behind one connection pool, authenticated by x-api-key.
import type { IncomingHttpHeaders } from 'node:http';
import type { ModelInfo } from '../../dialects/anthropic/wire.js';
import type { UpstreamOptions } from '../../upstream/client.js';
import { UpstreamClient } from '../../upstream/client.js';
import { upstreamCredentialScrub } from '../../upstream/credential-scrub.js';
import type { Provider } from '../provider.js';
import { builtRequestHeaders, forwardedRequestHeaders } from './headers.js';
import { fetchLiveModels } from './live-models.js';

export const ANTHROPIC_PROVIDER_ID = 'anthropic';

export function createAnthropicProvider(baseUrl: string, credential: string | null, options: UpstreamOptions): Provider {
  const client = new UpstreamClient(baseUrl, options);
  return {
    id: ANTHROPIC_PROVIDER_ID,
    genAiProvider: 'anthropic',
    dialect: 'anthropic',
    client,
    scrubCredential: upstreamCredentialScrub(credential),
    forwardedHeaders: (incoming: IncomingHttpHeaders) => forwardedRequestHeaders(incoming, credential),
    builtHeaders: (incoming: IncomingHttpHeaders | null) => builtRequestHeaders(incoming, credential),
    listModels: (): Promise<ModelInfo[]> => fetchLiveModels(client, credential),
    close: () => client.close(),
  };
}
