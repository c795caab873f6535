// The provider's endpoints, once the request is read, its account known and past any early fault:
// POST /v1/messages, POST /v1/messages/count_tokens, GET /v1/models[/{id}]. serveMessages() is the
// model itself, shared by every front (the provider's, Bedrock's, Vertex AI's): validation, the
// account's rate limits and prompt cache, the reply, and writing it as the front frames it.
import type { ServerResponse } from 'node:http';
import type { Account } from '../accounts/accounts.js';
import type { SimClock } from '../accounts/clock.js';
import { randomId } from '../ids.js';
import { pageModels, parsePageQuery, type ModelIndex } from '../models.js';
import { tallyInput } from '../reply/estimate.js';
import { generateReply } from '../reply/generate.js';
import { toFrames, toMessage } from '../reply/render.js';
import type { ApiFailure, ResolvedOptions } from '../types.js';
import { validateCountTokensRequest, validateMessagesRequest } from '../validate/request.js';
import type { LateFault } from './faults.js';
import type { AnthropicFront, ReplyFront } from './front.js';
import type { ResponseScope } from './scope.js';
import { writeJson, writeStream } from './write-reply.js';

/** One call to the model, as a front hands it over. */
export interface ModelCall {
  res: ServerResponse;
  scope: ResponseScope;
  front: ReplyFront;
  account: Account;
  clock: SimClock;
  options: ResolvedOptions;
  models: ModelIndex;
  fault: LateFault | null;
  /** The parsed body in the provider's Messages shape (a front has put back the model and stream it took elsewhere). */
  request: unknown;
  /** Beta features were asked for: beta-only body fields are then accepted. */
  beta: boolean;
}

/** A call to the provider's own API. */
export interface ApiCall extends Omit<ModelCall, 'request' | 'front'> {
  front: AnthropicFront;
  body: Buffer;
  query: URLSearchParams;
}

function parseJson(call: ApiCall): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(call.body.toString('utf8')) };
  } catch {
    call.front.sendError(call.res, { status: 400, type: 'invalid_request_error', message: 'There was an error parsing the body: the body is not valid JSON' });
    return { ok: false };
  }
}

export async function serveMessages(call: ModelCall): Promise<void> {
  const { res, front, account, clock } = call;
  const checked = validateMessagesRequest(call.request, { models: call.models, beta: call.beta });
  if (!checked.ok) return front.sendError(res, checked.failure);
  const req = checked.value;
  const startedAt = clock.now();
  const plan = account.cache.plan(tallyInput(req), startedAt);
  const multiplier = call.options.inputMultiplier;
  if (multiplier !== 1) plan.input = { ...plan.input, input: Math.ceil(plan.input.input * multiplier) };
  // Cache reads do not count against input limits; output is reserved at max_tokens until the end.
  const refusal = account.limits.admit({ input: plan.input.input + plan.input.cacheWrite, output: req.max_tokens }, startedAt);
  if (refusal !== null) return front.sendLimited(res, refusal);
  account.cache.commit(plan, startedAt);
  const reply = generateReply(req, { replyTokens: call.options.replyTokens }, randomId, plan.input);
  try {
    if (!(await call.scope.sleep(call.options.ttftMs))) return;
    const ctx = {
      res,
      scope: call.scope,
      front,
      facts: { reply, startedAt },
      tokensPerSecond: call.options.tokensPerSecond,
      chunkBytes: call.options.streamChunkBytes,
      fault: call.fault,
    };
    const id = randomId(front.messageIdKind);
    if (req.stream === true) await writeStream(ctx, toFrames(reply, id, req.model));
    else await writeJson(ctx, JSON.stringify(toMessage(reply, id, req.model)), reply.outputTokens);
  } finally {
    account.limits.settleOutput(req.max_tokens, reply.outputTokens, clock.now());
  }
}

export async function handleMessages(call: ApiCall): Promise<void> {
  const parsed = parseJson(call);
  if (!parsed.ok) return;
  await serveMessages({ ...call, request: parsed.value });
}

export async function handleCountTokens(call: ApiCall): Promise<void> {
  const parsed = parseJson(call);
  if (!parsed.ok) return;
  const checked = validateCountTokensRequest(parsed.value, { models: call.models, beta: call.beta });
  if (!checked.ok) return call.front.sendError(call.res, checked.failure);
  if (!(await call.scope.sleep(call.options.ttftMs))) return;
  const body = JSON.stringify({ input_tokens: tallyInput(checked.value).total });
  await writeJson({ res: call.res, scope: call.scope, front: call.front, facts: null, tokensPerSecond: call.options.tokensPerSecond, fault: call.fault }, body, 0);
}

export function handleListModels(call: ApiCall): void {
  const q = parsePageQuery(call.query);
  if ('status' in q) return call.front.sendError(call.res, q);
  call.front.sendJson(call.res, 200, pageModels(call.models.ordered, q));
}

export function handleGetModel(call: ApiCall, id: string): void {
  const model = call.models.find(id);
  if (!model) {
    const failure: ApiFailure = { status: 404, type: 'not_found_error', message: `model: ${id}` };
    return call.front.sendError(call.res, failure);
  }
  call.front.sendJson(call.res, 200, model);
}
