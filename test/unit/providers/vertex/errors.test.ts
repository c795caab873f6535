// Vertex AI's errors as the provider's: Google's front-end errors mapped by canonical status, the
// model's own errors recognised as already in the provider's shape.
import t from 'tap';
import { vertexErrorAnswer } from '../../../../src/providers/vertex/errors.js';

const google = (code: number, status: string, message: string) => JSON.stringify({ error: { code, message, status } });

// [HTTP status, body, provider status, type, throttled, providerShaped]
const CASES: Array<[number, string, number, string, boolean, boolean]> = [
  [429, google(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model'), 429, 'rate_limit_error', true, false],
  [401, google(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.'), 401, 'authentication_error', false, false],
  [403, google(403, 'PERMISSION_DENIED', "Permission 'aiplatform.endpoints.predict' denied"), 403, 'permission_error', false, false],
  [404, google(404, 'NOT_FOUND', 'Publisher Model `x` not found.'), 404, 'not_found_error', false, false],
  [400, google(400, 'INVALID_ARGUMENT', 'bad'), 400, 'invalid_request_error', false, false],
  [400, google(400, 'FAILED_PRECONDITION', 'not enabled'), 400, 'invalid_request_error', false, false],
  [503, google(503, 'UNAVAILABLE', 'The service is currently unavailable.'), 529, 'overloaded_error', false, false],
  [504, google(504, 'DEADLINE_EXCEEDED', 'Deadline exceeded'), 504, 'timeout_error', false, false],
  [500, google(500, 'INTERNAL', 'Internal error'), 500, 'api_error', false, false],
  [429, `[${google(429, 'RESOURCE_EXHAUSTED', 'in an array, as streamRawPredict sends it')}]`, 429, 'rate_limit_error', true, false],
  [500, google(500, '__proto__', 'a status no table has'), 500, 'api_error', false, false],
  [529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', 529, 'overloaded_error', false, true],
  [400, '{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: Field required"}}', 400, 'invalid_request_error', false, true],
  [502, '<html>Bad Gateway</html>', 500, 'api_error', false, false],
];

for (const [status, body, providerStatus, type, throttled, providerShaped] of CASES) {
  t.test(`${status} ${body.slice(0, 60)}`, async (t) => {
    const answer = vertexErrorAnswer(status, {}, Buffer.from(body));
    t.match(answer, { status: providerStatus, type, throttled, providerShaped, retryAfter: null });
    if (body.startsWith('<')) t.equal(answer.message, `Vertex AI answered with HTTP ${status}.`);
  });
}

t.test('messages pass through, and retry-after when the answer had one', async (t) => {
  const answer = vertexErrorAnswer(429, { 'retry-after': '30' }, Buffer.from(google(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded')));
  t.equal(answer.message, 'Quota exceeded');
  t.equal(answer.retryAfter, '30');
});
