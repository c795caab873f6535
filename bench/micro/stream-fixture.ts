// A provider stream as the upstream sends it: message_start, a ping, one text block of `tokens`
// deltas, the closing events. Built from the typed wire shapes, cut into fixed-size network chunks;
// and an agent's turn as the bench's simulator writes it.
import type { MessagesRequest, StreamEvent } from '../../src/dialects/anthropic/wire.js';
import { generateReply } from '../../src/apps/simulator/reply/generate.js';
import { toFrames } from '../../src/apps/simulator/reply/render.js';
import { randomId } from '../../src/apps/simulator/ids.js';
import { AGENT_TURN_CHUNK_BYTES, agentTurnMessagesBody } from '../scenarios.js';

export interface StreamFixture {
  events: number;
  bytes: Buffer;
  /** The same bytes in `chunkBytes` pieces: lines split across chunks, as on a real socket. */
  chunks: Buffer[];
}

const WORDS = ['The', ' gateway', ' forwards', ' each', ' request', ' and', ' counts', ' the', ' tokens', ' it', ' sees', '.'];

export function providerStream(tokens: number, chunkBytes = 1400): StreamFixture {
  const events: StreamEvent[] = [
    {
      type: 'message_start',
      message: {
        id: 'msg_01BenchBenchBenchBenchBench',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-6',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 25, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'ping' },
  ];
  for (let i = 0; i < tokens; i++) events.push({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: WORDS[i % WORDS.length]! } });
  events.push({ type: 'content_block_stop', index: 0 });
  events.push({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: tokens } } as StreamEvent);
  events.push({ type: 'message_stop' });
  const text = events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
  const bytes = Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunkBytes) chunks.push(bytes.subarray(i, i + chunkBytes));
  return { events: events.length, bytes, chunks };
}

/**
 * The simulator's answer to the bench's agent turn (a short text, then a shell command as ~265
 * tool-argument deltas), made by the simulator's own reply code, in the chunks the bench's
 * `agent-turn` scenarios have it write: whole events gathered until a chunk holds `chunkBytes`, as
 * the simulator's unpaced `writeStream` sends them (one write a turn of its event loop).
 */
export function agentTurnStream(chunkBytes = AGENT_TURN_CHUNK_BYTES): StreamFixture {
  const reply = generateReply(agentTurnMessagesBody() as unknown as MessagesRequest, { replyTokens: 200 }, randomId);
  const frames = toFrames(reply, 'msg_01BenchBenchBenchBenchBench', 'claude-sonnet-4-6');
  const chunks: Buffer[] = [];
  let gathered = '';
  for (const frame of frames) {
    gathered += frame.text;
    if (Buffer.byteLength(gathered) < chunkBytes) continue;
    chunks.push(Buffer.from(gathered, 'utf8'));
    gathered = '';
  }
  if (gathered !== '') chunks.push(Buffer.from(gathered, 'utf8'));
  return { events: frames.length, bytes: Buffer.concat(chunks), chunks };
}
