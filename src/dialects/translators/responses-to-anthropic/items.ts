// The output items of a response as JSON text, one writer per item type, shared by the whole answer
// and the stream (whose `response.output_item.done` events and final `response` carry the same
// items). Texts arrive as JSON string literals, quotes included: the stream splices the provider's
// already-escaped pieces without parsing them.
import { quoteJson } from '../../../lib/json/quote.js';
import type { ItemStatus } from '../../openai/responses-wire.js';
import type { ToolCallKind } from './tool-names.js';

export function messageItem(id: string, status: ItemStatus, textLiteral: string): string {
  return `{"id":${quoteJson(id)},"type":"message","status":"${status}","role":"assistant","content":[${outputTextPart(textLiteral, true)}]}`;
}

/** The output_text part; `logprobs` is on the finished part only, as the service writes it. */
export function outputTextPart(textLiteral: string, done: boolean): string {
  return `{"type":"output_text","annotations":[],${done ? '"logprobs":[],' : ''}"text":${textLiteral}}`;
}

/** A function or custom tool call; `payloadLiteral` is the arguments (function) or the input (custom). */
export function toolCallItem(id: string, status: ItemStatus, callId: string, tool: ToolCallKind, payloadLiteral: string): string {
  const head = `{"id":${quoteJson(id)},"type":"${tool.kind === 'custom' ? 'custom_tool_call' : 'function_call'}","status":"${status}","call_id":${quoteJson(callId)},"name":${quoteJson(tool.name)}`;
  if (tool.kind === 'custom') return `${head},"input":${payloadLiteral}}`;
  const namespace = tool.namespace === undefined ? '' : `,"namespace":${quoteJson(tool.namespace)}`;
  return `${head}${namespace},"arguments":${payloadLiteral}}`;
}

/** A reasoning item: the thinking text as its one summary (none when the provider showed none), the block carried whole. */
export function reasoningItem(id: string, textLiteral: string | null, encryptedContent: string): string {
  const summary = textLiteral === null ? '' : summaryPart(textLiteral);
  return `{"id":${quoteJson(id)},"type":"reasoning","summary":[${summary}],"encrypted_content":${quoteJson(encryptedContent)}}`;
}

export function summaryPart(textLiteral: string): string {
  return `{"type":"summary_text","text":${textLiteral}}`;
}

/** Ids of the response and its items, from the provider's message id (`msg_…`) and tool ids. */
export function responseIdOf(messageId: string): string {
  return `resp_${messageId.startsWith('msg_') ? messageId.slice(4) : messageId}`;
}

export function itemIdOf(kind: 'msg' | 'rs', responseId: string, outputIndex: number): string {
  return `${kind}_${responseId.slice(5)}_${outputIndex}`;
}

export function callItemIdOf(tool: ToolCallKind, callId: string): string {
  const base = callId.startsWith('toolu_') ? callId.slice(6) : callId;
  return `${tool.kind === 'custom' ? 'ctc' : 'fc'}_${base}`;
}
