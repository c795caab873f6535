// Bedrock's runtime for Anthropic's models: POST /model/{modelId}/invoke answers with the Messages
// JSON, /invoke-with-response-stream with an event stream, /count-tokens with the input's token count
// (count-tokens.ts). The caller is authenticated first
// (authenticate.ts), then the body is checked as Bedrock checks it: the Messages body without
// `model` and `stream`, with `anthropic_version: "bedrock-2023-05-31"` and optionally
// `anthropic_beta` (a list of beta names); the model answers as the provider's does (http/api.ts).
// A dated version (`2026-10-21`) is taken too: the official Bedrock SDK (1.x) puts the version header
// of the provider's SDK into the body instead of Bedrock's own string.
import { randomUUID } from 'node:crypto';
import { isRecord } from '../../../lib/is-record.js';
import { serveMessages } from '../http/api.js';
import { decodedSegment, type Incoming, type SimContext } from '../http/context.js';
import { isLateFault } from '../http/faults.js';
import { strikeEarly, writeJson } from '../http/write-reply.js';
import { DATED_VERSION } from '../http/anthropic.js';
import { checkSignature, claimOf } from './authenticate.js';
import { countInvokeTokens, invokeBodyOf } from './count-tokens.js';
import { BedrockFront, sendBedrockError } from './front.js';
import { modelOfBedrockId } from './model-ids.js';

const INVOKE_PATH = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream|count-tokens)$/;
export const BEDROCK_VERSION = 'bedrock-2023-05-31';

function malformed(detail: string): string {
  return `Malformed input request: ${detail}, please reformat your input and try again.`;
}

type Checked = { ok: true; request: Record<string, unknown>; beta: boolean } | { ok: false; message: string };

/** Bedrock's own checks of the body, before the model sees it; the model's body comes back. */
function checkBody(body: Buffer, model: string, streamed: boolean): Checked {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return { ok: false, message: malformed('#: expected a JSON object') };
  }
  if (!isRecord(parsed)) return { ok: false, message: malformed('#: expected type: JSONObject') };
  for (const key of ['model', 'stream']) if (key in parsed) return { ok: false, message: malformed(`#: extraneous key [${key}] is not permitted`) };
  const { anthropic_version: version, anthropic_beta: betas, ...rest } = parsed;
  if (version === undefined) return { ok: false, message: malformed('#: required key [anthropic_version] not found') };
  if (version !== BEDROCK_VERSION && !(typeof version === 'string' && DATED_VERSION.test(version))) return { ok: false, message: malformed(`#/anthropic_version: ${JSON.stringify(version)} is not a valid enum value`) };
  if (betas !== undefined && !(Array.isArray(betas) && betas.every((b) => typeof b === 'string'))) {
    return { ok: false, message: malformed('#/anthropic_beta: expected type: JSONArray of strings') };
  }
  return { ok: true, request: { ...rest, model, stream: streamed }, beta: Array.isArray(betas) && betas.length > 0 };
}

export async function handleBedrock(call: Incoming, sim: SimContext): Promise<void> {
  const { req, res } = call;
  const requestId = randomUUID();
  const route = call.method === 'POST' ? INVOKE_PATH.exec(call.path) : null;
  if (route === null) return sendBedrockError(res, requestId, 'UnknownOperationException', 'Unknown operation', 404);
  const claim = claimOf(req, sim.accounts);
  if (claim.kind === 'refused') return sendBedrockError(res, requestId, claim.refusal.exception, claim.refusal.message, claim.refusal.status);
  const { account } = claim;
  const front = new BedrockFront(requestId, sim.clock);
  const fault = sim.faults.take(account.id);
  if (fault !== null && !isLateFault(fault)) return strikeEarly(fault, res, call.scope, front);
  // A body too large was not kept, so its signature cannot be checked: the size is refused first.
  if (call.tooLarge) return sendBedrockError(res, requestId, 'ValidationException', 'Input is too long for requested model.');
  if (claim.kind === 'sigv4') {
    const refusal = await checkSignature(claim, { req, path: call.path, rawQuery: call.rawQuery, body: call.body }, sim.clock.now());
    if (refusal !== null) return sendBedrockError(res, requestId, refusal.exception, refusal.message, refusal.status);
  }
  const model = sim.models.find(modelOfBedrockId(decodedSegment(route[1]!)) ?? '');
  if (model === undefined) return sendBedrockError(res, requestId, 'ValidationException', 'The provided model identifier is invalid.');
  const lateFault = fault !== null && isLateFault(fault) ? fault : null;
  if (route[2] === 'count-tokens') {
    const invokeBody = invokeBodyOf(call.body);
    if (typeof invokeBody === 'string') return sendBedrockError(res, requestId, 'ValidationException', invokeBody);
    const counted = checkBody(invokeBody, model.id, false);
    if (!counted.ok) return sendBedrockError(res, requestId, 'ValidationException', counted.message);
    const count = countInvokeTokens(counted.request, sim.models, counted.beta);
    if ('status' in count) return front.sendError(res, count);
    const ctx = { res, scope: call.scope, front, facts: null, tokensPerSecond: sim.options.tokensPerSecond, fault: lateFault };
    return writeJson(ctx, JSON.stringify(count), 0);
  }
  const checked = checkBody(call.body, model.id, route[2] === 'invoke-with-response-stream');
  if (!checked.ok) return sendBedrockError(res, requestId, 'ValidationException', checked.message);
  await serveMessages({
    res,
    scope: call.scope,
    front,
    account,
    clock: sim.clock,
    options: sim.options,
    models: sim.models,
    fault: lateFault,
    request: checked.request,
    beta: checked.beta,
  });
}
