// Responses request → Messages request (docs/wire.md, "Responses surface"). Pure: the caller has
// parsed the JSON and resolved the catalogue model. The gateway keeps no state: `store: true` is
// answered as if false (with a warning), and a request that needs a stored response or conversation
// is refused, naming the parameter.

import type { ModelTraits } from '../../model-traits.js';
import type { MessagesRequest } from '../../anthropic/wire.js';
import type { TranslationWarning } from '../warnings.js';
import { safeDetail } from '../warnings.js';
import { expectString, fail, InvalidRequest, isAbsent, optionalBoolean, optionalInteger, Warnings } from '../openai-shared/invalid.js';
import { capOutputTokens, mapSampling, mapUser } from '../openai-shared/sampling.js';
import { strictRefusal } from '../openai-shared/strict.js';
import { ToolIdAllocator } from '../openai-shared/tool-ids.js';
import { isRecord } from '../../../lib/is-record.js';
import { convertInput } from './input.js';
import { applyReasoning } from './reasoning.js';
import { mapTextFormat } from './text-format.js';
import { mapTools } from './tools.js';

export type ResponsesRequestTranslation =
  | { ok: true; request: MessagesRequest; warnings: TranslationWarning[]; stream: boolean; sessionKey: string | null }
  | { ok: false; message: string; param: string | null; code?: 'unsupported_parameter' };

/** Parameters that name state kept by the service: the gateway keeps none. */
const STATEFUL = ['previous_response_id', 'conversation'] as const;

/** Fields the translation maps (or reads) itself. */
const MAPPED = new Set([
  'model', 'input', 'instructions', 'max_output_tokens', 'temperature', 'top_p', 'stream', 'tools', 'tool_choice',
  'parallel_tool_calls', 'reasoning', 'text', 'metadata', 'prompt_cache_key', 'include', 'store', 'user',
  'safety_identifier', ...STATEFUL,
]);

/** Values equal to the format's own default, or with no effect on the answer: ignoring them changes nothing. */
const NO_EFFECT: Record<string, (v: unknown) => boolean> = {
  truncation: (v) => v === 'disabled',
  background: (v) => v === false,
  service_tier: (v) => v === 'auto' || v === 'default',
  top_logprobs: (v) => v === 0,
  // Only how the stream's deltas are padded on the wire.
  stream_options: () => true,
  prompt_cache_retention: () => true,
};

/** `include` values honoured: the reasoning items always carry their content. */
const INCLUDED = new Set(['reasoning.encrypted_content']);

export function translateResponsesRequest(body: unknown, model: ModelTraits, options: { strict: boolean; sessionHeader?: string }): ResponsesRequestTranslation {
  try {
    const t = translate(body, model, options.sessionHeader);
    if (options.strict && t.warnings.length > 0) return strictRefusal(t.warnings);
    return t;
  } catch (e) {
    if (e instanceof Stateless) return { ok: false, message: e.message, param: e.param, code: 'unsupported_parameter' };
    if (e instanceof InvalidRequest) return { ok: false, message: e.message, param: e.param };
    throw e;
  }
}

function translate(raw: unknown, model: ModelTraits, sessionHeader: string | undefined): ResponsesRequestTranslation & { ok: true } {
  if (!isRecord(raw)) fail(null, 'the request body must be a JSON object');
  const body = raw;
  for (const name of STATEFUL) {
    if (!isAbsent(body[name])) throw new Stateless(name);
  }
  if (isAbsent(body.input)) fail('input', 'input is required');
  const warnings = new Warnings();
  warnIgnoredFields(body, warnings);
  const stream = optionalBoolean(body.stream, 'stream') ?? false;
  if (optionalBoolean(body.store, 'store') === true) warnings.add('field_ignored', 'store');
  warnInclude(body.include, warnings);

  const request: MessagesRequest = {
    model: model.id,
    max_tokens: capOutputTokens(optionalInteger(body.max_output_tokens, 'max_output_tokens', 1), 'max_output_tokens', model, warnings),
    messages: [],
    ...mapSampling(body, model, warnings),
  };
  Object.assign(request, mapTools(body, warnings));
  applyReasoning(body.reasoning, request, warnings);
  const format = mapTextFormat(body.text, model, warnings);
  if (format) request.output_config = { format };
  const metadata = isAbsent(body.safety_identifier) ? mapUser(body.user, warnings) : mapUser(body.safety_identifier, warnings, 'safety_identifier');
  if (metadata) request.metadata = metadata;

  const converted = convertInput(body.instructions, body.input, new ToolIdAllocator(warnings), warnings);
  request.messages = converted.messages;
  if (converted.system.length > 0) request.system = converted.system;
  if (stream) request.stream = true;
  return { ok: true, request, warnings: warnings.toList(), stream, sessionKey: sessionKeyOf(body.prompt_cache_key, sessionHeader) };
}

/** A stateful parameter: refused with its own code, so a client can tell it from a malformed value. */
class Stateless extends InvalidRequest {
  constructor(name: string) {
    super(name, `${name} is not supported: this gateway keeps no responses or conversations; send the whole conversation in input`);
  }
}

function warnIgnoredFields(body: Record<string, unknown>, warnings: Warnings): void {
  for (const key of Object.keys(body)) {
    if (MAPPED.has(key)) continue;
    const v = body[key];
    if (isAbsent(v) || (Object.hasOwn(NO_EFFECT, key) && NO_EFFECT[key]!(v))) continue;
    warnings.add('field_ignored', safeDetail(key));
  }
}

function warnInclude(raw: unknown, warnings: Warnings): void {
  if (isAbsent(raw)) return;
  if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'string')) fail('include', 'include must be an array of strings');
  if (raw.some((v) => !INCLUDED.has(v as string))) warnings.add('field_ignored', 'include');
}

/** `prompt_cache_key` names the conversation; without it, the `session-id` header may. */
function sessionKeyOf(raw: unknown, header: string | undefined): string | null {
  if (typeof raw === 'string' && raw !== '') return raw;
  if (!isAbsent(raw)) expectString(raw, 'prompt_cache_key'); // a value of another type: the 400 names it
  return header !== undefined && header !== '' ? header : null;
}
