// Property tests: any valid chat request translates, and the result obeys the provider's
// structural rules; no input at all makes the translation throw.
import t from 'tap';
import fc from 'fast-check';
import { DEFAULT_MODELS } from '../../../../../src/catalog/model.js';
import { buildModelIndex, defaultModelInfos } from '../../../../../src/apps/simulator/models.js';
import { validateMessagesRequest } from '../../../../../src/apps/simulator/validate/request.js';
import { translateChatRequest } from '../../../../../src/dialects/translators/chat-to-anthropic/request.js';
import { stringifyMessagesRequest } from '../../../../../src/dialects/translators/openai-shared/request-json.js';
import type { ContentBlockParam, MessagesRequest } from '../../../../../src/dialects/anthropic/wire.js';

const model = DEFAULT_MODELS.find((m) => m.id === 'claude-sonnet-4-6')!;

const text = fc.oneof(fc.string({ minLength: 1 }), fc.constantFrom('hello', ' ', '', '\n\t', 'ok '));
const nonBlank = fc.string({ minLength: 1 }).filter((s) => s.trim().length > 0);
const toolId = fc.oneof(fc.stringMatching(/^[a-zA-Z0-9_-]{1,12}$/), fc.constantFrom('Bash:12', 'call_x|fc_y', 'a b', 'ü'));
const toolName = fc.constantFrom('get_weather', 'search', 'now');

const userContent = fc.oneof(
  nonBlank,
  fc
    .tuple(
      nonBlank,
      fc.array(
        fc.oneof(
          text.map((s) => ({ type: 'text', text: s })),
          fc.constant({ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }),
          fc.constant({ type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'low' } }),
        ),
        { maxLength: 3 },
      ),
    )
    .map(([first, rest]) => [{ type: 'text', text: first }, ...rest]),
);

interface Exchange {
  user: unknown;
  extraUser: boolean;
  assistantText: string | null;
  calls: Array<{ id: string; name: string; args: string }>;
  resultOrder: number[];
  system: string | null;
}

const args = fc.oneof(fc.constant(''), fc.constant('{}'), fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }).map((o) => JSON.stringify(o)));

const exchange: fc.Arbitrary<Exchange> = fc.record({
  user: userContent,
  extraUser: fc.boolean(),
  assistantText: fc.option(text),
  calls: fc.uniqueArray(fc.record({ id: toolId, name: toolName, args }), { maxLength: 3, selector: (c) => c.id }),
  resultOrder: fc.array(fc.nat(), { maxLength: 3 }),
  system: fc.option(text),
});

/** Builds a conversation that a chat-completions API accepts: every tool call answered by a tool message. */
function conversation(exchanges: Exchange[], closeWithUser: boolean): unknown[] {
  const out: unknown[] = [];
  for (const ex of exchanges) {
    if (ex.system !== null) out.push({ role: ex.system.length % 2 ? 'system' : 'developer', content: ex.system });
    out.push({ role: 'user', content: ex.user });
    if (ex.extraUser) out.push({ role: 'user', content: 'and also' });
    if (ex.assistantText === null && ex.calls.length === 0) continue;
    out.push({
      role: 'assistant',
      content: ex.assistantText,
      ...(ex.calls.length > 0
        ? { tool_calls: ex.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } })) }
        : {}),
    });
    const order = ex.calls.map((_, i) => i).sort((a, b) => (ex.resultOrder[a] ?? 0) - (ex.resultOrder[b] ?? 0));
    for (const i of order) out.push({ role: 'tool', tool_call_id: ex.calls[i]!.id, content: `result ${i}` });
  }
  if (closeWithUser) out.push({ role: 'user', content: 'next?' });
  return out;
}

const scalars = fc.record(
  {
    temperature: fc.double({ min: 0, max: 2, noNaN: true }),
    top_p: fc.double({ min: 0, max: 1, noNaN: true }),
    stop: fc.oneof(text, fc.array(text, { maxLength: 4 })),
    max_tokens: fc.integer({ min: 1, max: 200_000 }),
    n: fc.integer({ min: 1, max: 5 }),
    logprobs: fc.boolean(),
    response_format: fc.constant({ type: 'json_object' }),
    user: fc.string(),
    stream: fc.boolean(),
    tool_choice: fc.constantFrom('auto', 'none', 'required'),
    parallel_tool_calls: fc.boolean(),
    tools: fc.constant([{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }]),
  },
  { requiredKeys: [] },
);

const validRequest = fc
  .tuple(fc.array(exchange, { minLength: 1, maxLength: 5 }), fc.boolean(), scalars)
  .map(([exchanges, closeWithUser, extra]) => ({ model: 'm', messages: conversation(exchanges, closeWithUser), ...extra }));

function structuralProblems(r: MessagesRequest): string[] {
  const problems: string[] = [];
  const msgs = r.messages;
  if (msgs.length === 0) problems.push('no messages');
  if (msgs[0]?.role !== 'user') problems.push('first turn is not user');
  const seenIds = new Set<string>();
  msgs.forEach((m, i) => {
    if (i > 0 && msgs[i - 1]!.role === m.role) problems.push(`turns ${i - 1} and ${i} share a role`);
    const blocks = m.content as ContentBlockParam[];
    if (!Array.isArray(blocks) || blocks.length === 0) problems.push(`turn ${i} is empty`);
    let resultsDone = false;
    for (const b of blocks) {
      if (b.type === 'text' && b.text.trim() === '') problems.push(`turn ${i} has blank text`);
      if (b.type === 'tool_result') {
        if (resultsDone) problems.push(`turn ${i}: tool_result after other content`);
        const prev = msgs[i - 1];
        const answered = prev?.role === 'assistant' && (prev.content as ContentBlockParam[]).some((u) => u.type === 'tool_use' && u.id === b.tool_use_id);
        if (!answered) problems.push(`turn ${i}: tool_result ${b.tool_use_id} answers no tool_use of the turn before`);
      } else resultsDone = true;
      if (b.type === 'tool_use') {
        if (!/^[a-zA-Z0-9_-]+$/.test(b.id)) problems.push(`bad tool id ${b.id}`);
        if (seenIds.has(b.id)) problems.push(`duplicate tool id ${b.id}`);
        seenIds.add(b.id);
        const next = msgs[i + 1];
        const answered = next?.role === 'user' && (next.content as ContentBlockParam[]).some((u) => u.type === 'tool_result' && u.tool_use_id === b.id);
        if (!answered) problems.push(`tool_use ${b.id} is not answered in the next turn`);
      }
    }
  });
  if (r.temperature !== undefined && r.temperature > 1) problems.push('temperature above 1');
  if (r.stop_sequences && (r.stop_sequences.length > 4 || r.stop_sequences.some((s) => s.trim() === ''))) problems.push('bad stop_sequences');
  if (!(r.max_tokens >= 1 && r.max_tokens <= (model.maxOutputTokens ?? Infinity))) problems.push('bad max_tokens');
  if (r.tool_choice && !r.tools) problems.push('tool_choice without tools');
  return problems;
}

t.test('every valid chat request translates into a structurally valid provider request', async (t) => {
  fc.assert(
    fc.property(validRequest, (body) => {
      const r = translateChatRequest(body, model, { strict: false });
      if (!r.ok) throw new Error(`refused: ${r.param}: ${r.message}`);
      const problems = structuralProblems(r.request);
      if (problems.length > 0) throw new Error(problems.join('; '));
      // Round-trips through JSON unchanged: nothing undefined or non-JSON leaks into the body.
      t.same(JSON.parse(JSON.stringify(r.request)), r.request);
      // The body the gateway sends is JSON.stringify's, written by its own writer.
      t.equal(stringifyMessagesRequest(r.request), JSON.stringify(r.request));
    }),
    { numRuns: 400 },
  );
});

/** Replaces one random subtree of a valid request with arbitrary JSON. */
const mutated = fc
  .tuple(validRequest, fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), fc.jsonValue())
  .map(([body, path, replacement]) => {
    const copy = JSON.parse(JSON.stringify(body)) as unknown;
    let node = copy as Record<string, unknown>;
    for (let d = 0; d < path.length; d++) {
      const keys = Object.keys(node);
      if (keys.length === 0) break;
      const key = keys[path[d]! % keys.length]!;
      const child = node[key];
      if (d === path.length - 1 || typeof child !== 'object' || child === null) {
        node[key] = replacement;
        break;
      }
      node = child as Record<string, unknown>;
    }
    return copy;
  });

t.test('no input makes the translation throw', async () => {
  const strictness = fc.boolean();
  fc.assert(
    fc.property(fc.oneof(fc.anything(), fc.jsonValue(), mutated), strictness, (body, strict) => {
      translateChatRequest(body, model, { strict });
    }),
    { numRuns: 1500 },
  );
});

// The provider look-alike's validator rejects what the real API rejects: every translation must pass it,
// for a model that takes all sampling fields and for one that takes only the defaults.
const providerModels = buildModelIndex(defaultModelInfos());

t.test('every valid chat request translates into a request the simulator accepts', async () => {
  for (const target of DEFAULT_MODELS.filter((m) => m.id === 'claude-sonnet-4-6' || m.id === 'claude-opus-4-7')) {
    fc.assert(
      fc.property(validRequest, (body) => {
        const r = translateChatRequest(body, target, { strict: false });
        if (!r.ok) throw new Error(`refused: ${r.param}: ${r.message}`);
        const verdict = validateMessagesRequest(JSON.parse(JSON.stringify(r.request)), { models: providerModels, beta: false });
        if (!verdict.ok) throw new Error(`${target.id}: the provider would answer ${verdict.failure.status}: ${verdict.failure.message}`);
      }),
      { numRuns: 300 },
    );
  }
});
