// Messages response → chat.completion (protocol.md §4.4; thinking → reasoning_content per interface.md).

import { emptyUsage, mergeProviderUsage } from '../../metering/token-usage.js';
import type { Message, ToolUseBlock } from '../../wire/anthropic.js';
import type { ChatCompletion, ToolCall } from '../../wire/openai.js';
import type { TranslationWarning } from '../warnings.js';
import { mapFinishReason } from './finish-reason.js';
import { chatUsageFrom, thinkingTokensOf } from './usage.js';

export { mapFinishReason } from './finish-reason.js';
export { chatUsageFrom } from './usage.js';

export function translateMessageToCompletion(
  msg: Message,
  ctx: { created: number; model: string },
): { completion: ChatCompletion; warnings: TranslationWarning[] } {
  const texts: string[] = [];
  const thinking: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const block of msg.content ?? []) {
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    else if (block.type === 'thinking' && typeof block.thinking === 'string') thinking.push(block.thinking);
    else if (block.type === 'tool_use') toolCalls.push(toolCallOf(block as ToolUseBlock));
    // server_tool_use, redacted_thinking and server-tool results have no chat equivalent.
  }
  const message: ChatCompletion['choices'][number]['message'] = {
    role: 'assistant',
    content: texts.length > 0 ? texts.join('') : null,
    refusal: null,
  };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (thinking.length > 0) message.reasoning_content = thinking.join('');

  const finish = mapFinishReason(msg.stop_reason ?? null);
  const warnings: TranslationWarning[] = finish.unknown ? [{ kind: 'finish_reason_unknown', detail: 'stop_reason' }] : [];
  const usage = emptyUsage();
  if (msg.usage) mergeProviderUsage(usage, msg.usage);
  const completion: ChatCompletion = {
    id: `chatcmpl-${msg.id}`,
    object: 'chat.completion',
    created: ctx.created,
    model: ctx.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finish.reason }],
    usage: chatUsageFrom(usage, msg.usage ? thinkingTokensOf(msg.usage) : undefined),
  };
  return { completion, warnings };
}

function toolCallOf(block: ToolUseBlock): ToolCall {
  return { id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } };
}
