// Messages response → Responses `response` object (docs/wire.md, "Responses surface"): each text
// block a `message` item, each tool_use a `function_call` (or `custom_tool_call`) item whose `call_id`
// is the provider's tool id, each thinking block a `reasoning` item carrying it whole; server-tool
// blocks have no Responses equivalent and are left out.

import type { TokenUsage } from '../../../metering/token-usage.js';
import { quoteJson } from '../../../lib/json/quote.js';
import { isRecord } from '../../../lib/is-record.js';
import type { TranslationWarning } from '../warnings.js';
import { thinkingTokensOf } from '../openai-shared/thinking-tokens.js';
import { emptyUsage, usageOf } from '../../../metering/token-usage.js';
import type { ResponseEnvelope } from './envelope.js';
import { callItemIdOf, itemIdOf, messageItem, reasoningItem, toolCallItem } from './items.js';
import { outcomeOf, responsesUsageFrom } from './outcome.js';
import { encodeThinking } from './thinking-carrier.js';
import type { ToolNames } from './tool-names.js';
import { CUSTOM_INPUT } from './tool-names.js';

export interface TranslatedResponse {
  body: string;
  usage: TokenUsage | null;
  warnings: TranslationWarning[];
}

/** `message` is the provider's parsed answer, read defensively; `envelope` carries the response id. */
export function translateMessageToResponse(message: Record<string, unknown>, envelope: ResponseEnvelope, tools: ToolNames): TranslatedResponse {
  const items: string[] = [];
  for (const block of Array.isArray(message.content) ? message.content : []) {
    if (!isRecord(block)) continue;
    const item = itemOf(block, items.length, envelope.id, tools);
    if (item !== null) items.push(item);
  }
  const outcome = outcomeOf(typeof message.stop_reason === 'string' ? message.stop_reason : null);
  const warnings: TranslationWarning[] = outcome.unknown ? [{ kind: 'finish_reason_unknown', detail: 'stop_reason' }] : [];
  const usage = usageOf(message.usage);
  const reasoning = isRecord(message.usage) ? thinkingTokensOf(message.usage) : undefined;
  const usageJson = JSON.stringify(responsesUsageFrom(usage ?? emptyUsage(), reasoning));
  return { body: envelope.json(outcome.status, 'null', outcome.incompleteJson, `[${items.join(',')}]`, usageJson), usage, warnings };
}

function itemOf(block: Record<string, unknown>, index: number, responseId: string, tools: ToolNames): string | null {
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? messageItem(itemIdOf('msg', responseId, index), 'completed', quoteJson(block.text)) : null;
    case 'thinking': {
      if (typeof block.thinking !== 'string' || typeof block.signature !== 'string') return null;
      const carried = encodeThinking({ type: 'thinking', thinking: block.thinking, signature: block.signature });
      return reasoningItem(itemIdOf('rs', responseId, index), block.thinking === '' ? null : quoteJson(block.thinking), carried);
    }
    case 'redacted_thinking':
      return typeof block.data === 'string' ? reasoningItem(itemIdOf('rs', responseId, index), null, encodeThinking({ type: 'redacted_thinking', data: block.data })) : null;
    case 'tool_use': {
      const callId = String(block.id);
      const tool = tools.of(String(block.name));
      const input = isRecord(block.input) ? block.input : {};
      const payload = tool.kind === 'custom' ? customInput(input) : JSON.stringify(input);
      return toolCallItem(callItemIdOf(tool, callId), 'completed', callId, tool, quoteJson(payload));
    }
    default:
      return null; // server_tool_use and server-tool results: run by the provider, not the client's
  }
}

/** A custom tool's one string; an input the model wrote otherwise is given as its JSON. */
export function customInput(input: Record<string, unknown>): string {
  const value = input[CUSTOM_INPUT];
  return typeof value === 'string' ? value : JSON.stringify(input);
}
