// JSON string literals for text written by hand (the provider request body, the access line):
// exactly what JSON.stringify writes, without its generic walk for the common string that needs no escape.
import { BoundedMemo } from './bounded-memo.js';

/** What JSON.stringify would escape in a string; surrogates are left to it (it escapes lone ones). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

export function quoteJson(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/**
 * quoteJson for strings that repeat from request to request (model names, key ids, route names): each
 * literal is made once, after `prepare` (e.g. a secret scrub) ran on the raw value. The memo is bounded
 * by bytes (bounded-memo.ts), so client-chosen values (a misspelt model name) cannot grow it.
 */
export class QuotedCache {
  private readonly memo: BoundedMemo;

  constructor(prepare: (s: string) => string = (s) => s, maxBytes?: number) {
    this.memo = new BoundedMemo((s) => quoteJson(prepare(s)), maxBytes);
  }

  literal(s: string): string {
    return this.memo.get(s);
  }

  /** Bytes the cache holds (see BoundedMemo). */
  get bytes(): number {
    return this.memo.bytes;
  }
}
