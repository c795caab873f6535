// Word-level text helpers of the reply generator. One token is one word with its leading space.

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12;
}

/** The first `n` whitespace-separated words of `text`, without scanning the rest of a long prompt. */
export function firstWords(text: string, n: number): string[] {
  const out: string[] = [];
  let i = 0;
  while (out.length < n && i < text.length) {
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    const start = i;
    while (i < text.length && !isSpace(text.charCodeAt(i))) i++;
    if (i > start) out.push(text.slice(start, i));
  }
  return out;
}

/** Words → tokens: every word but the first carries its leading space. */
export function toTokens(words: readonly string[]): string[] {
  return words.map((w, i) => (i === 0 ? w : ' ' + w));
}

const FILLER = ['and', 'that', 'is', 'all', 'there', 'is', 'to', 'say', 'about', 'it', 'for', 'now'];

/** `lead` words padded with filler to exactly `n` words (or cut to `n`). */
export function padWords(lead: readonly string[], n: number): string[] {
  const out = lead.slice(0, n);
  for (let i = 0; out.length < n; i++) out.push(FILLER[i % FILLER.length]);
  return out;
}

export interface TextCut {
  /** The streamed pieces; joined they are the block's text. */
  deltas: string[];
  /** Tokens the model spent, including a matched stop sequence. */
  consumed: number;
  stop: 'stop_sequence' | 'max_tokens' | null;
  stopSequence: string | null;
}

/** Keeps the first `chars` characters of the tokens, cutting the last one if needed. */
function keepChars(tokens: readonly string[], chars: number): string[] {
  const out: string[] = [];
  let len = 0;
  for (const tok of tokens) {
    if (len >= chars) break;
    const piece = len + tok.length <= chars ? tok : tok.slice(0, chars - len);
    if (piece !== '') out.push(piece);
    len += tok.length;
  }
  return out;
}

/**
 * Applies stop sequences and the token budget to a text the model "would" write: the earliest
 * stop sequence that completes within the budget ends the text just before it.
 */
export function cutText(tokens: readonly string[], stops: readonly string[], budget: number): TextCut {
  const full = tokens.join('');
  let at = -1;
  let seq: string | null = null;
  for (const s of stops) {
    const p = full.indexOf(s);
    if (p >= 0 && (at < 0 || p < at)) {
      at = p;
      seq = s;
    }
  }
  if (seq !== null) {
    const end = at + seq.length;
    let needed = 0;
    for (let len = 0; len < end; needed++) len += tokens[needed].length;
    if (needed <= budget) return { deltas: keepChars(tokens, at), consumed: needed, stop: 'stop_sequence', stopSequence: seq };
  }
  if (tokens.length > budget) return { deltas: tokens.slice(0, budget), consumed: budget, stop: 'max_tokens', stopSequence: null };
  return { deltas: [...tokens], consumed: tokens.length, stop: null, stopSequence: null };
}
