// Wire shapes of the chat-completions format the gateway writes (see docs/wire.md, "Chat chunks"). Requests
// have no type here: they are read as unknown JSON and checked field by field (src/dialects/translators/chat-to-anthropic).

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
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
