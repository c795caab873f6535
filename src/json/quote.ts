// JSON string literals for text written by hand (the provider request body, the access line):
// exactly what JSON.stringify writes, without its generic walk for the common string that needs no escape.

/** What JSON.stringify would escape in a string; surrogates are left to it (it escapes lone ones). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

export function quoteJson(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/**
 * quoteJson for strings that repeat from request to request (model names, key ids, route names): each
 * literal is made once, after `prepare` (e.g. a secret scrub) ran on the raw value. The bound keeps
 * client-chosen values (a misspelt model name) from growing it; beyond it values are quoted each time.
 */
export class QuotedCache {
  private readonly literals = new Map<string, string>();

  constructor(
    private readonly prepare: (s: string) => string = (s) => s,
    private readonly maxEntries = 256,
  ) {}

  literal(s: string): string {
    let text = this.literals.get(s);
    if (text === undefined) {
      text = quoteJson(this.prepare(s));
      if (this.literals.size < this.maxEntries) this.literals.set(s, text);
    }
    return text;
  }
}
