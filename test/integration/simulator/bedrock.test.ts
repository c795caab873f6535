// The simulator's Bedrock runtime over real HTTP, called as the gateway's bedrock building blocks
// will call it (the signer, the event-stream decoder): Signature V4 checked, Bedrock's body rules,
// its errors, faults and throttling, a stream that decodes to what the provider's API streams, and
// CountTokens.
import type { IncomingHttpHeaders } from 'node:http';
import t from 'tap';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { startSimulator, type Simulator } from '../../../src/apps/simulator/index.js';
import { bedrockCountTokensPath } from '../../../src/providers/bedrock/count-tokens.js';
import { bedrockInvokePath } from '../../../src/providers/bedrock/invoke-path.js';
import { BedrockStreamDecoder, EventStreamError } from '../../../src/providers/bedrock/event-stream-decoder.js';
import { BedrockSigner, type AwsCredentials } from '../../../src/providers/bedrock/signer.js';
import { API_HEADERS, call, open, STREAM_REQUEST } from './raw-http.js';

const KEYS: AwsCredentials = { accessKeyId: 'AKIASIMULATOR0001', secretAccessKey: 'sim/secret/key/0001' };
const TEMPORARY: AwsCredentials = { accessKeyId: 'ASIASIMULATOR0002', secretAccessKey: 'sim/secret/key/0002', sessionToken: 'session-token-0002' };
const MODEL = 'us.anthropic.claude-sonnet-4-6-v1:0';
const BODY = { anthropic_version: 'bedrock-2023-05-31', max_tokens: 100, messages: [{ role: 'user', content: 'Hello simulator' }] };

let sim: Simulator;
t.before(async () => {
  sim = await startSimulator({
    bedrock: [
      { id: 'bedrock-us', region: 'us-east-1', ...KEYS, apiKey: 'ABSK-sim-api-key' },
      { id: 'bedrock-eu', region: 'eu-west-3', ...TEMPORARY, limits: { requestsPerMinute: 1 } },
    ],
  });
});
t.teardown(() => sim.close());
t.beforeEach(() => {
  sim.resetAccounts();
  sim.clearFaults();
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

async function send(path: string, headers: Record<string, string>, body: Buffer): Promise<Answer> {
  const res = await open(sim.url, 'POST', path, body, headers);
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  return { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) };
}

async function invoke(body: unknown, options: { model?: string; streamed?: boolean; region?: string; credentials?: AwsCredentials; tamper?: (b: Buffer) => Buffer } = {}): Promise<Answer> {
  const path = bedrockInvokePath(options.model ?? MODEL, options.streamed ?? false);
  const bytes = Buffer.from(JSON.stringify(body));
  const signer = new BedrockSigner({ kind: 'sigv4', region: options.region ?? 'us-east-1', credentials: options.credentials ?? KEYS });
  const headers = await signer.headersFor({ method: 'POST', url: new URL(path, sim.url), headers: { 'content-type': 'application/json', accept: 'application/json' }, body: bytes });
  return send(path, headers, options.tamper ? options.tamper(bytes) : bytes);
}

function decode(body: Buffer): { sse: string; decoder: BedrockStreamDecoder } {
  const decoder = new BedrockStreamDecoder();
  const sse = decoder.push(body).toString();
  decoder.end();
  return { sse, decoder };
}

const errorOf = (a: Answer) => ({ status: a.status, type: String(a.headers['x-amzn-errortype']).split(':')[0], message: (JSON.parse(a.body.toString()) as { message: string }).message });

t.test('InvokeModel: the Messages JSON with Bedrock\'s headers', async (t) => {
  const a = await invoke(BODY);
  t.equal(a.status, 200);
  const msg = JSON.parse(a.body.toString()) as { id: string; model: string; content: Array<{ text: string }>; usage: { input_tokens: number; output_tokens: number } };
  t.match(msg, { type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [{ type: 'text', text: /^You said: Hello simulator/ }] });
  t.match(msg.id, /^msg_bdrk_01/);
  t.match(a.headers['x-amzn-requestid'], /^[0-9a-f-]{36}$/);
  t.equal(a.headers['x-amzn-bedrock-input-token-count'], String(msg.usage.input_tokens));
  t.equal(a.headers['x-amzn-bedrock-output-token-count'], String(msg.usage.output_tokens));
  t.equal(a.headers['anthropic-ratelimit-requests-limit'], undefined, "Bedrock sends no provider rate-limit headers");
  for (const id of ['anthropic.claude-haiku-4-5-20251001-v1:0', 'global.anthropic.claude-opus-4-7-v1:0', 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/eu.anthropic.claude-sonnet-4-6-v1:0']) {
    t.equal((await invoke(BODY, { model: id })).status, 200, id);
  }
});

t.test('the stream: event-stream frames that decode to exactly what the provider\'s API streams', async (t) => {
  const a = await invoke({ ...BODY, max_tokens: 200 }, { streamed: true });
  t.equal(a.status, 200);
  t.equal(a.headers['content-type'], 'application/vnd.amazon.eventstream');
  const codec = new EventStreamCodec((b) => Buffer.from(b).toString(), (s) => Buffer.from(s));
  const frames: Array<{ headers: Record<string, unknown>; json: Record<string, unknown> }> = [];
  for (let at = 0; at < a.body.length; ) {
    const length = a.body.readUInt32BE(at);
    const m = codec.decode(a.body.subarray(at, at + length));
    const payload = JSON.parse(Buffer.from(m.body).toString()) as { bytes: string };
    frames.push({ headers: Object.fromEntries(Object.entries(m.headers).map(([k, v]) => [k, v.value])), json: JSON.parse(Buffer.from(payload.bytes, 'base64').toString()) });
    at += length;
  }
  t.same(frames[0]!.headers, { ':event-type': 'chunk', ':content-type': 'application/json', ':message-type': 'event' });
  t.match(frames.at(-1)!.json, { type: 'message_stop', 'amazon-bedrock-invocationMetrics': { inputTokenCount: Number, outputTokenCount: 12, invocationLatency: Number, firstByteLatency: Number } });
  const direct = await call(sim.url, 'POST', '/v1/messages', { ...STREAM_REQUEST, messages: BODY.messages }, API_HEADERS);
  const normalise = (sse: string) => sse.replace(/msg_[a-z_]*01[0-9A-Za-z]{22}/g, 'msg_ID');
  t.equal(normalise(decode(a.body).sse), normalise(direct.body), 'decoded, the same events and bytes as the provider\'s own stream');
});

t.test('Signature V4 is checked', async (t) => {
  const refusals: Array<[string, Answer, number, string, RegExp]> = [
    ['a wrong secret', await invoke(BODY, { credentials: { ...KEYS, secretAccessKey: 'wrong' } }), 403, 'InvalidSignatureException', /^The request signature we calculated does not match/],
    ['an unknown access key', await invoke(BODY, { credentials: { ...KEYS, accessKeyId: 'AKIAUNKNOWN' } }), 403, 'UnrecognizedClientException', /security token included in the request is invalid/],
    ['another region', await invoke(BODY, { region: 'us-west-2' }), 403, 'InvalidSignatureException', /scoped to a valid region/],
    ['a body changed after signing', await invoke(BODY, { tamper: (b) => Buffer.from(b.toString().replace('Hello', 'Hallo')) }), 400, 'XAmzContentSHA256Mismatch', /does not match/],
    ['no session token where the account has one', await invoke(BODY, { region: 'eu-west-3', credentials: { ...TEMPORARY, sessionToken: undefined } }), 403, 'UnrecognizedClientException', /invalid/],
    ['no Authorization at all', await send(bedrockInvokePath(MODEL, false), { 'content-type': 'application/json' }, Buffer.from(JSON.stringify(BODY))), 403, 'MissingAuthenticationTokenException', /Missing Authentication Token/],
  ];
  for (const [name, answer, status, type, message] of refusals) t.match(errorOf(answer), { status, type, message }, name);
  t.equal((await invoke(BODY, { region: 'eu-west-3', credentials: TEMPORARY })).status, 200, 'with its session token the temporary account passes');
});

t.test('a Bedrock API key as a bearer token', async (t) => {
  const path = bedrockInvokePath(MODEL, false);
  const body = Buffer.from(JSON.stringify(BODY));
  t.equal((await send(path, { 'content-type': 'application/json', authorization: 'Bearer ABSK-sim-api-key' }, body)).status, 200);
  t.match(errorOf(await send(path, { 'content-type': 'application/json', authorization: 'Bearer ABSK-wrong' }, body)), { status: 403, type: 'AccessDeniedException', message: 'Authentication failed: Please make sure your API Key is valid.' });
});

t.test('Bedrock\'s body rules, then the model\'s, as ValidationException', async (t) => {
  const { anthropic_version: _v, ...unversioned } = BODY;
  const cases: Array<[string, unknown, string | undefined, RegExp]> = [
    ['no anthropic_version', unversioned, undefined, /required key \[anthropic_version\] not found/],
    ['another anthropic_version', { ...BODY, anthropic_version: 'vertex-2023-10-16' }, undefined, /anthropic_version: "vertex-2023-10-16" is not a valid enum value/],
    ['model in the body', { ...BODY, model: 'claude-sonnet-4-6' }, undefined, /extraneous key \[model\] is not permitted/],
    ['stream in the body', { ...BODY, stream: true }, undefined, /extraneous key \[stream\] is not permitted/],
    ['anthropic_beta not a list', { ...BODY, anthropic_beta: 'x' }, undefined, /anthropic_beta/],
    ['an unknown model id', BODY, 'us.anthropic.claude-nope-v1:0', /^The provided model identifier is invalid\.$/],
    ['a model id of another vendor', BODY, 'meta.llama3-70b-instruct-v1:0', /model identifier is invalid/],
    ['the model\'s own check', { ...BODY, max_tokens: undefined }, undefined, /^max_tokens: Field required$/],
    ['a beta field without anthropic_beta', { ...BODY, context_management: {} }, undefined, /context_management: Extra inputs are not permitted/],
  ];
  for (const [name, body, model, message] of cases) t.match(errorOf(await invoke(body, { model })), { status: 400, type: 'ValidationException', message }, name);
  t.equal((await invoke({ ...BODY, anthropic_beta: ['context-management-2025-06-27'], context_management: {} })).status, 200, 'beta fields with anthropic_beta');
  t.equal((await invoke({ ...BODY, anthropic_version: '2026-10-21' })).status, 200, 'a dated version, as the official SDK sends');
});

t.test('faults: throttling before the headers, exceptions in the middle of a stream', async (t) => {
  sim.injectFault({ kind: 'status', status: 429 }, 1, 'bedrock-us');
  const throttled = await invoke(BODY);
  t.same(errorOf(throttled), { status: 429, type: 'ThrottlingException', message: 'Too many requests, please wait before trying again.' });
  t.equal(throttled.headers['retry-after'], undefined, 'Bedrock says nothing of when to retry');
  sim.injectFault({ kind: 'status', status: 503 });
  t.match(errorOf(await invoke(BODY)), { status: 503, type: 'ServiceUnavailableException' });
  sim.injectFault({ kind: 'status', status: 429, errorType: 'ModelNotReadyException' });
  t.match(errorOf(await invoke(BODY)), { status: 429, type: 'ModelNotReadyException' });

  const mid: Array<[string, string, string]> = [
    ['rate_limit_error', 'throttlingException', 'rate_limit_error'],
    ['overloaded_error', 'serviceUnavailableException', 'overloaded_error'],
    ['api_error', 'modelStreamErrorException', 'api_error'],
  ];
  for (const [errorType, exception, type] of mid) {
    sim.injectFault({ kind: 'error-event', afterEvents: 3, errorType });
    const a = await invoke(BODY, { streamed: true });
    t.equal(a.status, 200);
    const { sse, decoder } = decode(a.body);
    t.same(sse.split('\n').filter((l) => l.startsWith('event: ')), ['event: message_start', 'event: content_block_start', 'event: ping', 'event: error']);
    t.match(decoder.exception, { name: exception, type }, `${errorType} → ${exception}`);
  }
  sim.injectFault({ kind: 'malformed-sse', afterEvents: 2 });
  const broken = (await invoke(BODY, { streamed: true })).body;
  t.throws(() => decode(broken), EventStreamError, 'a frame that does not check');
});

t.test('each Bedrock account its own limits (ThrottlingException) and prompt cache', async (t) => {
  const eu = { region: 'eu-west-3', credentials: TEMPORARY };
  t.equal((await invoke(BODY, eu)).status, 200);
  t.match(errorOf(await invoke(BODY, eu)), { status: 429, type: 'ThrottlingException' });
  t.equal((await invoke(BODY)).status, 200, 'the other account is not limited');
  const cached = { ...BODY, system: [{ type: 'text', text: 'Cache me. '.repeat(300), cache_control: { type: 'ephemeral' } }] };
  const usage = async () => (JSON.parse((await invoke(cached)).body.toString()) as { usage: { cache_read_input_tokens: number; cache_creation_input_tokens: number } }).usage;
  const first = await usage();
  t.ok(first.cache_creation_input_tokens > 0);
  t.equal((await usage()).cache_read_input_tokens, first.cache_creation_input_tokens);
});

// Last: the simulator's clock stays 16 minutes ahead of the signers' from here on.
t.test('CountTokens: an InvokeModel body in base64, counted as the provider counts it', async (t) => {
  const path = bedrockCountTokensPath(MODEL);
  const signed = async (payload: unknown): Promise<Answer> => {
    const bytes = Buffer.from(JSON.stringify(payload));
    const signer = new BedrockSigner({ kind: 'sigv4', region: 'us-east-1', credentials: KEYS });
    return send(path, await signer.headersFor({ method: 'POST', url: new URL(path, sim.url), headers: { 'content-type': 'application/json' }, body: bytes }), bytes);
  };
  const wrap = (body: unknown) => ({ input: { invokeModel: { body: Buffer.from(JSON.stringify(body)).toString('base64') } } });
  const a = await signed(wrap(BODY));
  t.equal(a.status, 200);
  t.match(a.headers['x-amzn-requestid'], /^[0-9a-f-]{36}$/);
  const counted = JSON.parse(a.body.toString()) as { inputTokens: number };
  t.same(Object.keys(counted), ['inputTokens'], 'Bedrock\'s answer shape');
  // The provider's own count_tokens of the same request, on the simulator's provider API.
  const direct = await call(sim.url, 'POST', '/v1/messages/count_tokens', JSON.stringify({ model: 'claude-sonnet-4-6', messages: BODY.messages }), API_HEADERS);
  t.equal(counted.inputTokens, (JSON.parse(direct.body) as { input_tokens: number }).input_tokens, 'the same count as the provider\'s count_tokens');
  const longer = JSON.parse((await signed(wrap({ ...BODY, system: 'A much longer system prompt than before.' }))).body.toString()) as { inputTokens: number };
  t.ok(longer.inputTokens > counted.inputTokens, 'a longer input counts more');

  t.same(errorOf(await signed({})), { status: 400, type: 'ValidationException', message: "1 validation error detected: Value null at 'input' failed to satisfy constraint: Member must not be null" });
  t.match(errorOf(await signed({ input: { invokeModel: { body: 'not base64!' } } })), { status: 400, type: 'ValidationException', message: /Base64/ });
  t.match(errorOf(await signed(wrap({ ...BODY, model: 'x' }))), { status: 400, type: 'ValidationException', message: /extraneous key \[model\]/ }, 'the inner body follows InvokeModel\'s rules');
  const { max_tokens: _max, ...noMax } = BODY;
  t.match(errorOf(await signed(wrap(noMax))), { status: 400, type: 'ValidationException', message: /max_tokens/ }, 'max_tokens required, as InvokeModel requires it');
  const unsigned = await send(path, { 'content-type': 'application/json' }, Buffer.from(JSON.stringify(wrap(BODY))));
  t.equal(errorOf(unsigned).type, 'MissingAuthenticationTokenException', 'signed like every call');
});

t.test('a signature dated more than 15 minutes from the simulator\'s clock is refused', async (t) => {
  sim.advanceClock(16 * 60_000);
  t.match(errorOf(await invoke(BODY)), { status: 403, type: 'InvalidSignatureException', message: /more than 15 minutes/ });
});
