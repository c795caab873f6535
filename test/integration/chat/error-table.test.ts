// Every row of the error table (docs/contract.md) on the chat-completions surface, plus the in-stream errors.
import t from 'tap';
import type { Test } from 'tap';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';
import type { RawResponse } from '../../helpers/http.js';

const MODEL = 'claude-sonnet-4-6';
const ok = JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] });

function assertChatError(t: Test, res: RawResponse, status: number, type: string, code: string | null, param?: string | null) {
  t.equal(res.status, status, `status ${status}: ${res.text}`);
  const body = res.json();
  t.same(Object.keys(body), ['error']);
  t.same(Object.keys(body.error).sort(), ['code', 'message', 'param', 'type']);
  t.equal(body.error.type, type);
  t.equal(body.error.code, code);
  if (param !== undefined) t.equal(body.error.param, param);
  t.ok(res.headers['x-request-id'] && res.headers['request-id']);
}

t.test('chat surface error table', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const url = `${h.url}/gateway/openai/v1/chat/completions`;
  const post = (body: string, headers = bearer(key)) => call(url, { body, headers });

  t.test('no key', async (t) => assertChatError(t, await post(ok, { 'content-type': 'application/json' }), 401, 'invalid_request_error', 'invalid_api_key'));
  t.test('x-api-key alone is a missing key here', async (t) =>
    assertChatError(t, await post(ok, { 'x-api-key': key, 'content-type': 'application/json' }), 401, 'invalid_request_error', 'invalid_api_key'));
  t.test('unknown key', async (t) => assertChatError(t, await post(ok, bearer('sk-not-ours')), 401, 'invalid_request_error', 'invalid_api_key'));
  t.test('model not allowed', async (t) => {
    const limited = await h.createKey({ models: ['claude-haiku-4-5-20251001'] });
    assertChatError(t, await post(ok, bearer(limited.key)), 403, 'permission_denied', 'model_not_allowed');
  });
  t.test('model not in the catalogue', async (t) => assertChatError(t, await post(ok.replace(MODEL, 'gpt-4o')), 404, 'invalid_request_error', 'model_not_found', 'model'));
  t.test('body not JSON', async (t) => assertChatError(t, await post('{nope'), 400, 'invalid_request_error', 'invalid_value'));
  t.test('messages missing', async (t) => assertChatError(t, await post(JSON.stringify({ model: MODEL })), 400, 'invalid_request_error', 'invalid_value', 'messages'));
  t.test('temperature out of range', async (t) =>
    assertChatError(t, await post(JSON.stringify({ model: MODEL, temperature: 2.5, messages: [{ role: 'user', content: 'x' }] })), 400, 'invalid_request_error', 'invalid_value', 'temperature'));
  t.test('unknown role', async (t) =>
    assertChatError(t, await post(JSON.stringify({ model: MODEL, messages: [{ role: 'wizard', content: 'x' }] })), 400, 'invalid_request_error', 'invalid_value', 'messages[0].role'));
  t.test('invalid tool-call arguments name the param', async (t) => {
    const body = {
      model: MODEL,
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{broken' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'r' },
      ],
    };
    assertChatError(t, await post(JSON.stringify(body)), 400, 'invalid_request_error', 'invalid_value', 'messages[1].tool_calls[0].function.arguments');
  });
  t.test('a tool message with no preceding tool call is a 400, not a crash', async (t) => {
    const body = { model: MODEL, messages: [{ role: 'user', content: 'x' }, { role: 'tool', tool_call_id: 'call_zz', content: 'r' }] };
    const res = await post(JSON.stringify(body));
    t.equal(res.status, 400, res.text);
  });
  t.test("upstream's own 400 translated to the chat shape with the same status", async (t) => {
    h.simulator.injectFault({ kind: 'status', status: 400, errorType: 'invalid_request_error', message: 'messages.0: something the provider refused' });
    const res = await post(ok);
    // Like the chat API's own 400s: no code, the provider's message.
    assertChatError(t, res, 400, 'invalid_request_error', null);
    t.match(res.json().error.message, /something the provider refused/);
  });
  t.test('a tool name the provider would refuse is caught by the gateway with its param', async (t) => {
    const badToolName = { model: MODEL, tools: [{ type: 'function', function: { name: 'bad name!', parameters: { type: 'object' } } }], messages: [{ role: 'user', content: 'x' }] };
    assertChatError(t, await post(JSON.stringify(badToolName)), 400, 'invalid_request_error', 'invalid_value', 'tools[0].function.name');
  });
  t.test('upstream refuses the gateway credential → 502 upstream_auth_failed', async (t) => {
    h.simulator.injectFault({ kind: 'status', status: 403, errorType: 'permission_error', message: 'nope' });
    assertChatError(t, await post(ok), 502, 'api_error', 'upstream_auth_failed');
  });
  t.test('upstream reset before headers → 502', async (t) => {
    h.simulator.injectFault({ kind: 'reset-before-headers' });
    assertChatError(t, await post(ok), 502, 'api_error', 'upstream_error');
  });

  const streamBody = JSON.stringify({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'stream please' }] });
  t.test('an upstream error event mid-stream → an error chunk, then [DONE]', async (t) => {
    h.simulator.injectFault({ kind: 'error-event', afterEvents: 3, errorType: 'overloaded_error', message: 'Overloaded' });
    // An overload that breaks a stream off cools its route (docs/routes.md): asked of another model, whose
    // route is its own, so the requests below still reach the upstream.
    const res = await post(streamBody.replace(MODEL, 'claude-haiku-4-5-20251001'));
    t.equal(res.status, 200);
    const frames = res.text.trim().split('\n\n');
    t.equal(frames.at(-1), 'data: [DONE]');
    const err = JSON.parse(frames.at(-2)!.slice('data: '.length));
    t.equal(err.error.type, 'overloaded_error');
    t.type(err.error.message, 'string');
  });
  t.test('upstream reset mid-stream → an error chunk, then [DONE], never a silent cut', async (t) => {
    h.simulator.injectFault({ kind: 'reset-mid-stream', afterEvents: 3 });
    const res = await post(streamBody).catch((e: Error) => ({ status: -1, text: e.message }) as RawResponse);
    t.equal(res.status, 200);
    const frames = res.text.trim().split('\n\n');
    t.equal(frames.at(-1), 'data: [DONE]');
    t.ok(JSON.parse(frames.at(-2)!.slice('data: '.length)).error, 'an error object precedes [DONE]');
  });

  // Last of the requests through the shared harness: a 429 cools the model's route down, and the
  // requests after it in the cool-down would be answered 429 by the gateway without reaching the upstream.
  t.test('upstream 429 keeps retry-after, chat shape', async (t) => {
    h.simulator.injectFault({ kind: 'status', status: 429, errorType: 'rate_limit_error', message: 'slow down', retryAfter: 3 });
    const res = await post(ok);
    assertChatError(t, res, 429, 'rate_limit_error', 'rate_limit_exceeded');
    t.equal(res.headers['retry-after'], '3');
  });
});
