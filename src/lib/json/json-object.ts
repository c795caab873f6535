// A request body as a JSON object, or the reason it is not one. Pure, so the same check runs on the
// main thread and on a translation worker. Keys such as __proto__ stay plain data: JSON.parse defines
// own properties and never walks the prototype chain.
import { displayedMemberName, duplicateMember } from './duplicate-members.js';
import { exceedsJsonDepth } from './json-depth.js';

export type JsonObjectResult = { ok: true; value: Record<string, unknown> } | { ok: false; message: string; param?: string };

/** `maxDepth` null: depth and duplicate members were already checked on the same bytes (the worker's second parse). */
export function parseJsonObject(body: Uint8Array | null, maxDepth: number | null): JsonObjectResult {
  if (body === null || body.length === 0) return { ok: false, message: 'The request body is empty; a JSON object is required.' };
  // A worker gets a plain Uint8Array; the main thread's body is already a Buffer.
  const bytes = body instanceof Buffer ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const text = bytes.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, message: 'The request body is not valid JSON.' };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { ok: false, message: 'The request body must be a JSON object.' };
  if (maxDepth === null) return { ok: true, value: parsed as Record<string, unknown> };
  if (exceedsJsonDepth(parsed, maxDepth)) return { ok: false, message: `The request body is nested deeper than ${maxDepth} levels.` };
  const twice = duplicateMember(text, Object.keys(parsed).length);
  if (twice === null) return { ok: true, value: parsed as Record<string, unknown> };
  const shown = displayedMemberName(twice);
  return { ok: false, message: `${shown}: the request body names this member more than once.`, param: shown };
}
