// The Vercel AI SDK (ai + @ai-sdk/openai-compatible) against the chat-completions surface.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import t from 'tap';
import { startHarness } from '../../helpers/harness.js';

t.test('Vercel AI SDK', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const gateway = createOpenAICompatible({ name: 'model-gateway', baseURL: `${h.url}/gateway/openai/v1`, apiKey: key, includeUsage: true });
  const model = gateway('claude-sonnet-4-6');

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
    t.ok((usage.outputTokens ?? 0) > 0, 'usage arrives on the stream (include_usage)');
  });

  t.test('tools with a multi-step round trip', async (t) => {
    let calledWith: unknown = null;
    const result = await generateText({
      model,
      maxRetries: 0,
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
    t.same(calledWith, { city: 'example' }, 'the tool ran with the arguments the model produced');
    t.ok(result.steps.length >= 2, 'a second step followed the tool result');
    t.equal(result.finishReason, 'stop');
  });
});
