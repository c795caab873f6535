// The vertex provider type at work: rawPredict / streamRawPredict of Anthropic's models on Vertex AI
// for one project and region, behind its own connection pool. Each attempt's body is the Messages
// body restated (request-body.ts), sent with an access token of the route's service account
// (token-source.ts: the JWT-bearer grant at the key file's token_uri, cached, one refresh at a time).
// The stream already is the provider's SSE; Google's own error answers are restated as the
// provider's (errors.ts).
import { ANTHROPIC } from '../../dialects/anthropic/api.js';
import type { ReplayableRequest, UpstreamOptions } from '../../upstream/client.js';
import { UpstreamClient } from '../../upstream/client.js';
import type { UpstreamResponse } from '../../upstream/exchange.js';
import { CredentialError } from '../credential-error.js';
import type { Provider, ProviderCall } from '../provider.js';
import { restatedError } from '../restated-answer.js';
import { vertexErrorAnswer } from './errors.js';
import { vertexCountTokensPath, vertexPredictPath } from './predict-path.js';
import { toVertexBody } from './request-body.js';
import type { ServiceAccount } from './service-account.js';
import { TokenRefreshError, VertexTokenSource } from './token-source.js';

export interface VertexSettings {
  /** Everything before `/v1/…`. */
  readonly endpoint: string;
  readonly project: string;
  readonly region: string;
  readonly account: ServiceAccount;
  /** The body's `anthropic_version`. */
  readonly anthropicVersion: string;
}

export function createVertexProvider(id: string, settings: VertexSettings, options: UpstreamOptions): Provider {
  const client = new UpstreamClient(settings.endpoint, options);
  const tokens = VertexTokenSource.forAccount(settings.account);
  /** The token each answer was asked with is not known to normalize(): a 401 forgets the one held now. */
  let lastToken: string | null = null;
  const scrubTokens = (body: Buffer): Buffer => (lastToken !== null && body.includes(lastToken) ? Buffer.from(body.toString('utf8').replaceAll(lastToken, '[redacted]'), 'utf8') : body);
  return {
    id,
    type: 'vertex',
    genAiProvider: 'gcp.vertex_ai',
    dialect: 'anthropic',
    client,
    async request(call) {
      const token = await accessToken(tokens);
      lastToken = token;
      return predictRequest(call, settings, token);
    },
    streamDecoder: () => null,
    normalize(answer) {
      // A token the endpoint no longer takes (revoked, or expired early): the next attempt fetches one.
      if (answer.statusCode === 401 && lastToken !== null) tokens.invalidate(lastToken);
      return normalize(answer);
    },
    scrubCredential: scrubTokens,
    listModels: null,
    close: async () => {
      await Promise.all([client.close(), tokens.close()]);
    },
  };
}

async function accessToken(tokens: VertexTokenSource): Promise<string> {
  try {
    return await tokens.token();
  } catch (err) {
    throw new CredentialError(err instanceof TokenRefreshError ? err.message : `no access token: ${(err as Error).message}`);
  }
}

function predictRequest(call: ProviderCall, settings: VertexSettings, token: string): ReplayableRequest {
  const counting = call.operation === 'count_tokens';
  const path = counting ? vertexCountTokensPath(settings.project, settings.region) : vertexPredictPath(settings.project, settings.region, call.model, call.stream);
  // The count-tokens model takes the body with its `model`, as the provider's count_tokens does.
  const body = counting ? countTokensBody(call) : toVertexBody(asBuffer(call.body), settings.anthropicVersion);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: call.stream ? 'text/event-stream' : 'application/json', authorization: `Bearer ${token}` };
  const beta = call.incoming[ANTHROPIC.betaHeader];
  if (beta !== undefined) headers[ANTHROPIC.betaHeader] = Array.isArray(beta) ? beta.join(',') : beta;
  return { method: 'POST', path, headers, body };
}

function countTokensBody(call: ProviderCall): Buffer | string {
  if (!call.modelNamed || call.model === call.bodyModel) return call.body;
  return Buffer.from(JSON.stringify({ ...(JSON.parse(asBuffer(call.body).toString('utf8')) as object), model: call.model }), 'utf8');
}

/** Google's error answers as the provider's; the model's own errors (already the provider's shape) and successes as they came. */
function normalize(answer: UpstreamResponse): UpstreamResponse {
  if (answer.statusCode < 400 || answer.kind !== 'buffered') return answer;
  const error = vertexErrorAnswer(answer.statusCode, answer.headers, answer.body);
  return error.providerShaped ? answer : restatedError(answer, error);
}

function asBuffer(body: Buffer | string): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
}
