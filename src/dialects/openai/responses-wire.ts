// Wire shapes of the OpenAI Responses format the gateway writes (docs/wire.md, "Responses surface").
// Requests have no type here: they are read as unknown JSON and checked field by field
// (src/dialects/translators/responses-to-anthropic).

export interface OutputText {
  type: 'output_text';
  text: string;
  annotations: unknown[];
  logprobs: unknown[];
}

export interface OutputMessage {
  id: string;
  type: 'message';
  status: ItemStatus;
  role: 'assistant';
  content: OutputText[];
}

export interface FunctionCallItem {
  id: string;
  type: 'function_call';
  status: ItemStatus;
  call_id: string;
  name: string;
  /** Codex's `namespace` tools: the namespace the function belongs to. */
  namespace?: string;
  arguments: string;
}

export interface CustomToolCallItem {
  id: string;
  type: 'custom_tool_call';
  status: ItemStatus;
  call_id: string;
  name: string;
  input: string;
}

export interface ReasoningItem {
  id: string;
  type: 'reasoning';
  summary: Array<{ type: 'summary_text'; text: string }>;
  /** The provider's thinking block, carried opaquely so that it comes back unchanged (translators/responses-to-anthropic/thinking-carrier.ts). */
  encrypted_content: string;
}

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

export type OutputItem = OutputMessage | FunctionCallItem | CustomToolCallItem | ReasoningItem;

export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export type ResponseStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';

export interface ResponseObject {
  id: string;
  object: 'response';
  created_at: number;
  status: ResponseStatus;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
  model: string;
  output: OutputItem[];
  usage: ResponsesUsage | null;
  [echoed: string]: unknown;
}
