// Messages response → chat.completion (docs/wire.md: "Stop reasons", "Tool calls", "Thinking").

import type { TokenUsage } from '../../../metering/token-usage.js';
import type { Message } from '../../anthropic/wire.js';
import type { ChatCompletion, ToolCall } from '../../openai/wire.js';
import type { TranslationWarning } from '../warnings.js';
import { mapFinishReason } from '../openai-shared/finish-reason.js';
import { isRecord } from '../../../lib/is-record.js';
import { answerUsages } from './usage.js';

export { mapFinishReason } from '../openai-shared/finish-reason.js';
export { chatUsageFrom } from './usage.js';

export function translateMessageToCompletion(
  msg: Message,
  ctx: { created: number; model: string },
): { completion: ChatCompletion; warnings: TranslationWarning[]; usage: TokenUsage | null } {
  const texts: string[] = [];
  const thinking: string[] = [];
  const toolCalls: ToolCall[] = [];
  // The body is the provider's JSON, cast by the caller: read it defensively.
  for (const block of Array.isArray(msg.content) ? msg.content : []) {
    if (!isRecord(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    else if (block.type === 'thinking' && typeof block.thinking === 'string') thinking.push(block.thinking);
    else if (block.type === 'tool_use') toolCalls.push(toolCallOf(block));
    // server_tool_use, redacted_thinking and server-tool results have no chat equivalent.
  }
  const message: ChatCompletion['choices'][number]['message'] = {
    role: 'assistant',
    content: texts.length > 0 ? texts.join('') : null,
    refusal: null,
  };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (thinking.length > 0) message.reasoning_content = thinking.join('');

  const finish = mapFinishReason(typeof msg.stop_reason === 'string' ? msg.stop_reason : null);
  const warnings: TranslationWarning[] = finish.unknown ? [{ kind: 'finish_reason_unknown', detail: 'stop_reason' }] : [];
  const usage = answerUsages(msg.usage);
  const completion: ChatCompletion = {
    id: `chatcmpl-${msg.id}`,
    object: 'chat.completion',
    created: ctx.created,
    model: ctx.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finish.reason }],
    usage: usage.chat,
  };
  return { completion, warnings, usage: usage.tokens };
}

function toolCallOf(block: Record<string, unknown>): ToolCall {
  return { id: String(block.id), type: 'function', function: { name: String(block.name), arguments: JSON.stringify(block.input ?? {}) } };
}
