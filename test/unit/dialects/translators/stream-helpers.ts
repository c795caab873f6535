// Runs provider SSE bytes through the chat stream stages: through the production Reframer chunk by
// chunk, or with the parser and translator joined by hand.
import { frameText } from '../../../../src/dialects/sse/frames.js';
import { SseParser } from '../../../../src/dialects/sse/parser.js';
import { Reframer } from '../../../../src/dialects/sse/reframer.js';
import { ChatStreamTranslator } from '../../../../src/dialects/translators/chat-to-anthropic/stream.js';
import { ReframedStream, type EventTranslator } from '../../../../src/dialects/translators/openai-shared/translated-answer.js';

export const CREATED = 1767225600;
export const MODEL = 'claude-sonnet-4-5';

export function translator(includeUsage = true): ChatStreamTranslator {
  return new ChatStreamTranslator({ created: CREATED, model: MODEL, includeUsage });
}

/** Parser → translator → frames, without streams; `end` false leaves the input unfinished. */
export function translateSync(chunks: Array<Buffer | string>, t = translator(), end = true): string {
  let out = '';
  const parser = new SseParser((ev) => {
    for (const f of t.map(ev)) out += frameText(f);
  });
  for (const c of chunks) parser.push(typeof c === 'string' ? Buffer.from(c) : c);
  parser.end();
  if (end) for (const f of t.end()) out += frameText(f);
  return out;
}

/**
 * What the gateway's stream answer writes (ReframedStream: the named-event reader, the deltas read in
 * place and written as bytes where the translator can), each chunk in turn; `end` false leaves it unfinished.
 */
export function translateRelayed(chunks: Array<Buffer | string>, t: EventTranslator = translator(), end = true): string {
  const stream = new ReframedStream({}, t);
  let out = '';
  for (const c of chunks) out += String(stream.chunk(typeof c === 'string' ? Buffer.from(c) : c));
  if (end) out += String(stream.end());
  return out;
}

/** What the stream relay writes: each chunk pushed through the production Reframer, then its end. */
export async function translatePiped(chunks: Buffer[], t = translator()): Promise<string> {
  const reframer = new Reframer(t);
  let out = '';
  for (const chunk of chunks) out += reframer.push(chunk);
  return out + reframer.end();
}

/** The JSON payloads of `data:` lines; `[DONE]` stays a string. */
export function dataPayloads(sse: string): unknown[] {
  return sse
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice(6))
    .map((d) => (d === '[DONE]' ? d : (JSON.parse(d) as unknown)));
}

/** One provider SSE event. */
export function sse(payload: Record<string, unknown>): string {
  return `event: ${String(payload.type)}\ndata: ${JSON.stringify(payload)}\n\n`;
}
