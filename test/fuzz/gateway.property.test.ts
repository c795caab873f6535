// End to end: arbitrary bodies to both surfaces of a real gateway in front of the simulator. Every
// answer is a success or a 4xx in the surface's own shape (never a 5xx: the upstream is healthy),
// streams end properly, and no request that reached the upstream carries the client's credential.
import fc from 'fast-check';
import t from 'tap';
import { Agent, request } from 'undici';
import { startHarness, UPSTREAM_KEY } from '../helpers/harness.js';

const PATHS = { messages: '/gateway/v1/messages', chat: '/gateway/openai/v1/chat/completions' } as const;
type Surface = keyof typeof PATHS;

const text = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('', ' ', 'hi', '\u0000', '__proto__'));
const part = fc.oneof(
  fc.record({ type: fc.constantFrom('text', 'image_url', 'image', 'tool_use', 'tool_result', 'thinking', 'input_audio'), text }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('image_url'), image_url: fc.record({ url: fc.oneof(text, fc.constant('data:image/png;base64,iVBORw0KGgo=')) }) }),
  fc.jsonValue({ maxDepth: 2 }),
);
const toolCall = fc.record({ id: text, type: fc.constant('function'), function: fc.record({ name: text, arguments: fc.oneof(text, fc.constant('{}')) }, { requiredKeys: [] }) }, { requiredKeys: [] });
const message = fc.record(
  {
    role: fc.constantFrom('user', 'assistant', 'system', 'developer', 'tool', 'function', 'robot'),
    content: fc.oneof(text, fc.array(part, { maxLength: 3 }), fc.constant(null), fc.jsonValue({ maxDepth: 2 })),
    tool_calls: fc.array(toolCall, { maxLength: 2 }),
    tool_call_id: text,
    name: text,
  },
  { requiredKeys: ['role'] },
);
const tool = fc.oneof(
  fc.record({ type: fc.constant('function'), function: fc.record({ name: text, parameters: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: [] }) }),
  fc.record({ name: text, input_schema: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: [] }),
);
const fields = fc.record(
  {
    model: fc.constantFrom('claude-sonnet-4-6', 'claude-opus-4-7', 'claude-haiku-4-5', 'nope', '', '__proto__', 'constructor'),
    messages: fc.oneof(fc.array(message, { minLength: 1, maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })),
    max_tokens: fc.oneof(fc.integer({ min: -2, max: 40 }), fc.jsonValue({ maxDepth: 1 })),
    max_completion_tokens: fc.integer({ min: -2, max: 40 }),
    stream: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 1 })),
    stream_options: fc.record({ include_usage: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 1 })) }),
    temperature: fc.oneof(fc.double({ min: -1, max: 3, noNaN: true }), fc.jsonValue({ maxDepth: 1 })),
    top_p: fc.double({ min: -1, max: 2, noNaN: true }),
    stop: fc.oneof(text, fc.array(text, { maxLength: 6 }), fc.jsonValue({ maxDepth: 1 })),
    tools: fc.oneof(fc.array(tool, { maxLength: 2 }), fc.jsonValue({ maxDepth: 2 })),
    tool_choice: fc.oneof(fc.constantFrom('auto', 'none', 'required', 'any'), fc.jsonValue({ maxDepth: 2 })),
    system: fc.oneof(text, fc.jsonValue({ maxDepth: 2 })),
    n: fc.integer({ min: 0, max: 3 }),
    seed: fc.integer(),
  },
  { requiredKeys: [] },
);
const FIELD_NAMES = ['model', 'messages', 'max_tokens', 'max_completion_tokens', 'stream', 'stream_options', 'temperature', 'top_p', 'stop', 'tools', 'tool_choice', 'system', 'n', 'seed'];
/** A valid request with one or two fields replaced by arbitrary values: most of these reach the upstream. */
const nearValid = fc
  .tuple(fc.record({ stream: fc.boolean(), content: fc.string({ minLength: 1, maxLength: 20 }).filter((x) => x.trim() !== '') }), fields, fc.subarray(FIELD_NAMES, { maxLength: 2 }))
  .map(([base, f, chosen]) => {
    const out: Record<string, unknown> = { model: 'claude-sonnet-4-6', max_tokens: 8, stream: base.stream, messages: [{ role: 'user', content: base.content }] };
    for (const name of chosen) if (Object.hasOwn(f, name)) out[name] = (f as Record<string, unknown>)[name];
    return JSON.stringify(out);
  });
const body = fc.oneof(
  { weight: 6, arbitrary: nearValid },
  { weight: 3, arbitrary: fc.tuple(fields, fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })).map(([f, extra]) => JSON.stringify({ ...extra, ...f })) },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
);

function inShape(surface: Surface, text: string): boolean {
  try {
    const b = JSON.parse(text);
    if (surface === 'messages') return b.type === 'error' && typeof b.error?.type === 'string' && typeof b.error?.message === 'string';
    return typeof b.error?.message === 'string' && typeof b.error?.type === 'string' && 'param' in b.error && 'code' in b.error;
  } catch {
    return false;
  }
}

function wellFormedSuccess(surface: Surface, contentType: string, text: string): boolean {
  if (contentType.startsWith('text/event-stream')) {
    return surface === 'messages' ? /event: message_stop\n/.test(text) || /event: error\n/.test(text) : text.endsWith('data: [DONE]\n\n');
  }
  try {
    const b = JSON.parse(text);
    return surface === 'messages' ? b.type === 'message' || typeof b.input_tokens === 'number' : b.object === 'chat.completion';
  } catch {
    return false;
  }
}

t.test('any body: a success or a 4xx in the surface’s shape, and no credential forwarded', async (t) => {
  const h = await startHarness({ simulator: { replyTokens: 4 } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const client = new Agent({ connections: 4 });
  t.teardown(() => client.close());
  const statuses = new Map<string, number>();

  const rejectedUpstream: string[] = [];
  const upstreamPosts = () => h.simulator.received.filter((r) => r.method === 'POST').length;
  for (const surface of ['messages', 'chat'] as const) {
    let seen = upstreamPosts();
    await fc.assert(
      fc.asyncProperty(body, fc.boolean(), async (payload, useXApiKey) => {
        const credential: Record<string, string> = useXApiKey && surface === 'messages' ? { 'x-api-key': key } : { authorization: `Bearer ${key}` };
        const res = await request(`${h.url}${PATHS[surface]}`, { method: 'POST', headers: { ...credential, 'content-type': 'application/json', cookie: `s=${key}` }, body: payload, dispatcher: client });
        const text = await res.body.text();
        // The chat surface builds the upstream request itself: the upstream must never refuse it.
        if (surface === 'chat' && res.statusCode >= 400 && upstreamPosts() > seen) rejectedUpstream.push(`${payload} → ${h.simulator.received.at(-1)?.body.toString('utf8')} → ${text}`);
        seen = upstreamPosts();
        statuses.set(`${surface} ${res.statusCode}`, (statuses.get(`${surface} ${res.statusCode}`) ?? 0) + 1);
        if (res.statusCode >= 500) return false;
        if (res.statusCode >= 400) return inShape(surface, text);
        return wellFormedSuccess(surface, String(res.headers['content-type'] ?? ''), text);
      }),
      { numRuns: 150 },
    );
  }
  t.same(rejectedUpstream, [], 'every translated request the upstream got was valid (the simulator validates like the provider)');
  t.pass(`answers: ${[...statuses].map(([k, n]) => `${k}×${n}`).join(', ')}`);

  const forwarded = h.simulator.received.filter((r) => r.method === 'POST');
  t.ok(forwarded.length > 0, `${forwarded.length} requests reached the upstream`);
  for (const r of forwarded) {
    const headerText = JSON.stringify(r.headers);
    if (headerText.includes(key) || r.headers.authorization !== undefined || r.headers.cookie !== undefined || r.headers['x-api-key'] !== UPSTREAM_KEY) {
      t.fail(`credential handling broken in ${headerText}`);
      break;
    }
  }
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'nothing polluted Object.prototype');
});
