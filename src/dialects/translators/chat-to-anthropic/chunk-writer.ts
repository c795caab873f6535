// Serialises chat.completion.chunk objects for one stream. Every chunk shares id, created and model,
// so the envelope is built once and each chunk is `head + delta + tail`: only the delta's strings go
// through JSON.stringify. bench/micro/chat-chunk.ts measured this against JSON.stringify of the whole
// chunk and fast-json-stringify with a schema; this was the fastest of the three.
//
// The content and reasoning chunks, one per provider delta, are the hot ones: their text before and
// after the string is built once too, so each is two concatenations of three pieces. Fewer pieces
// also make the string cheaper to flatten and encode when it is written out (bench/micro/chat-chunk.ts).

import type { CompletionUsage, FinishReason } from '../../openai/wire.js';

/** Closes a one-string delta object, then the rest of a chunk that is not the last: no finish reason yet. */
const CLOSE_DELTA_OPEN_TAIL = '},"logprobs":null,"finish_reason":null}]}';

export class ChunkWriter {
  private readonly head: string;
  private readonly envelope: string;
  /** `head` + the delta object up to its string value. */
  private readonly contentHead: string;
  private readonly reasoningHead: string;

  constructor(id: string, created: number, model: string) {
    this.envelope = `{"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${created},"model":${JSON.stringify(model)}`;
    this.head = `${this.envelope},"choices":[{"index":0,"delta":`;
    this.contentHead = `${this.head}{"content":`;
    this.reasoningHead = `${this.head}{"reasoning_content":`;
  }

  private chunk(delta: string, finish: FinishReason | null = null): string {
    return `${this.head}${delta},"logprobs":null,"finish_reason":${finish === null ? 'null' : `"${finish}"`}}]}`;
  }

  role(): string {
    return this.chunk('{"role":"assistant","content":""}');
  }

  content(text: string): string {
    return this.contentLiteral(JSON.stringify(text));
  }

  /** `literal` is a JSON string literal, quotes included (the provider's, spliced as it came). */
  contentLiteral(literal: string): string {
    return this.contentHead + literal + CLOSE_DELTA_OPEN_TAIL;
  }

  reasoning(text: string): string {
    return this.reasoningLiteral(JSON.stringify(text));
  }

  reasoningLiteral(literal: string): string {
    return this.reasoningHead + literal + CLOSE_DELTA_OPEN_TAIL;
  }

  toolStart(index: number, id: string, name: string): string {
    return this.chunk(
      `{"tool_calls":[{"index":${index},"id":${JSON.stringify(id)},"type":"function","function":{"name":${JSON.stringify(name)},"arguments":""}}]}`,
    );
  }

  toolArguments(index: number, piece: string): string {
    return this.toolArgumentsLiteral(index, JSON.stringify(piece));
  }

  toolArgumentsLiteral(index: number, literal: string): string {
    return this.chunk(`{"tool_calls":[{"index":${index},"function":{"arguments":${literal}}}]}`);
  }

  finish(reason: FinishReason): string {
    return this.chunk('{}', reason);
  }

  usage(usage: CompletionUsage): string {
    return `${this.envelope},"choices":[],"usage":${JSON.stringify(usage)}}`;
  }
}
