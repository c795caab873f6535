// The work a translation worker does for a large chat body, in two steps so the main thread keeps
// every decision (auth, model permission, limits) and never parses or serialises the large body:
//   head: parse and check the body; return its small top-level fields, with the message count;
//   translate: parse again, translate for the resolved model, serialise the provider body to bytes.
// Pure functions over bytes: they run the same inline and on a worker thread.
import type { CatalogModel } from '../../catalog/model.js';
import { translateChatRequest } from '../../dialects/translators/chat-to-anthropic/request.js';
import { stringifyMessagesRequest } from '../../dialects/translators/openai-shared/request-json.js';
import type { TranslationWarning } from '../../dialects/translators/chat-to-anthropic/request.js';
import { parseJsonObject } from '../../lib/json/json-object.js';

export type HeadResult =
  | {
      ok: true;
      /** Top-level fields, with the large arrays (`messages`, `tools`) left out. */
      head: Record<string, unknown>;
      /** Lengths of the left-out arrays, so count limits still apply. */
      lengths: Record<string, number>;
    }
  | { ok: false; message: string; param?: string };

export type TranslateResult =
  | { ok: true; body: Uint8Array; warnings: TranslationWarning[]; stream: boolean; includeUsage: boolean }
  | { ok: false; message: string; param: string | null };

export type WorkerTask =
  | { kind: 'head'; body: Uint8Array; maxDepth: number }
  | { kind: 'translate'; body: Uint8Array; model: CatalogModel; strict: boolean };

const LARGE_FIELDS = ['messages', 'tools'];

export function bodyHead(body: Uint8Array, maxDepth: number): HeadResult {
  const parsed = parseJsonObject(body, maxDepth);
  if (!parsed.ok) return parsed;
  const head: Record<string, unknown> = {};
  const lengths: Record<string, number> = {};
  for (const name of Object.keys(parsed.value)) {
    const value = parsed.value[name];
    if (LARGE_FIELDS.includes(name) && Array.isArray(value)) lengths[name] = value.length;
    else head[name] = value;
  }
  return { ok: true, head, lengths };
}

/** The head as the pre-translation stages read it: the large arrays stand in as empty arrays of their length. */
export function headAsBody(result: HeadResult & { ok: true }): Record<string, unknown> {
  const body = { ...result.head };
  for (const name in result.lengths) body[name] = new Array<unknown>(result.lengths[name]);
  return body;
}

export function translateBody(body: Uint8Array, model: CatalogModel, strict: boolean): TranslateResult {
  // Depth was checked by bodyHead on the same bytes.
  const parsed = parseJsonObject(body, null);
  if (!parsed.ok) return { ok: false, message: parsed.message, param: null };
  const t = translateChatRequest(parsed.value, model, { strict });
  if (!t.ok) return t;
  return { ok: true, body: Buffer.from(stringifyMessagesRequest(t.request)), warnings: t.warnings, stream: t.stream, includeUsage: t.includeUsage };
}

export function runTask(task: WorkerTask): HeadResult | TranslateResult {
  return task.kind === 'head' ? bodyHead(task.body, task.maxDepth) : translateBody(task.body, task.model, task.strict);
}
