// Small type checks that fail with the provider's validation messages (pydantic style:
// `<dotted.path>: <reason>`). A check throws RequestInvalid at the first problem; the entry
// points in request.ts turn it into a result, so the happy path allocates nothing extra.
import type { ApiFailure } from '../types.js';
import { isRecord } from '../../../lib/is-record.js';

export type Json = Record<string, unknown>;

export class RequestInvalid extends Error {
  constructor(readonly failure: ApiFailure) {
    super(failure.message);
  }
}

/** Joins a location and a key: at('messages', 0) → 'messages.0'; at('', 'model') → 'model'. */
export function at(loc: string, key: string | number): string {
  return loc === '' ? String(key) : `${loc}.${key}`;
}

export function fail(loc: string, reason: string): never {
  throw new RequestInvalid({
    status: 400,
    type: 'invalid_request_error',
    message: loc === '' ? reason : `${loc}: ${reason}`,
  });
}


export function obj(v: unknown, loc: string): Json {
  if (!isRecord(v)) fail(loc, 'Input should be a valid dictionary');
  return v;
}

export function str(v: unknown, loc: string): string {
  if (typeof v !== 'string') fail(loc, 'Input should be a valid string');
  return v;
}

export function bool(v: unknown, loc: string): boolean {
  if (typeof v !== 'boolean') fail(loc, 'Input should be a valid boolean');
  return v;
}

export function num(v: unknown, loc: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(loc, 'Input should be a valid number');
  return v;
}

export function int(v: unknown, loc: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(loc, 'Input should be a valid integer');
  if (!Number.isInteger(v)) fail(loc, 'Input should be a valid integer, got a number with a fractional part');
  return v;
}

export function list(v: unknown, loc: string): unknown[] {
  if (!Array.isArray(v)) fail(loc, 'Input should be a valid list');
  return v;
}

export function range(v: number, loc: string, min: number | null, max: number | null): number {
  if (min !== null && v < min) fail(loc, `Input should be greater than or equal to ${min}`);
  if (max !== null && v > max) fail(loc, `Input should be less than or equal to ${max}`);
  return v;
}

/** Pydantic's wording for a literal: 'a', 'b' or 'c'. */
export function describeLiterals(allowed: readonly string[]): string {
  const quoted = allowed.map((a) => `'${a}'`);
  if (quoted.length === 1) return quoted[0];
  return `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

export function literal<T extends string>(v: unknown, loc: string, allowed: readonly T[]): T {
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    fail(loc, `Input should be ${describeLiterals(allowed)}`);
  }
  return v as T;
}

export function requireField(o: Json, key: string, loc: string): unknown {
  const v = o[key];
  if (v === undefined) fail(at(loc, key), 'Field required');
  return v;
}

/** Rejects keys outside `allowed`, the provider's strict schemas do the same. */
export function noExtra(o: Json, allowed: ReadonlySet<string>, loc: string): void {
  for (const key in o) {
    if (!allowed.has(key)) fail(at(loc, key), 'Extra inputs are not permitted');
  }
}

/** Reads the `type` tag of a discriminated union member and checks it is one of `tags`. */
export function tag<T extends string>(o: Json, loc: string, tags: readonly T[]): T {
  const t = o.type;
  if (typeof t !== 'string') fail(loc, "Unable to extract tag using discriminator 'type'");
  if (!(tags as readonly string[]).includes(t)) {
    fail(loc, `Input tag '${t}' found using 'type' does not match any of the expected tags: ${tags.map((x) => `'${x}'`).join(', ')}`);
  }
  return t as T;
}

function isIdChar(c: number): boolean {
  return (
    (c >= 48 && c <= 57) || // 0-9
    (c >= 65 && c <= 90) || // A-Z
    (c >= 97 && c <= 122) || // a-z
    c === 95 || // _
    c === 45 // -
  );
}

/** `^[a-zA-Z0-9_-]{1,max}$` without a regex: names and ids are checked on every request. */
export function isIdentifier(s: string, max: number): boolean {
  if (s.length < 1 || s.length > max) return false;
  for (let i = 0; i < s.length; i++) if (!isIdChar(s.charCodeAt(i))) return false;
  return true;
}

export function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13 && c !== 11 && c !== 12) return false;
  }
  return true;
}

function isBase64Char(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47;
}

/** Standard base64 with padding, as the provider requires for image data. */
export function isBase64(s: string): boolean {
  if (s.length === 0 || s.length % 4 !== 0) return false;
  let end = s.length;
  if (s.charCodeAt(end - 1) === 61) end--;
  if (s.charCodeAt(end - 1) === 61) end--;
  if (s.length - end > 2) return false;
  for (let i = 0; i < end; i++) if (!isBase64Char(s.charCodeAt(i))) return false;
  return true;
}
