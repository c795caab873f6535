// Wire shapes of the chat-completions format (see ../shared/protocol.md §3).

export interface TextPart {
  type: 'text';
  text: string;
}

export interface ImageUrlPart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}

export interface InputAudioPart {
  type: 'input_audio';
  input_audio: { data: string; format: string };
}

export interface FilePart {
  type: 'file';
  file: { file_data?: string; file_id?: string; filename?: string };
}

export interface RefusalPart {
  type: 'refusal';
  refusal: string;
}

export type UserContentPart = TextPart | ImageUrlPart | InputAudioPart | FilePart;

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface SystemMessage {
  role: 'system' | 'developer';
  content: string | TextPart[];
  name?: string;
}

export interface UserMessage {
  role: 'user';
  content: string | UserContentPart[];
  name?: string;
}

export interface AssistantMessage {
  role: 'assistant';
  content?: string | Array<TextPart | RefusalPart> | null;
  refusal?: string | null;
  name?: string;
  tool_calls?: ToolCall[];
  /** Non-standard (DeepSeek convention): reasoning text; accepted on input and ignored. */
  reasoning_content?: string | null;
}

export interface ToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string | TextPart[];
}

export interface FunctionMessage {
  role: 'function';
  name: string;
  content: string | null;
}

export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage | FunctionMessage;

export interface FunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean | null };
}

export type ChatToolChoice =
  | 'none'
  | 'auto'
  | 'required'
  | { type: 'function'; function: { name: string } };

export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  stop?: string | string[] | null;
  stream?: boolean | null;
  stream_options?: { include_usage?: boolean; include_obfuscation?: boolean } | null;
  tools?: FunctionTool[];
  tool_choice?: ChatToolChoice;
  parallel_tool_calls?: boolean;
  // accepted and ignored (interface.md): logprobs, top_logprobs, n, response_format, presence_penalty,
  // frequency_penalty, seed, user, logit_bias, and anything else
  [ignored: string]: unknown;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

export interface CompletionUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number; cache_write_tokens?: number };
  completion_tokens_details?: { reasoning_tokens: number };
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    message: {
      role: 'assistant';
      content: string | null;
      refusal: string | null;
      tool_calls?: ToolCall[];
      reasoning_content?: string;
    };
    logprobs: null;
    finish_reason: FinishReason;
  }>;
  usage: CompletionUsage;
}

export interface ChunkToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
}

export interface ChunkDelta {
  role?: 'assistant';
  content?: string | null;
  reasoning_content?: string;
  tool_calls?: ChunkToolCallDelta[];
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    delta: ChunkDelta;
    logprobs: null;
    finish_reason: FinishReason | null;
  }>;
  usage?: CompletionUsage | null;
}

export interface ChatErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export interface ModelList {
  object: 'list';
  data: Array<{ id: string; object: 'model'; created: number; owned_by: string }>;
}
