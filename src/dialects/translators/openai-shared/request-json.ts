// The provider request's JSON text, byte for byte what JSON.stringify writes, for less: Node 20's
// JSON.stringify walks every object generically (~1 µs for a two-turn request), while the
// translator's own objects (the request, its turns, their content blocks) have a few keys whose
// values are mostly strings. Those levels are written here; anything nested deeper (tool schemas,
// tool inputs, image sources, metadata) goes to JSON.stringify. bench/micro/chat-request.ts compares.
//
// Exact for plain data (what JSON.parse and the translator build): keys in JSON.stringify's order
// (for…in over an object with no inherited enumerables gives the same order), undefined members
// left out, items with no JSON form written as null, numbers as JSON.stringify writes them.
import { BoundedMemo } from '../../../lib/json/bounded-memo.js';
import { quoteJson } from '../../../lib/json/quote.js';
import type { MessagesRequest } from '../../anthropic/wire.js';
import type { ProviderRequest } from '../translator.js';
import type { TranslationWarning } from '../warnings.js';
import { isRecord } from '../../../lib/is-record.js';

export function stringifyMessagesRequest(request: MessagesRequest): string {
  return members(request as unknown as Record<string, unknown>, REQUEST_LISTS);
}

/** A translated Messages body as the provider request (inline, or serialised by a translation worker). */
export function messagesRequest(
  body: string | Buffer,
  model: string,
  decisions: { warnings: readonly TranslationWarning[]; stream: boolean; includeUsage: boolean },
): ProviderRequest & { ok: true } {
  return { ok: true, body, model, forwarded: false, warnings: decisions.warnings, stream: decisions.stream, includeUsage: decisions.includeUsage };
}

type ItemWriter = (value: unknown) => string | undefined;

/** The members whose arrays are written item by item here, and how: the rest go through `scalar`. */
interface Lists {
  readonly [key: string]: ItemWriter | undefined;
}

const block: ItemWriter = (value) => (isRecord(value) ? members(value, NO_LISTS) : JSON.stringify(value));
const turn: ItemWriter = (value) => (isRecord(value) ? members(value, TURN_LISTS) : JSON.stringify(value));
// Without a prototype: a member named `constructor` or `toString` must find nothing here.
const lists = (writers: Record<string, ItemWriter>): Lists => Object.assign(Object.create(null) as Lists, writers);
const NO_LISTS = lists({});
const TURN_LISTS = lists({ content: block });
const REQUEST_LISTS = lists({ messages: turn, system: block });

function members(o: Record<string, unknown>, lists: Lists): string {
  let out = '{';
  for (const key in o) {
    const value = o[key];
    const item = lists[key];
    const text = item !== undefined && Array.isArray(value) ? list(value, item) : scalar(value);
    if (text === undefined) continue;
    if (out.length > 1) out += ',';
    out += memberNames.get(key) + text;
  }
  return `${out}}`;
}

function list(items: unknown[], write: ItemWriter): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += ',';
    out += write(items[i]) ?? 'null';
  }
  return `${out}]`;
}

/** Strings and numbers directly; everything else (objects, arrays, booleans, null) by JSON.stringify. */
function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return quoteJson(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  return JSON.stringify(value);
}

/**
 * `"name":` for a member name. The translator's few names repeat on every request, so their text is
 * kept; the memo is bounded by bytes, so client-chosen names (a tool input's keys never get here)
 * cannot grow it.
 */
const memberNames = new BoundedMemo((key) => `${quoteJson(key)}:`);
