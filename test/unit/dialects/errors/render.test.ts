// The error table rendered: every gateway error code in each surface's error body (the messages
// surface's `{type:"error",error:{type,message}}`, the chat surface's `{error:{message,type,param,code}}`),
// its status on GatewayError, and the final error event of a stream that already began.
import t from 'tap';
import { ERRORS, GatewayError, type ErrorCode } from '../../../../src/dialects/errors/codes.js';
import { renderError } from '../../../../src/dialects/errors/render.js';
import { chatErrorFrames, messagesErrorEvent, streamFailureOf, STREAM_INTERRUPTED } from '../../../../src/dialects/errors/stream-frames.js';

const codes = Object.keys(ERRORS) as ErrorCode[];

t.test('every code renders in both shapes, from its row of the table', async (t) => {
  for (const code of codes) {
    const spec = ERRORS[code];
    t.same(JSON.parse(renderError('messages', code, 'Why.', 'model')), { type: 'error', error: { type: spec.messagesType, message: 'Why.' } }, `${code}: messages (no param there)`);
    t.same(JSON.parse(renderError('chat', code, 'Why.', 'model')), { error: { message: 'Why.', type: spec.chatType, param: 'model', code: spec.chatCode } }, `${code}: chat`);
    t.equal(new GatewayError(code, 'x').status, spec.status, `${code}: status`);
  }
});

t.test('a few rows the clients depend on', async (t) => {
  const rows: Array<[ErrorCode, number, string, string]> = [
    ['invalid_api_key', 401, 'authentication_error', 'invalid_api_key'],
    ['rate_limited', 429, 'rate_limit_error', 'rate_limit_exceeded'],
    ['budget_exceeded', 429, 'rate_limit_error', 'insufficient_quota'],
    ['upstream_timeout', 504, 'api_error', 'upstream_error'],
    ['overloaded', 503, 'overloaded_error', 'server_overloaded'],
  ];
  for (const [code, status, messagesType, chatCode] of rows) t.match(ERRORS[code], { status, messagesType, chatCode }, code);
});

t.test('a message with quotes and line breaks stays one valid JSON body', async (t) => {
  const message = 'The model "a\r\nb" \\ does not exist.';
  t.equal(JSON.parse(renderError('chat', 'model_not_found', message, null)).error.message, message);
  t.equal(JSON.parse(renderError('chat', 'invalid_request', 'x', null)).error.param, null);
});

t.test('a gateway error keeps its param and headers; none by default', async (t) => {
  t.match(new GatewayError('rate_limited', 'x', { param: 'model', headers: { 'retry-after': '3' } }), { code: 'rate_limited', param: 'model', headers: { 'retry-after': '3' } });
  t.match(new GatewayError('internal', 'x'), { param: null, headers: null });
});

t.test('the stream\'s final error: an SSE error event, or a chat error chunk then [DONE]; an idle body is a timeout', async (t) => {
  t.equal(messagesErrorEvent('api_error', 'Broke.'), 'event: error\ndata: {"type":"error","error":{"type":"api_error","message":"Broke."}}\n\n');
  t.equal(chatErrorFrames('api_error', 'upstream_stream_interrupted', 'Broke.'), 'data: {"error":{"message":"Broke.","type":"api_error","param":null,"code":"upstream_stream_interrupted"}}\n\ndata: [DONE]\n\n');
  t.match(streamFailureOf({ code: 'UND_ERR_BODY_TIMEOUT' }), { messagesType: 'timeout_error', chatCode: 'upstream_timeout' });
  for (const err of [new Error('socket hang up'), { code: 'ECONNRESET' }, null]) t.same(streamFailureOf(err), STREAM_INTERRUPTED);
});
