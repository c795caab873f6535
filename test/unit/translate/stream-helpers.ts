// Runs provider SSE bytes through the chat stream stages: as real Transform streams, or synchronously.
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { frameText } from '../../../src/sse/frames.js';
import { MapStream } from '../../../src/sse/map-stream.js';
import { SseParseStream } from '../../../src/sse/parse-stream.js';
import { SseParser } from '../../../src/sse/parser.js';
import { SseSerializeStream } from '../../../src/sse/serialize-stream.js';
import { ChatStreamTranslator } from '../../../src/translate/chat-to-messages/stream.js';

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

/** The real stages joined with stream.pipeline. */
export async function translatePiped(chunks: Buffer[], t = translator()): Promise<string> {
  const out: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      out.push(chunk);
      done();
    },
  });
  await pipeline(Readable.from(chunks.filter((c) => c.length > 0)), new SseParseStream(), new MapStream(t), new SseSerializeStream(), sink);
  return Buffer.concat(out).toString('utf8');
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
