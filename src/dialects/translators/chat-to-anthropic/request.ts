// Chat-completions request → Messages request (docs/wire.md, as decided in
// docs/contract.md). Pure: the caller has parsed the JSON and resolved the catalogue model.

import type { ModelTraits } from '../../model-traits.js';
import type { MessagesRequest } from '../../anthropic/wire.js';
import type { TranslationWarning } from '../warnings.js';
import { warnIgnoredFields } from './ignored-fields.js';
import { InvalidRequest, expectRecord, fail, isAbsent, optionalBoolean, Warnings } from '../openai-shared/invalid.js';
import { isRecord } from '../../../lib/is-record.js';
import { convertMessages } from './messages.js';
import { mapMaxTokens, mapStop } from './sampling.js';
import { mapSampling, mapUser } from '../openai-shared/sampling.js';
import { ToolIdAllocator } from '../openai-shared/tool-ids.js';
import { mapTools } from './tools.js';
import { strictRefusal } from '../openai-shared/strict.js';

export type { TranslationWarning, WarningKind } from '../warnings.js';

export type RequestTranslation =
  | { ok: true; request: MessagesRequest; warnings: TranslationWarning[]; stream: boolean; includeUsage: boolean }
  | { ok: false; message: string; param: string | null };

export function translateChatRequest(
  body: unknown,
  model: ModelTraits,
  options: { strict: boolean },
): RequestTranslation {
  try {
    const t = translate(body, model);
    if (options.strict && t.warnings.length > 0) return strictRefusal(t.warnings);
    return t;
  } catch (e) {
    if (e instanceof InvalidRequest) return { ok: false, message: e.message, param: e.param };
    throw e;
  }
}

function translate(raw: unknown, model: ModelTraits): RequestTranslation & { ok: true } {
  if (!isRecord(raw)) fail(null, 'the request body must be a JSON object');
  const body = raw;
  if (!Array.isArray(body.messages) || body.messages.length === 0) fail('messages', 'messages must be a non-empty array');
  const warnings = new Warnings();
  warnIgnoredFields(body, warnings);
  if (!isAbsent(body.n) && body.n !== 1) warnings.add('n_reduced', 'n');
  const stream = optionalBoolean(body.stream, 'stream') ?? false;
  const includeUsage = streamIncludesUsage(body.stream_options);

  const request: MessagesRequest = {
    model: model.id,
    max_tokens: mapMaxTokens(body, model, warnings),
    messages: [],
    ...mapSampling(body, model, warnings),
  };
  const stop = mapStop(body.stop, warnings);
  if (stop) request.stop_sequences = stop;
  Object.assign(request, mapTools(body, warnings));
  const metadata = mapUser(body.user, warnings);
  if (metadata) request.metadata = metadata;

  const converted = convertMessages(body.messages, new ToolIdAllocator(warnings), warnings);
  request.messages = converted.messages;
  if (converted.system.length > 0) request.system = converted.system;
  if (stream) request.stream = true;
  return { ok: true, request, warnings: warnings.toList(), stream, includeUsage };
}

function streamIncludesUsage(raw: unknown): boolean {
  if (isAbsent(raw)) return false;
  const options = expectRecord(raw, 'stream_options');
  return optionalBoolean(options.include_usage, 'stream_options.include_usage') ?? false;
}
