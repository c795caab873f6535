// The bedrock provider type at work: Bedrock's InvokeModel / InvokeModelWithResponseStream for one
// AWS account in one region, behind its own connection pool. Each attempt's body is the Messages body
// restated (request-body.ts), signed as it goes out (signer.ts); a streamed answer's event-stream
// framing is decoded back into the provider's SSE (event-stream-decoder.ts), and Bedrock's errors are
// restated as the provider's (errors.ts), so every surface handles a bedrock route as an anthropic one.
import { ANTHROPIC } from '../../dialects/anthropic/api.js';
import type { ReplayableRequest, UpstreamOptions } from '../../upstream/client.js';
import { UpstreamClient } from '../../upstream/client.js';
import { upstreamCredentialScrub } from '../../upstream/credential-scrub.js';
import type { UpstreamResponse } from '../../upstream/exchange.js';
import { CredentialError } from '../credential-error.js';
import type { Provider, ProviderCall, StreamDecoder } from '../provider.js';
import { restatedError, withHeaders } from '../restated-answer.js';
import { bedrockCountTokensBody, bedrockCountTokensPath, countTokensAnswer } from './count-tokens.js';
import { bedrockErrorAnswer } from './errors.js';
import { BedrockStreamDecoder } from './event-stream-decoder.js';
import { bedrockInvokePath } from './invoke-path.js';
import { betaValues, toBedrockBody } from './request-body.js';
import { BedrockSigner, type BedrockAuth } from './signer.js';

/** The media type of InvokeModelWithResponseStream's answer. */
export const BEDROCK_STREAM_TYPE = 'application/vnd.amazon.eventstream';
/** A decoded stream is the provider's SSE. */
const AS_SSE = Object.freeze({ 'content-type': 'text/event-stream; charset=utf-8' });
/** Bedrock's request id, under the name the provider's clients read. */
const KEPT_HEADERS = Object.freeze({ 'x-amzn-requestid': 'request-id' });

export interface BedrockSettings {
  /** Everything before `/model/…`. */
  readonly endpoint: string;
  readonly auth: BedrockAuth;
  /** The body's `anthropic_version`. */
  readonly anthropicVersion: string;
}

export function createBedrockProvider(id: string, settings: BedrockSettings, options: UpstreamOptions): Provider {
  const client = new UpstreamClient(settings.endpoint, { ...options, streamedType: BEDROCK_STREAM_TYPE });
  const signer = new BedrockSigner(settings.auth);
  const endpoint = new URL(settings.endpoint);
  const secret = settings.auth.kind === 'api-key' ? settings.auth.apiKey : settings.auth.credentials.secretAccessKey;
  return {
    id,
    type: 'bedrock',
    genAiProvider: 'aws.bedrock',
    dialect: 'anthropic',
    client,
    request: (call) => signedRequest(call, settings.anthropicVersion, endpoint, signer),
    streamDecoder: (): StreamDecoder => {
      const decoder = new BedrockStreamDecoder();
      return {
        push: (chunk) => decoder.push(chunk),
        end: () => {
          decoder.end();
          return '';
        },
      };
    },
    normalize,
    scrubCredential: upstreamCredentialScrub(secret),
    listModels: null,
    close: () => client.close(),
  };
}

async function signedRequest(call: ProviderCall, version: string, endpoint: URL, signer: BedrockSigner): Promise<ReplayableRequest> {
  const messages = toBedrockBody(asBuffer(call.body), betaValues(call.incoming[ANTHROPIC.betaHeader]), version);
  const counting = call.operation === 'count_tokens';
  const path = counting ? bedrockCountTokensPath(call.model) : bedrockInvokePath(call.model, call.stream);
  const body = counting ? bedrockCountTokensBody(messages) : messages;
  const headers = { 'content-type': 'application/json', accept: call.stream && !counting ? BEDROCK_STREAM_TYPE : 'application/json' };
  // The signature covers the path as the pool sends it: the endpoint's own path prefix included.
  const url = new URL(endpoint.pathname.replace(/\/+$/, '') + path, endpoint.origin);
  let signed: Record<string, string>;
  try {
    signed = await signer.headersFor({ method: 'POST', url, headers, body });
  } catch (err) {
    throw new CredentialError(`the request could not be signed: ${(err as Error).message}`);
  }
  // undici sets host from the origin; a second one would be refused.
  const { host: _host, ...sent } = signed;
  return { method: 'POST', path, headers: sent, body };
}

/** Bedrock's errors as the provider's; a stream's framing named as the SSE it is decoded into; count_tokens' answer restated. */
function normalize(answer: UpstreamResponse): UpstreamResponse {
  if (answer.statusCode >= 400) {
    if (answer.kind !== 'buffered') return answer;
    return restatedError(answer, bedrockErrorAnswer(answer.statusCode, answer.headers, answer.body), KEPT_HEADERS);
  }
  if (answer.kind === 'stream') return withHeaders(answer, AS_SSE);
  const counted = countTokensAnswer(answer.body);
  return counted === null ? answer : { ...withHeaders(answer, {}), body: counted };
}

function asBuffer(body: Buffer | string): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
}
