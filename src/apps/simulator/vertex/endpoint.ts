// Vertex AI's publisher endpoint for Anthropic's models:
//   POST /v1/projects/{project}/locations/{region}/publishers/anthropic/models/{model}:rawPredict
//   POST …/models/{model}:streamRawPredict      (the body's `stream: true` streams, as the provider's)
//   POST …/models/count-tokens:rawPredict         (the provider's count_tokens; the body keeps `model`)
// The caller needs `Authorization: Bearer` with an access token from the token endpoint, unexpired and
// granted the cloud-platform scope; an account tied to a project may call only that one. The body is
// the Messages body without `model`, with `anthropic_version: "vertex-2023-10-16"` (or a dated version,
// which the official Vertex SDK 1.x copies into the body from the provider SDK's version header).
import { CLOUD_PLATFORM_SCOPE } from '../../../providers/vertex/jwt-grant.js';
import { isRecord } from '../../../lib/is-record.js';
import { randomId } from '../ids.js';
import { tallyInput } from '../reply/estimate.js';
import { DATED_VERSION } from '../http/anthropic.js';
import { serveMessages } from '../http/api.js';
import { decodedSegment, type Incoming, type SimContext } from '../http/context.js';
import { isLateFault } from '../http/faults.js';
import { strikeEarly, writeJson } from '../http/write-reply.js';
import { validateCountTokensRequest } from '../validate/request.js';
import type { Grant } from './issued-tokens.js';
import { VertexFront, sendGoogleError } from './front.js';
import { modelOfVertexId } from './model-ids.js';

const PREDICT_PATH = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/anthropic\/models\/([^/:]+):(rawPredict|streamRawPredict)$/;
export const VERTEX_VERSION = 'vertex-2023-10-16';
const COUNT_TOKENS_MODEL = 'count-tokens';

const UNAUTHENTICATED =
  'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';

function grantOf(call: Incoming, sim: SimContext): Grant | null {
  const auth = call.req.headers.authorization;
  if (auth === undefined || !auth.startsWith('Bearer ')) return null;
  return sim.tokens.find(auth.slice(7).trim(), sim.clock.now());
}

function parseBody(body: Buffer): Record<string, unknown> | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return 'There was an error parsing the body: the body is not valid JSON';
  }
  return isRecord(parsed) ? parsed : 'Input should be a valid dictionary';
}

/** The provider's check of `anthropic_version` on Vertex: required, Vertex's own value or a dated version. */
function versionProblem(body: Record<string, unknown>): string | null {
  const version = body.anthropic_version;
  if (version === undefined) return 'anthropic_version: Field required';
  return version === VERTEX_VERSION || (typeof version === 'string' && DATED_VERSION.test(version)) ? null : `anthropic_version: Input should be '${VERTEX_VERSION}'`;
}

export async function handleVertex(call: Incoming, sim: SimContext): Promise<void> {
  const { res } = call;
  const route = call.method === 'POST' ? PREDICT_PATH.exec(call.path) : null;
  const modelName = route === null ? '' : decodedSegment(route[3]!);
  const front = new VertexFront(randomId('req'), modelOfVertexId(modelName));
  if (route === null) return sendGoogleError(res, 404, `The requested URL ${call.path} was not found on this server.`);
  const [project, region] = [decodedSegment(route[1]!), decodedSegment(route[2]!)];
  const grant = grantOf(call, sim);
  const fault = sim.faults.take(grant?.account.id ?? null);
  if (fault !== null && !isLateFault(fault)) return strikeEarly(fault, res, call.scope, front);
  if (grant === null) return sendGoogleError(res, 401, UNAUTHENTICATED);
  if (!grant.scopes.includes(CLOUD_PLATFORM_SCOPE)) return sendGoogleError(res, 403, 'Request had insufficient authentication scopes.');
  const resource = `projects/${project}/locations/${region}/publishers/anthropic/models/${modelName}`;
  const allowed = grant.account.options.project;
  if (allowed !== undefined && allowed !== project) {
    return sendGoogleError(res, 403, `Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/${resource}' (or it may not exist).`);
  }
  if (call.tooLarge) return front.sendError(res, { status: 413, type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' });
  const body = parseBody(call.body);
  if (typeof body === 'string') return front.sendError(res, { status: 400, type: 'invalid_request_error', message: body });
  const lateFault = fault !== null && isLateFault(fault) ? fault : null;
  const beta = typeof call.req.headers['anthropic-beta'] === 'string' && call.req.headers['anthropic-beta'] !== '';
  if (modelName === COUNT_TOKENS_MODEL && route[4] === 'rawPredict') {
    const { anthropic_version: _version, ...request } = body;
    const model = typeof request.model === 'string' ? sim.models.find(modelOfVertexId(request.model)) : undefined;
    const checked = validateCountTokensRequest(model === undefined ? request : { ...request, model: model.id }, { models: sim.models, beta });
    if (!checked.ok) return front.sendError(res, checked.failure);
    const ctx = { res, scope: call.scope, front, facts: null, tokensPerSecond: sim.options.tokensPerSecond, fault: lateFault };
    return writeJson(ctx, JSON.stringify({ input_tokens: tallyInput(checked.value).total }), 0);
  }
  const model = sim.models.find(modelOfVertexId(modelName));
  if (model === undefined) return sendGoogleError(res, 404, `Publisher Model \`${resource}\` not found.`);
  if ('model' in body) return front.sendError(res, { status: 400, type: 'invalid_request_error', message: 'model: Extra inputs are not permitted' });
  const problem = versionProblem(body);
  if (problem !== null) return front.sendError(res, { status: 400, type: 'invalid_request_error', message: problem });
  const { anthropic_version: _version, ...rest } = body;
  await serveMessages({
    res,
    scope: call.scope,
    front,
    account: grant.account,
    clock: sim.clock,
    options: sim.options,
    models: sim.models,
    fault: lateFault,
    request: { ...rest, model: model.id },
    beta,
  });
}
