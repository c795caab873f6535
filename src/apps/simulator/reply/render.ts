// A generated Reply written out as the provider does: one Message object, or the SSE event
// sequence of docs/wire.md ("Event order") with every frame serialised up front (one res.write each).
import type { ContentBlock, ContentDelta, Message, StreamEvent, Usage } from '../../../dialects/anthropic/wire.js';
import type { Reply, ReplyBlock } from './generate.js';

export function usageOf(reply: Reply, outputTokens: number): Usage {
  const { input } = reply;
  return {
    input_tokens: input.input,
    cache_creation_input_tokens: input.cacheWrite,
    cache_read_input_tokens: input.cacheRead,
    cache_creation: {
      ephemeral_5m_input_tokens: input.cacheWrite - input.cacheWrite1h,
      ephemeral_1h_input_tokens: input.cacheWrite1h,
    },
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
}

function finalBlock(b: ReplyBlock): ContentBlock {
  switch (b.type) {
    case 'text':
      return { type: 'text', text: b.deltas.join('') };
    case 'thinking':
      return { type: 'thinking', thinking: b.deltas.join(''), signature: b.signature };
    case 'tool_use':
      return { type: 'tool_use', id: b.id, name: b.name, input: b.input };
  }
}

export function toMessage(reply: Reply, id: string, model: string): Message {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content: reply.blocks.map(finalBlock),
    stop_reason: reply.stopReason,
    stop_sequence: reply.stopSequence,
    usage: usageOf(reply, reply.outputTokens),
  };
}

/** One serialised SSE frame, its event's type and JSON (for wires that frame events otherwise), and how many output tokens it carries (for pacing). */
export interface SseFrame {
  text: string;
  type: StreamEvent['type'];
  data: string;
  tokens: number;
}

function sseFrame(type: StreamEvent['type'], data: string, tokens: number): SseFrame {
  return { text: `event: ${type}\ndata: ${data}\n\n`, type, data, tokens };
}

export function frame(event: StreamEvent, tokens = 0): SseFrame {
  return sseFrame(event.type, JSON.stringify(event), tokens);
}

function startBlock(b: ReplyBlock): ContentBlock {
  switch (b.type) {
    case 'text':
      return { type: 'text', text: '' };
    case 'thinking':
      return { type: 'thinking', thinking: '', signature: '' };
    case 'tool_use':
      return { type: 'tool_use', id: b.id, name: b.name, input: {} };
  }
}

type DeltaType = ContentDelta['type'];
type DeltaField = 'text' | 'thinking' | 'signature' | 'partial_json';

/**
 * Deltas are most of a stream's frames: built from a fixed template and one JSON-escaped string,
 * the same bytes JSON.stringify gives for the whole event, at a fraction of the cost.
 */
function deltaFrame(index: number, type: DeltaType, field: DeltaField, value: string, tokens: number): SseFrame {
  return sseFrame('content_block_delta', `{"type":"content_block_delta","index":${index},"delta":{"type":"${type}","${field}":${JSON.stringify(value)}}}`, tokens);
}

function blockFrames(b: ReplyBlock, index: number, out: SseFrame[]): void {
  if (b.type === 'text') {
    for (const text of b.deltas) out.push(deltaFrame(index, 'text_delta', 'text', text, 1));
  } else if (b.type === 'thinking') {
    for (const thinking of b.deltas) out.push(deltaFrame(index, 'thinking_delta', 'thinking', thinking, 1));
    out.push(deltaFrame(index, 'signature_delta', 'signature', b.signature, 0));
  } else {
    out.push(deltaFrame(index, 'input_json_delta', 'partial_json', '', 0));
    for (const piece of b.pieces) out.push(deltaFrame(index, 'input_json_delta', 'partial_json', piece, 1));
    // A tool call cut by max_tokens ends without content_block_stop, as the provider's does.
    if (!b.complete) return;
  }
  out.push(frame({ type: 'content_block_stop', index }));
}

export function toFrames(reply: Reply, id: string, model: string): SseFrame[] {
  const start = toMessage(reply, id, model);
  start.content = [];
  start.stop_reason = null;
  start.stop_sequence = null;
  start.usage = usageOf(reply, Math.min(1, reply.outputTokens));
  const out: SseFrame[] = [frame({ type: 'message_start', message: start })];
  reply.blocks.forEach((b, index) => {
    out.push(frame({ type: 'content_block_start', index, content_block: startBlock(b) }));
    if (index === 0) out.push(frame({ type: 'ping' }));
    blockFrames(b, index, out);
  });
  if (reply.blocks.length === 0) out.push(frame({ type: 'ping' }));
  const { cache_creation: _omit, service_tier: _tier, ...usage } = usageOf(reply, reply.outputTokens);
  out.push(frame({ type: 'message_delta', delta: { stop_reason: reply.stopReason, stop_sequence: reply.stopSequence }, usage }));
  out.push(frame({ type: 'message_stop' }));
  return out;
}
