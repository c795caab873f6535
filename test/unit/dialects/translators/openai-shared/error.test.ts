import t from 'tap';
import { chatStreamErrorChunk, translateUpstreamError } from '../../../../../src/dialects/translators/openai-shared/error.js';

const providerBody = (type: string, message: string) =>
  Buffer.from(JSON.stringify({ type: 'error', error: { type, message }, request_id: 'req_1' }));

// [status, provider error type, expected chat type, expected code]
const table: Array<[number, string, string, string | null]> = [
  [400, 'invalid_request_error', 'invalid_request_error', null],
  [402, 'billing_error', 'insufficient_quota', 'insufficient_quota'],
  [404, 'not_found_error', 'invalid_request_error', 'not_found'],
  [413, 'request_too_large', 'invalid_request_error', 'request_too_large'],
  [429, 'rate_limit_error', 'rate_limit_error', 'rate_limit_exceeded'],
  [500, 'api_error', 'server_error', 'upstream_error'],
  [504, 'timeout_error', 'timeout_error', 'upstream_timeout'],
  [529, 'overloaded_error', 'server_error', 'server_overloaded'],
  [418, 'teapot_error', 'teapot_error', 'upstream_error'],
];

t.test('provider errors keep their status and message, with chat type and code', async (t) => {
  for (const [status, type, chatType, code] of table) {
    const r = translateUpstreamError(status, providerBody(type, `msg for ${type}`));
    t.same(r, { status, body: { error: { message: `msg for ${type}`, type: chatType, param: null, code } } }, type);
  }
  const model = translateUpstreamError(404, providerBody('not_found_error', 'model: claude-nope'));
  t.equal(model.body.error.code, 'model_not_found');
});

t.test('bodies not in the provider shape get a generic message by status', async (t) => {
  const cases: Array<[number, string, string]> = [
    [502, '<html>bad gateway</html>', 'server_error'],
    [503, '', 'server_error'],
    [429, '{"message":"slow"}', 'rate_limit_error'],
    [400, 'null', 'invalid_request_error'],
    [504, '{"error":"timeout"}', 'timeout_error'],
  ];
  for (const [status, body, type] of cases) {
    const r = translateUpstreamError(status, Buffer.from(body));
    t.equal(r.status, status);
    t.equal(r.body.error.type, type, `${status} ${body}`);
    t.match(r.body.error.message, String(status));
    t.equal(r.body.error.param, null);
  }
});

t.test('stream error chunk shape', async (t) => {
  t.same(chatStreamErrorChunk('server_error', 'server_overloaded', 'Overloaded'), {
    error: { message: 'Overloaded', type: 'server_error', param: null, code: 'server_overloaded' },
  });
});
