// Entry points of the validator: a parsed JSON body in, a typed request or the provider's 400/404 out.
// Pure: the caller supplies the model index and whether an anthropic-beta header came with it.
import type { CountTokensRequest, MessagesRequest, ModelInfo } from '../../../dialects/anthropic/wire.js';
import { takesOnlyDefaultSampling, type ModelIndex } from '../models.js';
import type { ApiFailure } from '../types.js';
import { checkCacheControl, checkSystem } from './content.js';
import { checkMessages } from './conversation.js';
import { checkSampling, checkThinking, type ThinkingFacts } from './sampling.js';
import {
  RequestInvalid,
  at,
  bool,
  fail,
  int,
  isBlank,
  list,
  literal,
  noExtra,
  obj,
  range,
  requireField,
  str,
  type Json,
} from './check.js';
import { checkToolChoice, checkTools } from './tools.js';

export interface ValidationContext {
  models: ModelIndex;
  /** An `anthropic-beta` header was sent: beta-only body fields are then accepted. */
  beta: boolean;
}

export type Validated<T> = { ok: true; value: T; model: ModelInfo } | { ok: false; failure: ApiFailure };

const SHARED_FIELDS = ['model', 'messages', 'system', 'tools', 'tool_choice', 'thinking', 'output_config', 'cache_control', 'speed', 'user_profile_id', 'workspace_id'];
const MESSAGES_FIELDS = new Set([
  ...SHARED_FIELDS,
  'max_tokens',
  'stop_sequences',
  'stream',
  'temperature',
  'top_p',
  'top_k',
  'metadata',
  'service_tier',
  'container',
  'inference_geo',
  'diagnostics',
]);
const MESSAGES_BETA_FIELDS = ['context_management', 'mcp_servers', 'output_format', 'compaction', 'billing_policy', 'fallback_credit_token', 'fallbacks', 'thread'];
const MESSAGES_FIELDS_BETA = new Set([...MESSAGES_FIELDS, ...MESSAGES_BETA_FIELDS]);
const COUNT_FIELDS = new Set(SHARED_FIELDS);
const COUNT_FIELDS_BETA = new Set([...SHARED_FIELDS, 'context_management', 'mcp_servers', 'output_format']);
const METADATA_KEYS = new Set(['user_id']);
const OUTPUT_CONFIG_KEYS = new Set(['effort', 'format']);

function checkStopSequences(v: unknown): void {
  const items = list(v, 'stop_sequences');
  for (let i = 0; i < items.length; i++) {
    const s = str(items[i], at('stop_sequences', i));
    if (isBlank(s)) fail('stop_sequences', 'each stop sequence must contain non-whitespace characters');
  }
}

function checkMetadata(v: unknown): void {
  const m = obj(v, 'metadata');
  noExtra(m, METADATA_KEYS, 'metadata');
  if (m.user_id === undefined || m.user_id === null) return;
  const id = str(m.user_id, 'metadata.user_id');
  if (id.length > 256) fail('metadata.user_id', 'String should have at most 256 characters');
}

function checkOutputConfig(v: unknown): void {
  const o = obj(v, 'output_config');
  noExtra(o, OUTPUT_CONFIG_KEYS, 'output_config');
  if (o.effort !== undefined && o.effort !== null) literal(o.effort, 'output_config.effort', ['low', 'medium', 'high', 'xhigh', 'max']);
  if (o.format !== undefined && o.format !== null) {
    const f = obj(o.format, 'output_config.format');
    literal(requireField(f, 'type', 'output_config.format'), 'output_config.format.type', ['json_schema']);
    obj(requireField(f, 'schema', 'output_config.format'), 'output_config.format.schema');
  }
}

/** Fields both endpoints share; returns what the later rules need. */
function checkShared(b: Json): { model: string; thinking: ThinkingFacts; toolNames: string[] } {
  const model = str(requireField(b, 'model', ''), 'model');
  if (b.system !== undefined) checkSystem(b.system);
  const toolNames = b.tools === undefined ? [] : checkTools(b.tools);
  if (b.tool_choice !== undefined) checkToolChoice(b.tool_choice, toolNames);
  const thinking = checkThinking(b.thinking);
  if (b.output_config !== undefined) checkOutputConfig(b.output_config);
  checkCacheControl(b.cache_control, 'cache_control');
  if (b.speed !== undefined && b.speed !== null) literal(b.speed, 'speed', ['standard', 'fast']);
  requireField(b, 'messages', '');
  return { model, thinking, toolNames };
}

function findModel(ctx: ValidationContext, id: string): ModelInfo {
  const model = ctx.models.find(id);
  if (!model) throw new RequestInvalid({ status: 404, type: 'not_found_error', message: `model: ${id}` });
  return model;
}

function checkMaxTokens(maxTokens: number, model: ModelInfo): void {
  const ceiling = model.max_tokens;
  if (typeof ceiling === 'number' && maxTokens > ceiling) {
    fail('max_tokens', `${maxTokens} > ${ceiling}, which is the maximum allowed number of output tokens for ${model.id}`);
  }
}

function run<T>(body: unknown, check: (b: Json) => ModelInfo): Validated<T> {
  try {
    const b = obj(body, '');
    const model = check(b);
    return { ok: true, value: b as unknown as T, model };
  } catch (e) {
    if (e instanceof RequestInvalid) return { ok: false, failure: e.failure };
    throw e;
  }
}

export function validateMessagesRequest(body: unknown, ctx: ValidationContext): Validated<MessagesRequest> {
  return run<MessagesRequest>(body, (b) => {
    noExtra(b, ctx.beta ? MESSAGES_FIELDS_BETA : MESSAGES_FIELDS, '');
    const maxTokens = range(int(requireField(b, 'max_tokens', ''), 'max_tokens'), 'max_tokens', 0, null);
    const shared = checkShared(b);
    if (b.stop_sequences !== undefined) checkStopSequences(b.stop_sequences);
    if (b.stream !== undefined) bool(b.stream, 'stream');
    if (b.metadata !== undefined) checkMetadata(b.metadata);
    if (b.service_tier !== undefined) literal(b.service_tier, 'service_tier', ['auto', 'standard_only']);
    if (b.inference_geo !== undefined && b.inference_geo !== null) str(b.inference_geo, 'inference_geo');
    const model = findModel(ctx, shared.model);
    checkMaxTokens(maxTokens, model);
    checkSampling(b, {
      maxTokens,
      thinking: shared.thinking,
      defaultSamplingOnly: takesOnlyDefaultSampling(model.id),
    });
    checkMessages(b.messages, shared.thinking.on);
    return model;
  });
}

export function validateCountTokensRequest(body: unknown, ctx: ValidationContext): Validated<CountTokensRequest> {
  return run<CountTokensRequest>(body, (b) => {
    noExtra(b, ctx.beta ? COUNT_FIELDS_BETA : COUNT_FIELDS, '');
    const shared = checkShared(b);
    const model = findModel(ctx, shared.model);
    checkSampling(b, { maxTokens: null, thinking: shared.thinking, defaultSamplingOnly: false });
    checkMessages(b.messages, shared.thinking.on);
    return model;
  });
}
