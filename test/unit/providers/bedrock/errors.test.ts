// Bedrock's errors as the provider's: status, type, message, retry-after, and whether the route is out of headroom.
import t from 'tap';
import { bedrockErrorAnswer, errorTypeOfException, exceptionName } from '../../../../src/providers/bedrock/errors.js';
import { providerErrorBody, providerErrorHeaders } from '../../../../src/providers/provider-error.js';

const URL_SUFFIX = ':http://internal.amazon.com/coral/com.amazon.bedrock/';

// [x-amzn-errortype, HTTP status, body, provider status, provider type, throttled]
const HTTP: Array<[string | null, number, string, number, string, boolean]> = [
  ['ThrottlingException' + URL_SUFFIX, 429, '{"message":"Too many requests, please wait before trying again."}', 429, 'rate_limit_error', true],
  ['ServiceQuotaExceededException', 400, '{"message":"Your request exceeds the service quota for your account."}', 429, 'rate_limit_error', true],
  ['ServiceUnavailableException' + URL_SUFFIX, 503, '{"message":"Bedrock is unable to process your request."}', 529, 'overloaded_error', false],
  ['ModelNotReadyException', 429, '{"message":"not ready"}', 529, 'overloaded_error', false],
  ['ModelTimeoutException', 408, '{"message":"timed out"}', 504, 'timeout_error', false],
  ['InternalServerException', 500, '{"message":"oops"}', 500, 'api_error', false],
  ['ModelErrorException', 424, '{"message":"model error","originalStatusCode":529}', 529, 'overloaded_error', false],
  ['ModelErrorException', 424, '{"message":"model error","originalStatusCode":500}', 500, 'api_error', false],
  ['ValidationException' + URL_SUFFIX, 400, '{"message":"messages: text content blocks must be non-empty"}', 400, 'invalid_request_error', false],
  ['AccessDeniedException', 403, '{"Message":"Authentication failed: Please make sure your API Key is valid."}', 403, 'permission_error', false],
  ['UnrecognizedClientException', 403, '{"message":"The security token included in the request is invalid."}', 401, 'authentication_error', false],
  ['InvalidSignatureException', 403, '{"message":"The request signature we calculated does not match"}', 401, 'authentication_error', false],
  ['ResourceNotFoundException', 404, '{"message":"no such model"}', 404, 'not_found_error', false],
  [null, 429, '{"__type":"com.amazon.bedrock#ThrottlingException","message":"slow down"}', 429, 'rate_limit_error', true],
  [null, 502, '<html>bad gateway</html>', 500, 'api_error', false],
  ['SomethingNewException', 409, '{"message":"new"}', 400, 'invalid_request_error', false],
];

for (const [name, status, body, providerStatus, type, throttled] of HTTP) {
  t.test(`${name ?? '(no header)'} ${status} → ${providerStatus} ${type}`, async (t) => {
    const headers = name === null ? {} : { 'x-amzn-errortype': name };
    const answer = bedrockErrorAnswer(status, headers, Buffer.from(body));
    t.match(answer, { status: providerStatus, type, throttled, retryAfter: null, providerShaped: false });
    const parsed = JSON.parse(providerErrorBody(answer).toString('utf8'));
    t.same(Object.keys(parsed), ['type', 'error']);
    t.equal(parsed.error.type, type);
    if (body.startsWith('{')) t.equal(parsed.error.message, (JSON.parse(body) as { message?: string; Message?: string }).message ?? JSON.parse(body).Message);
    else t.equal(parsed.error.message, `Bedrock answered with HTTP ${status}.`);
  });
}

t.test('a 429 keeps its retry-after', async (t) => {
  const answer = bedrockErrorAnswer(429, { 'x-amzn-errortype': 'ThrottlingException', 'retry-after': '7' }, Buffer.from('{"message":"x"}'));
  t.equal(answer.retryAfter, '7');
  t.same(providerErrorHeaders(answer), { 'content-type': 'application/json', 'retry-after': '7' });
  t.same(providerErrorHeaders(bedrockErrorAnswer(429, {}, Buffer.from('{}'))), { 'content-type': 'application/json' }, 'none when it had none');
});

t.test('exception names in every spelling Bedrock uses', async (t) => {
  t.equal(exceptionName('ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/'), 'throttlingException');
  t.equal(exceptionName('com.amazon.bedrock#ValidationException'), 'validationException');
  t.equal(exceptionName('modelStreamErrorException'), 'modelStreamErrorException');
  t.equal(errorTypeOfException('modelStreamErrorException', { originalStatusCode: 429 }), 'rate_limit_error');
  t.equal(errorTypeOfException('modelStreamErrorException', {}), 'api_error');
  t.equal(errorTypeOfException('unheardOfException', {}), null);
});
