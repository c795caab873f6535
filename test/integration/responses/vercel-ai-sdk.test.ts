// The Vercel AI SDK's OpenAI Responses model (ai + @ai-sdk/openai, `openai.responses(...)`) against the
// Responses surface, by base URL alone.
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import t from 'tap';
import { startHarness } from '../../helpers/harness.js';

t.test('Vercel AI SDK, Responses model', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const openai = createOpenAI({ baseURL: `${h.url}/gateway/openai/v1`, apiKey: key });
  const model = openai.responses('claude-sonnet-4-6');

  t.test('generateText', async (t) => {
    const result = await generateText({ model, prompt: 'Hello from the AI SDK', maxRetries: 0 });
    t.match(result.text, /Hello from the AI SDK/);
    t.equal(result.finishReason, 'stop');
    t.ok((result.usage.outputTokens ?? 0) > 0);
  });

  t.test('streamText with usage', async (t) => {
    const result = streamText({ model, prompt: 'Stream from the AI SDK', maxRetries: 0 });
    let text = '';
    for await (const part of result.textStream) text += part;
    t.match(text, /Stream from the AI SDK/);
    const usage = await result.usage;
    t.ok((usage.outputTokens ?? 0) > 0, 'usage arrives with response.completed');
    t.equal(await result.finishReason, 'stop');
  });

  t.test('tools with a multi-step round trip, streamed', async (t) => {
    let calledWith: unknown = null;
    const result = streamText({
      model,
      maxRetries: 0,
      // The SDK's default (store: true) sends its earlier items back as item_reference ids, which only a
      // service that stores responses can resolve; the gateway stores none and refuses them (400).
      providerOptions: { openai: { store: false } },
      prompt: 'What is the weather in Paris?',
      tools: {
        get_weather: tool({
          description: 'Weather for a city',
          inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
          execute: async (input) => {
            calledWith = input;
            return { forecast: 'sunny' };
          },
        }),
      },
      stopWhen: stepCountIs(3),
    });
    const steps = await result.steps;
    t.same(calledWith, { city: 'example' }, 'the tool ran with the arguments the model produced');
    t.ok(steps.length >= 2, 'a second step followed the tool result');
    t.equal(await result.finishReason, 'stop');
    t.match(await result.text, /The tool returned/);
  });

  t.test('the SDK default (store: true) refers to earlier items: a clear 400 naming the item', async (t) => {
    const result = await generateText({
      model,
      maxRetries: 0,
      prompt: 'What is the weather in Paris?',
      tools: { get_weather: tool({ inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } } }), execute: async () => 'sunny' }) },
      stopWhen: stepCountIs(2),
    }).catch((e: unknown) => e as { statusCode?: number; responseBody?: string });
    const err = result as { statusCode?: number; responseBody?: string };
    t.equal(err.statusCode, 400);
    t.match(JSON.parse(err.responseBody ?? '{}'), { error: { type: 'invalid_request_error', param: /^input\[\d+\]\.type$/, message: /item references/ } });
  });
});
