// chat.completion → JSON text by a serialiser compiled from the wire shape (src/dialects/openai/wire.ts): the
// one fixed, hot response shape of the chat surface. A field missing from this schema would be
// dropped silently, so the tests compare it with JSON.stringify on every shape the translation makes.
import fastJson, { type ObjectSchema } from 'fast-json-stringify';
import type { ChatCompletion, CompletionUsage } from '../../openai/wire.js';

const nullableString = { type: ['string', 'null'] } as const;
const integer = { type: 'integer' } as const;
const string = { type: 'string' } as const;

const CHAT_USAGE_SCHEMA: ObjectSchema = {
  type: 'object',
  required: ['prompt_tokens', 'completion_tokens', 'total_tokens'],
  properties: {
    prompt_tokens: integer,
    completion_tokens: integer,
    total_tokens: integer,
    prompt_tokens_details: { type: 'object', required: ['cached_tokens'], properties: { cached_tokens: integer, cache_write_tokens: integer } },
    completion_tokens_details: { type: 'object', required: ['reasoning_tokens'], properties: { reasoning_tokens: integer } },
  },
};

/** The usage object alone, byte for byte as inside stringifyCompletion (fast-completion.ts splices it). */
export const stringifyChatUsage: (usage: CompletionUsage) => string = fastJson(CHAT_USAGE_SCHEMA);

export const stringifyCompletion: (completion: ChatCompletion) => string = fastJson({
  type: 'object',
  required: ['id', 'object', 'created', 'model', 'choices', 'usage'],
  properties: {
    id: string,
    object: string,
    created: integer,
    model: string,
    choices: {
      type: 'array',
      items: {
        type: 'object',
        required: ['index', 'message', 'logprobs', 'finish_reason'],
        properties: {
          index: integer,
          message: {
            type: 'object',
            required: ['role', 'content', 'refusal'],
            properties: {
              role: string,
              content: nullableString,
              refusal: nullableString,
              tool_calls: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['id', 'type', 'function'],
                  properties: {
                    id: string,
                    type: string,
                    function: { type: 'object', required: ['name', 'arguments'], properties: { name: string, arguments: string } },
                  },
                },
              },
              reasoning_content: string,
            },
          },
          logprobs: { type: 'null' },
          finish_reason: nullableString,
        },
      },
    },
    usage: CHAT_USAGE_SCHEMA,
  },
});
