// The provider's endpoints, once the request is read, authenticated and past any early fault:
// POST /v1/messages, POST /v1/messages/count_tokens, GET /v1/models[/{id}].
import type { ServerResponse } from 'node:http';
import { randomId } from '../ids.js';
import { pageModels, parsePageQuery, type ModelIndex } from '../models.js';
import { generateReply } from '../reply/generate.js';
import { estimateInput, totalInputTokens } from '../reply/estimate.js';
import { toFrames, toMessage } from '../reply/render.js';
import type { ApiFailure, ResolvedOptions } from '../types.js';
import { validateCountTokensRequest, validateMessagesRequest, type ValidationContext } from '../validate/request.js';
import type { LateFault } from './faults.js';
import { sendError, sendJson } from './respond.js';
import type { ResponseScope } from './scope.js';
import { writeJson, writeStream, type WriteContext } from './write-reply.js';

export interface ApiCall {
  res: ServerResponse;
  scope: ResponseScope;
  requestId: string;
  body: Buffer;
  query: URLSearchParams;
  /** An anthropic-beta header came with the request. */
  beta: boolean;
  options: ResolvedOptions;
  models: ModelIndex;
  fault: LateFault | null;
}

function parseJson(call: ApiCall): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(call.body.toString('utf8')) };
  } catch {
    sendError(call.res, call.requestId, { status: 400, type: 'invalid_request_error', message: 'There was an error parsing the body: the body is not valid JSON' });
    return { ok: false };
  }
}

function validationContext(call: ApiCall): ValidationContext {
  return { models: call.models, beta: call.beta };
}

function writeContext(call: ApiCall): WriteContext {
  return { res: call.res, scope: call.scope, requestId: call.requestId, tokensPerSecond: call.options.tokensPerSecond, fault: call.fault };
}

export async function handleMessages(call: ApiCall): Promise<void> {
  const parsed = parseJson(call);
  if (!parsed.ok) return;
  const checked = validateMessagesRequest(parsed.value, validationContext(call));
  if (!checked.ok) return sendError(call.res, call.requestId, checked.failure);
  const req = checked.value;
  const reply = generateReply(req, { replyTokens: call.options.replyTokens }, randomId);
  if (!(await call.scope.sleep(call.options.ttftMs))) return;
  const ctx = writeContext(call);
  const id = randomId('msg');
  if (req.stream === true) await writeStream(ctx, toFrames(reply, id, req.model));
  else await writeJson(ctx, JSON.stringify(toMessage(reply, id, req.model)), reply.outputTokens);
}

export async function handleCountTokens(call: ApiCall): Promise<void> {
  const parsed = parseJson(call);
  if (!parsed.ok) return;
  const checked = validateCountTokensRequest(parsed.value, validationContext(call));
  if (!checked.ok) return sendError(call.res, call.requestId, checked.failure);
  if (!(await call.scope.sleep(call.options.ttftMs))) return;
  const body = JSON.stringify({ input_tokens: totalInputTokens(estimateInput(checked.value)) });
  await writeJson(writeContext(call), body, 0);
}

export function handleListModels(call: ApiCall): void {
  const q = parsePageQuery(call.query);
  if ('status' in q) return sendError(call.res, call.requestId, q);
  sendJson(call.res, 200, call.requestId, pageModels(call.models.ordered, q));
}

export function handleGetModel(call: ApiCall, id: string): void {
  const model = call.models.find(id);
  if (!model) {
    const failure: ApiFailure = { status: 404, type: 'not_found_error', message: `model: ${id}` };
    return sendError(call.res, call.requestId, failure);
  }
  sendJson(call.res, 200, call.requestId, model);
}
