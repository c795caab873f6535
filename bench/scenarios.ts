// The load scenarios. Each names what the gateway receives and the equivalent provider request that
// the simulator (directly) and the pass-through receive, so the three targets do the same upstream work.
// Chat scenarios derive their provider request from the gateway's own translation, so they cannot drift.
import { DEFAULT_MODELS } from '../src/catalog/model.js';
import { translateChatRequest } from '../src/dialects/translators/chat-to-anthropic/request.js';
import { translateResponsesRequest } from '../src/dialects/translators/responses-to-anthropic/request.js';
import type { SimulatorSettings } from './ipc.js';

export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** How to spot the first token in a stream: the provider's events, chat chunks or Responses events. */
export type StreamShape = 'messages' | 'chat' | 'responses';

export interface Scenario {
  readonly name: string;
  readonly description: string;
  /** Status every answer must have. */
  readonly expectStatus: number;
  /** Set for streamed scenarios: the gateway's stream shape (direct and pass-through speak 'messages'). */
  readonly stream: StreamShape | null;
  /** The surface: decides which throughput target applies. */
  readonly surface: 'messages' | 'chat' | 'responses';
  readonly direct: RequestSpec;
  readonly gateway: RequestSpec;
  /** Fixed requests per second instead of as many as the target answers (below saturation). */
  readonly rate?: number;
  /** A second load mixed in (the 1 MiB bodies): its own requests, connections and rate. */
  readonly mixIn?: { readonly direct: RequestSpec; readonly gateway: RequestSpec; readonly connections: number; readonly rate: number };
  /** The simulator sends its streams in chunks of about this many bytes, one a turn (default: back-to-back 16 KiB writes). */
  readonly streamChunkBytes?: number;
}

/** The simulator as every scenario without settings of its own finds it. */
export const DEFAULT_SIMULATOR_SETTINGS: SimulatorSettings = { streamChunkBytes: null };

/** What the simulator is set to while a scenario runs (the bench, tools/ab.ts and tools/instructions.ts alike). */
export function simulatorSettingsOf(scenario: Scenario): SimulatorSettings {
  return { streamChunkBytes: scenario.streamChunkBytes ?? null };
}

export interface ScenarioKeys {
  gatewayKey: string;
  upstreamKey: string;
}

export const MODEL = 'claude-sonnet-4-6';
const VERSION = '2023-06-01';
const STREAM_TOKENS = 200;
const SHORT_TOKENS = 16;
/**
 * An agent's turn arrives as the provider flushes it, a few events a chunk: the simulator's ~280
 * events (5 text deltas, ~265 tool-argument deltas, ~38 KB) in chunks of ~1.25 KiB make about 30.
 */
export const AGENT_TURN_CHUNK_BYTES = 1280;

type Json = Record<string, unknown>;

export function buildScenarios(keys: ScenarioKeys): Scenario[] {
  const upstreamHeaders = { 'content-type': 'application/json', 'x-api-key': keys.upstreamKey, 'anthropic-version': VERSION };
  const messagesHeaders = { 'content-type': 'application/json', authorization: `Bearer ${keys.gatewayKey}`, 'anthropic-version': VERSION };
  const chatHeaders = { 'content-type': 'application/json', authorization: `Bearer ${keys.gatewayKey}` };
  const upstream = (body: Json, headers = upstreamHeaders): RequestSpec => ({ method: 'POST', path: '/v1/messages', headers, body: JSON.stringify(body) });
  const messages = (body: Json): RequestSpec => ({ method: 'POST', path: '/gateway/v1/messages', headers: messagesHeaders, body: JSON.stringify(body) });
  const chat = (body: Json, headers = chatHeaders): RequestSpec => ({
    method: 'POST',
    path: '/gateway/openai/v1/chat/completions',
    headers,
    body: JSON.stringify(body),
  });

  const responses = (body: Json): RequestSpec => ({ method: 'POST', path: '/gateway/openai/v1/responses', headers: chatHeaders, body: JSON.stringify(body) });

  const smallMessages = messagesBody(SHORT_TOKENS, false);
  const smallChat = chatBody(SHORT_TOKENS, false);
  const bigChat = largeChatBody(1024 * 1024);
  const wrongKey = 'mgw_benchbench_wrongwrongwrongwrongwrongwrongwrongwrong';
  return [
    {
      name: 'messages',
      description: 'messages surface, non-streamed, 16 output tokens (~200-byte body)',
      expectStatus: 200,
      stream: null,
      surface: 'messages',
      direct: upstream(smallMessages),
      gateway: messages(smallMessages),
    },
    {
      name: 'messages-stream',
      description: `messages surface, streamed, ${STREAM_TOKENS} output tokens`,
      expectStatus: 200,
      stream: 'messages',
      surface: 'messages',
      direct: upstream(messagesBody(STREAM_TOKENS, true)),
      gateway: messages(messagesBody(STREAM_TOKENS, true)),
    },
    {
      name: 'chat',
      description: 'chat surface, non-streamed, 16 output tokens: request and response translated',
      expectStatus: 200,
      stream: null,
      surface: 'chat',
      direct: upstream(translated(smallChat)),
      gateway: chat(smallChat),
    },
    {
      name: 'chat-stream',
      description: `chat surface, streamed, ${STREAM_TOKENS} output tokens: every event re-framed as a chunk`,
      expectStatus: 200,
      stream: 'chat',
      surface: 'chat',
      direct: upstream(translated(chatBody(STREAM_TOKENS, true))),
      gateway: chat(chatBody(STREAM_TOKENS, true)),
    },
    {
      name: 'responses',
      description: 'Responses surface, non-streamed, 16 output tokens: the same conversation as chat, request and response translated',
      expectStatus: 200,
      stream: null,
      surface: 'responses',
      direct: upstream(translatedResponses(responsesBody(SHORT_TOKENS, false))),
      gateway: responses(responsesBody(SHORT_TOKENS, false)),
    },
    {
      name: 'responses-stream',
      description: `Responses surface, streamed, ${STREAM_TOKENS} output tokens: every event re-framed as a Responses event`,
      expectStatus: 200,
      stream: 'responses',
      surface: 'responses',
      direct: upstream(translatedResponses(responsesBody(STREAM_TOKENS, true))),
      gateway: responses(responsesBody(STREAM_TOKENS, true)),
    },
    {
      name: 'agent-turn',
      description: 'messages surface, streamed, an agent\'s turn: a short text, then a ~2,000-character shell command as ~250 tool-argument deltas, in ~1.25 KiB chunks (~30)',
      expectStatus: 200,
      stream: 'messages',
      surface: 'messages',
      direct: upstream(agentTurnMessagesBody()),
      gateway: messages(agentTurnMessagesBody()),
      streamChunkBytes: AGENT_TURN_CHUNK_BYTES,
    },
    {
      name: 'chat-agent-turn',
      description: 'chat surface, streamed, the same agent turn: every text and tool-argument delta re-framed as a chunk',
      expectStatus: 200,
      stream: 'chat',
      surface: 'chat',
      direct: upstream(translated(agentTurnChatBody())),
      gateway: chat(agentTurnChatBody()),
      streamChunkBytes: AGENT_TURN_CHUNK_BYTES,
    },
    {
      name: 'chat-tools',
      description: 'chat surface with two tool definitions; the reply is a tool call',
      expectStatus: 200,
      stream: null,
      surface: 'chat',
      direct: upstream(translated(chatToolsBody())),
      gateway: chat(chatToolsBody()),
    },
    {
      name: 'auth-rejected',
      description: 'chat surface with an unknown key: 401 (the provider rejects a wrong x-api-key for the other two)',
      expectStatus: 401,
      stream: null,
      surface: 'chat',
      direct: upstream(translated(smallChat), { ...upstreamHeaders, 'x-api-key': 'sk-wrong-key' }),
      gateway: chat(smallChat, { ...chatHeaders, authorization: `Bearer ${wrongKey}` }),
    },
    {
      name: 'chat-1mib-mix',
      description: 'small chat requests at 400/s with 1 MiB chat bodies (200 turns) at 8/s alongside: fixed rates below saturation, so the event-loop delay shows blocking, not a busy machine',
      expectStatus: 200,
      stream: null,
      surface: 'chat',
      direct: upstream(translated(smallChat)),
      gateway: chat(smallChat),
      rate: 400,
      mixIn: { direct: upstream(translated(bigChat)), gateway: chat(bigChat), connections: 2, rate: 8 },
    },
  ];
}

function messagesBody(maxTokens: number, stream: boolean): Json {
  return {
    model: MODEL,
    max_tokens: maxTokens,
    ...(stream ? { stream: true } : {}),
    messages: [{ role: 'user', content: 'Write a short greeting for the release notes of a gateway.' }],
  };
}

function chatBody(maxTokens: number, stream: boolean): Json {
  return {
    model: MODEL,
    max_tokens: maxTokens,
    ...(stream ? { stream: true } : {}),
    messages: [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Write a short greeting for the release notes of a gateway.' },
    ],
  };
}

/** chatBody's conversation in the Responses format. */
function responsesBody(maxTokens: number, stream: boolean): Json {
  return {
    model: MODEL,
    max_output_tokens: maxTokens,
    ...(stream ? { stream: true } : {}),
    instructions: 'You are terse.',
    input: [{ role: 'user', content: 'Write a short greeting for the release notes of a gateway.' }],
  };
}

/**
 * A coding agent's command: one line (the simulator's `run:` marker reads to the line's end) of the
 * edits and checks an agent chains, quotes and all, so its JSON carries escapes as real ones do.
 */
function agentCommand(): string {
  const steps: string[] = [];
  for (let i = 1; steps.join(' && ').length < 1900; i++) {
    steps.push(`sed -i 's/"timeout": 30/"timeout": 60/' services/svc-${i}/config.json`, `grep -n "retry(" src/clients/client-${i}.ts`);
  }
  return `cd /srv/app && ${steps.join(' && ')} && npm test -- --grep "retries"`;
}

const BASH_DESCRIPTION = 'Run a shell command in the repository and return what it printed.';
const COMMAND_SCHEMA = { type: 'object', properties: { command: { type: 'string', description: 'The command line' } }, required: ['command'] };

/** The turn that asks for the command: the simulator answers with a short text and the shell tool's call. */
export function agentTurnMessagesBody(): Json {
  return {
    model: MODEL,
    max_tokens: 1024,
    stream: true,
    tools: [{ name: 'bash', description: BASH_DESCRIPTION, input_schema: COMMAND_SCHEMA }],
    messages: [{ role: 'user', content: `Apply the timeout change. run: ${agentCommand()}` }],
  };
}

function agentTurnChatBody(): Json {
  return {
    model: MODEL,
    max_tokens: 1024,
    stream: true,
    tools: [{ type: 'function', function: { name: 'bash', description: BASH_DESCRIPTION, parameters: COMMAND_SCHEMA } }],
    messages: [{ role: 'user', content: `Apply the timeout change. run: ${agentCommand()}` }],
  };
}

function chatToolsBody(): Json {
  const tool = (name: string, description: string) => ({
    type: 'function',
    function: {
      name,
      description,
      parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } }, required: ['city'] },
    },
  });
  return {
    model: MODEL,
    max_tokens: 64,
    tool_choice: 'auto',
    tools: [tool('get_weather', 'Current weather in a city'), tool('get_time', 'Local time in a city')],
    messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
  };
}

/** A long conversation of about `bytes` bytes: many turns, as a coding agent sends them. */
export function largeChatBody(bytes: number): Json {
  const turns = 200;
  const filler = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor ';
  const text = filler.repeat(Math.ceil(bytes / turns / filler.length)).slice(0, Math.floor(bytes / turns) - 40);
  const messages = [{ role: 'system', content: 'You review code.' }];
  for (let i = 0; i < turns; i++) messages.push({ role: i % 2 === 0 ? 'user' : 'assistant', content: `${i}: ${text}` });
  messages.push({ role: 'user', content: 'Summarise.' });
  return { model: MODEL, max_tokens: SHORT_TOKENS, messages };
}

/** The provider request the gateway itself would send for a chat body. */
function translated(body: Json): Json {
  const model = DEFAULT_MODELS.find((m) => m.id === MODEL)!;
  const result = translateChatRequest(body, model, { strict: false });
  if (!result.ok) throw new Error(`bench scenario does not translate: ${result.message}`);
  return result.request as unknown as Json;
}

/** The provider request the gateway itself would send for a Responses body. */
function translatedResponses(body: Json): Json {
  const model = DEFAULT_MODELS.find((m) => m.id === MODEL)!;
  const result = translateResponsesRequest(body, model, { strict: false });
  if (!result.ok) throw new Error(`bench scenario does not translate: ${result.message}`);
  return result.request as unknown as Json;
}
