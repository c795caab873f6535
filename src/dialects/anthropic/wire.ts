// Wire shapes of the provider's Messages API (see docs/wire.md).
// Typed once here; the simulator, the translators and the usage observers share them.

export type Role = 'user' | 'assistant';

export interface CacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

export interface TextBlockParam {
  type: 'text';
  text: string;
  cache_control?: CacheControl;
}

export type ImageSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string }
  | { type: 'file'; file_id: string };

export interface ImageBlockParam {
  type: 'image';
  source: ImageSource;
  cache_control?: CacheControl;
}

export interface DocumentBlockParam {
  type: 'document';
  source:
    | { type: 'base64'; media_type: 'application/pdf'; data: string }
    | { type: 'text'; media_type: 'text/plain'; data: string }
    | { type: 'url'; url: string }
    | { type: 'file'; file_id: string };
  title?: string;
  context?: string;
  cache_control?: CacheControl;
}

export interface ToolUseBlockParam {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
  cache_control?: CacheControl;
}

export interface ToolResultBlockParam {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | Array<TextBlockParam | ImageBlockParam | DocumentBlockParam>;
  is_error?: boolean;
  cache_control?: CacheControl;
}

export interface ThinkingBlockParam {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface RedactedThinkingBlockParam {
  type: 'redacted_thinking';
  data: string;
}

export type ContentBlockParam =
  | TextBlockParam
  | ImageBlockParam
  | DocumentBlockParam
  | ToolUseBlockParam
  | ToolResultBlockParam
  | ThinkingBlockParam
  | RedactedThinkingBlockParam;

export interface MessageParam {
  role: Role;
  content: string | ContentBlockParam[];
}

export interface ToolDefinition {
  name: string;
  description?: string;
  input_schema: { type: 'object'; [key: string]: unknown };
  type?: 'custom';
  cache_control?: CacheControl;
  strict?: boolean;
}

export type ToolChoice =
  | { type: 'auto'; disable_parallel_tool_use?: boolean }
  | { type: 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

export type ThinkingConfig =
  | { type: 'enabled'; budget_tokens: number; display?: 'summarized' | 'omitted' }
  | { type: 'disabled' }
  | { type: 'adaptive'; display?: 'summarized' | 'omitted' };

export interface MessagesRequest {
  model: string;
  max_tokens: number;
  messages: MessageParam[];
  system?: string | TextBlockParam[];
  stop_sequences?: string[];
  stream?: boolean;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  tools?: ToolDefinition[];
  tool_choice?: ToolChoice;
  metadata?: { user_id?: string };
  thinking?: ThinkingConfig;
  service_tier?: 'auto' | 'standard_only';
  output_config?: OutputConfig;
}

/** Structured output: the answer's text is JSON matching `format.schema`. */
export interface OutputConfig {
  format?: { type: 'json_schema'; schema: Record<string, unknown> };
}

export interface CountTokensRequest {
  model: string;
  messages: MessageParam[];
  system?: string | TextBlockParam[];
  tools?: ToolDefinition[];
  tool_choice?: ToolChoice;
  thinking?: ThinkingConfig;
}

// ---- responses ----

export interface TextBlock {
  type: 'text';
  text: string;
  citations?: unknown[] | null;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

/** Server-tool blocks and anything newer: carried, never interpreted. */
export interface OtherBlock {
  type: string;
  [key: string]: unknown;
}

export type ContentBlock = TextBlock | ToolUseBlock | ThinkingBlock | RedactedThinkingBlock;

export type StopReason =
  | 'end_turn'
  | 'max_tokens'
  | 'stop_sequence'
  | 'tool_use'
  | 'pause_turn'
  | 'refusal'
  | 'model_context_window_exceeded';

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation?: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number } | null;
  service_tier?: string | null;
  output_tokens_details?: { thinking_tokens?: number } | null;
}

export interface Message {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: Array<ContentBlock | OtherBlock>;
  stop_reason: StopReason | string | null;
  stop_sequence: string | null;
  usage: Usage;
}

// ---- streaming events (docs/wire.md, "Event order") ----

export interface MessageStartEvent {
  type: 'message_start';
  message: Message;
}

export interface ContentBlockStartEvent {
  type: 'content_block_start';
  index: number;
  content_block: ContentBlock | OtherBlock;
}

export type ContentDelta =
  | { type: 'text_delta'; text: string }
  | { type: 'input_json_delta'; partial_json: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'signature_delta'; signature: string }
  | { type: 'citations_delta'; citation: unknown };

export interface ContentBlockDeltaEvent {
  type: 'content_block_delta';
  index: number;
  delta: ContentDelta;
}

export interface ContentBlockStopEvent {
  type: 'content_block_stop';
  index: number;
}

/** Usage counts in message_delta are cumulative, not increments. */
export interface MessageDeltaEvent {
  type: 'message_delta';
  delta: { stop_reason: StopReason | string | null; stop_sequence: string | null };
  usage: Partial<Usage> & { output_tokens: number };
}

export interface MessageStopEvent {
  type: 'message_stop';
}

export interface PingEvent {
  type: 'ping';
}

export interface ErrorEvent {
  type: 'error';
  error: { type: string; message: string };
}

export type StreamEvent =
  | MessageStartEvent
  | ContentBlockStartEvent
  | ContentBlockDeltaEvent
  | ContentBlockStopEvent
  | MessageDeltaEvent
  | MessageStopEvent
  | PingEvent
  | ErrorEvent;

// ---- errors and models ----

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'billing_error'
  | 'permission_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'api_error'
  | 'timeout_error'
  | 'overloaded_error';

export interface ErrorResponse {
  type: 'error';
  error: { type: ErrorType | string; message: string };
  request_id?: string;
}

export interface ModelInfo {
  type: 'model';
  id: string;
  display_name: string;
  created_at: string;
  max_input_tokens?: number | null;
  max_tokens?: number | null;
  capabilities?: Record<string, unknown> | null;
}

export interface ModelsPage {
  data: ModelInfo[];
  has_more: boolean;
  first_id: string | null;
  last_id: string | null;
}
