// Input checks for the client's JSON. A failed check throws InvalidRequest, which
// translateChatRequest turns into `{ ok: false, message, param }`; nothing else is thrown.

import type { TranslationWarning, WarningKind } from '../warnings.js';
import { isRecord } from '../../../lib/is-record.js';

export class InvalidRequest extends Error {
  constructor(
    readonly param: string | null,
    message: string,
  ) {
    super(message);
    this.name = 'InvalidRequest';
  }
}

export function fail(param: string | null, message: string): never {
  throw new InvalidRequest(param, message);
}


/** Absent or JSON null: both mean "not given" in the chat format. */
export function isAbsent(v: unknown): v is null | undefined {
  return v === undefined || v === null;
}

export function isBlank(s: string): boolean {
  return s.trim().length === 0;
}

export function expectString(v: unknown, param: string): string {
  if (typeof v !== 'string') fail(param, `${param} must be a string`);
  return v;
}

export function expectRecord(v: unknown, param: string): Record<string, unknown> {
  if (!isRecord(v)) fail(param, `${param} must be an object`);
  return v;
}

export function expectArray(v: unknown, param: string): unknown[] {
  if (!Array.isArray(v)) fail(param, `${param} must be an array`);
  return v;
}

/** Optional boolean: absent/null → undefined, other non-booleans → 400. */
export function optionalBoolean(v: unknown, param: string): boolean | undefined {
  if (isAbsent(v)) return undefined;
  if (typeof v !== 'boolean') fail(param, `${param} must be a boolean`);
  return v;
}

/** Optional number within [min, max]: absent/null → undefined. */
export function optionalNumberInRange(v: unknown, param: string, min: number, max: number): number | undefined {
  if (isAbsent(v)) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(param, `${param} must be a number`);
  if (v < min || v > max) fail(param, `${param} must be between ${min} and ${max}, got ${v}`);
  return v;
}

/** Optional integer ≥ min: absent/null → undefined. */
export function optionalInteger(v: unknown, param: string, min: number): number | undefined {
  if (isAbsent(v)) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) fail(param, `${param} must be an integer`);
  if (v < min) fail(param, `${param} must be at least ${min}, got ${v}`);
  return v;
}

/**
 * The warnings of one translation, in the order the changes were made. They end up in a response
 * header, so each kind is listed a bounded number of times; the rest are counted in one `<n>_more`
 * entry. Ignored fields get more room: naming each one is the point of that warning.
 */
export class Warnings {
  private static limit(kind: WarningKind): number {
    return kind === 'field_ignored' ? 16 : 4;
  }

  private readonly listed: TranslationWarning[] = [];
  private readonly perKind = new Map<WarningKind, number>();

  add(kind: WarningKind, detail: string): void {
    const n = (this.perKind.get(kind) ?? 0) + 1;
    this.perKind.set(kind, n);
    if (n <= Warnings.limit(kind)) this.listed.push({ kind, detail });
  }

  toList(): TranslationWarning[] {
    const out = this.listed.slice();
    for (const [kind, n] of this.perKind) {
      const limit = Warnings.limit(kind);
      if (n > limit) out.push({ kind, detail: `${n - limit}_more` });
    }
    return out;
  }
}
