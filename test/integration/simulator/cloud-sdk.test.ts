// The official Bedrock and Vertex AI clients against the simulator: if the SDKs are happy (signing,
// paths, bodies, the event stream, errors), the simulator plays those clouds faithfully.
// AnthropicBedrock signs with its own Signature V4; AnthropicVertex gets its token through a
// google-auth-library client holding a token the simulator's token endpoint issued (its own Google
// libraries would ask Google for one), obtained by the gateway's token source from a key file.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { RateLimitError, APIError } from '@anthropic-ai/sdk';
import { AnthropicBedrock } from '@anthropic-ai/bedrock-sdk';
import { AnthropicVertex } from '@anthropic-ai/vertex-sdk';
import { OAuth2Client } from 'google-auth-library';
import { generateServiceAccount, startSimulator, writeServiceAccountFile, type Simulator } from '../../../src/apps/simulator/index.js';
import { readServiceAccountFile } from '../../../src/providers/vertex/service-account.js';
import { VertexTokenSource } from '../../../src/providers/vertex/token-source.js';

const KEYS = { accessKeyId: 'AKIASDKTEST00001', secretAccessKey: 'sdk/test/secret' };
const sa = generateServiceAccount({ projectId: 'sdk-project' });
const WEATHER = {
  name: 'get_weather',
  description: 'Weather for a city',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
};
const ASK = [{ role: 'user' as const, content: 'Hello simulator' }];

let sim: Simulator;
let dir: string;
let bedrock: AnthropicBedrock;
let vertex: AnthropicVertex;
let tokens: VertexTokenSource;

t.before(async () => {
  sim = await startSimulator({
    bedrock: [{ id: 'bedrock', region: 'us-east-1', ...KEYS }],
    vertex: [{ id: 'vertex', clientEmail: sa.clientEmail, publicKey: sa.publicKeyPem, project: 'sdk-project' }],
  });
  dir = await mkdtemp(join(tmpdir(), 'cloud-sdk-'));
  await writeServiceAccountFile(join(dir, 'sa.json'), sa, sim.tokenUrl);
  tokens = VertexTokenSource.forAccount(await readServiceAccountFile(join(dir, 'sa.json')));
  const auth = new OAuth2Client();
  auth.setCredentials({ access_token: await tokens.token(), expiry_date: Date.now() + 30 * 60_000 });
  bedrock = new AnthropicBedrock({ awsAccessKey: KEYS.accessKeyId, awsSecretKey: KEYS.secretAccessKey, awsRegion: 'us-east-1', baseURL: sim.url, maxRetries: 0 });
  vertex = new AnthropicVertex({ projectId: 'sdk-project', region: 'europe-west1', baseURL: `${sim.url}/v1`, authClient: auth, maxRetries: 0 });
});
t.teardown(async () => {
  await tokens.close();
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});
t.beforeEach(() => sim.clearFaults());

const clients = () =>
  [
    ['Bedrock', bedrock, 'us.anthropic.claude-sonnet-4-6-v1:0', 'bedrock'],
    ['Vertex AI', vertex, 'claude-sonnet-4-6@20260217', 'vertex'],
  ] as const;

t.test('messages.create, not streamed', async (t) => {
  for (const [name, client, model] of clients()) {
    const msg = await client.messages.create({ model, max_tokens: 100, messages: ASK });
    t.equal(msg.type, 'message', name);
    t.match(msg.content[0], { type: 'text', text: /^You said: Hello simulator/ }, name);
    t.equal(msg.stop_reason, 'end_turn', name);
    t.ok(msg.usage.input_tokens > 0 && msg.usage.output_tokens === 12, name);
  }
});

t.test('messages.stream: the text arrives in deltas and the final message equals the plain one', async (t) => {
  for (const [name, client, model] of clients()) {
    const plain = await client.messages.create({ model, max_tokens: 100, messages: ASK });
    const stream = client.messages.stream({ model, max_tokens: 100, messages: ASK });
    const deltas: string[] = [];
    stream.on('text', (d) => deltas.push(d));
    const final = await stream.finalMessage();
    t.same(final.content, plain.content, name);
    t.same(final.usage.output_tokens, plain.usage.output_tokens, name);
    t.ok(deltas.length > 1, `${name}: ${deltas.length} deltas`);
    const raw = await client.messages.create({ model, max_tokens: 100, messages: ASK, stream: true });
    const types: string[] = [];
    for await (const event of raw) types.push(event.type);
    t.equal(types[0], 'message_start', name);
    t.equal(types.at(-1), 'message_stop', name);
  }
});

t.test('a tool call, streamed and not', async (t) => {
  for (const [name, client, model] of clients()) {
    const params = { model, max_tokens: 200, tools: [WEATHER], messages: [{ role: 'user' as const, content: 'Weather in Paris?' }] };
    const msg = await client.messages.create(params);
    t.equal(msg.stop_reason, 'tool_use', name);
    t.match(msg.content.find((b) => b.type === 'tool_use'), { name: 'get_weather', id: /^toolu_/, input: { city: 'example' } }, name);
    const final = await client.messages.stream(params).finalMessage();
    t.match(final.content.find((b) => b.type === 'tool_use'), { name: 'get_weather', input: { city: 'example' } }, name);
  }
});

t.test('throttling is the SDK\'s RateLimitError; a stream cut by an exception is an APIError', async (t) => {
  for (const [name, client, model, account] of clients()) {
    sim.injectFault({ kind: 'status', status: 429 }, 1, account);
    const err = await client.messages.create({ model, max_tokens: 100, messages: ASK }).catch((e: unknown) => e);
    t.ok(err instanceof RateLimitError, `${name}: ${String(err)}`);
    t.equal((err as RateLimitError).status, 429, name);
    sim.injectFault({ kind: 'error-event', afterEvents: 3, errorType: 'rate_limit_error' }, 1, account);
    const cut = await client.messages
      .stream({ model, max_tokens: 100, messages: ASK })
      .finalMessage()
      .catch((e: unknown) => e);
    t.ok(cut instanceof APIError, `${name}: ${String(cut)}`);
  }
});
