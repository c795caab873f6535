// JSON string literals escaped unlike JSON.stringify, for the fast paths that splice the provider's literals.

/** A JSON string literal with every escape JSON allows used where it can be: \/, \uXXXX for all non-ASCII. */
export function escapeEverything(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i]!;
    if (ch === '/') out += '\\/';
    else if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c < 0x20 || c > 0x7e) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}
