// Control characters in names an operator reads in a terminal (finding N6: a key name carrying an escape
// sequence reached `keys list` and could rewrite the operator's screen). Names are refused with them at
// creation; text tables show any that older rows carry escaped.

/** C0 controls (tab and line breaks included), DEL, C1 controls, and the bidirectional overrides and isolates. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const CONTROL_ALL = new RegExp(CONTROL.source, 'g');

export function hasControlChars(text: string): boolean {
  return CONTROL.test(text);
}

/** Each control character as a visible escape: ESC → `\x1b`, U+202E → `\u202e`. */
export function escapeControlChars(text: string): string {
  if (!CONTROL.test(text)) return text;
  return text.replace(CONTROL_ALL, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
