// The simulator's Vertex AI over real HTTP: the OAuth token endpoint (the JWT-bearer grant checked as
// Google checks it), then rawPredict and streamRawPredict with the tokens it issued: Google-shaped
// errors from the front end, the provider's from the model, quotas, expiry on the simulator's clock.
import t from 'tap';
import { generateServiceAccount, serviceAccountJson, startSimulator, type Simulator } from '../../../src/apps/simulator/index.js';
import { jwtAssertion, grantRequestBody } from '../../../src/providers/vertex/jwt-grant.js';
import { vertexCountTokensPath, vertexPredictPath } from '../../../src/providers/vertex/predict-path.js';
import { parseServiceAccount, type ServiceAccount } from '../../../src/providers/vertex/service-account.js';
import { API_HEADERS, call, STREAM_REQUEST, type RawResponse } from './raw-http.js';

const generated = generateServiceAccount({ projectId: 'proj-v' });
const BODY = { anthropic_version: 'vertex-2023-10-16', max_tokens: 100, messages: [{ role: 'user', content: 'Hello simulator' }] };
const MODEL = 'claude-sonnet-4-6@20260217';
let sim: Simulator;
let account: ServiceAccount;

t.before(async () => {
  sim = await startSimulator({ vertex: [{ id: 'vertex-eu', clientEmail: generated.clientEmail, publicKey: generated.publicKeyPem, project: 'proj-v', tokenLifetimeSeconds: 300, limits: { requestsPerMinute: 3 } }] });
  account = parseServiceAccount(JSON.stringify(serviceAccountJson(generated, sim.tokenUrl)), 'sa.json');
});
t.teardown(() => sim.close());
t.beforeEach(() => {
  sim.resetAccounts();
  sim.clearFaults();
});

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

async function grant(assertion: string): Promise<RawResponse> {
  return call(sim.url, 'POST', '/token', grantRequestBody(assertion), FORM);
}

async function token(): Promise<string> {
  const r = await grant(jwtAssertion(account, Date.now()));
  return (JSON.parse(r.body) as { access_token: string }).access_token;
}

async function predict(bearer: string | null, body: unknown = BODY, options: { project?: string; model?: string; streamed?: boolean } = {}): Promise<RawResponse> {
  const path = vertexPredictPath(options.project ?? 'proj-v', 'europe-west1', options.model ?? MODEL, options.streamed ?? false);
  return call(sim.url, 'POST', path, body, { 'content-type': 'application/json', ...(bearer === null ? {} : { authorization: `Bearer ${bearer}` }) });
}

/** The HTTP status and Google's error of an answer. */
const google = (r: RawResponse) => ({ http: r.status, ...(JSON.parse(r.body) as { error: { code: number; status: string; message: string } }).error });

t.test('the token endpoint issues a token for a good grant', async (t) => {
  const r = await grant(jwtAssertion(account, Date.now()));
  t.equal(r.status, 200);
  const body = JSON.parse(r.body) as Record<string, unknown>;
  t.same(Object.keys(body).sort(), ['access_token', 'expires_in', 'token_type']);
  t.match(body, { access_token: /^ya29\./, expires_in: 300, token_type: 'Bearer' });
});

t.test('bad grants get Google\'s OAuth errors', async (t) => {
  const other = generateServiceAccount({ clientEmail: generated.clientEmail });
  const forged = parseServiceAccount(JSON.stringify(serviceAccountJson(other, sim.tokenUrl)), 'forged.json');
  const stranger = parseServiceAccount(JSON.stringify(serviceAccountJson(generateServiceAccount({ clientEmail: 'who@else.iam.gserviceaccount.com' }), sim.tokenUrl)), 'x.json');
  const elsewhere = parseServiceAccount(JSON.stringify(serviceAccountJson(generated, 'https://oauth2.googleapis.com/token')), 'y.json');
  const cases: Array<[string, Promise<RawResponse>, string, RegExp]> = [
    ['another grant type', call(sim.url, 'POST', '/token', 'grant_type=client_credentials', FORM), 'unsupported_grant_type', /^Invalid grant_type: client_credentials$/],
    ['no assertion', call(sim.url, 'POST', '/token', 'grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer', FORM), 'invalid_request', /assertion/],
    ['not a JWT', grant('not-a-jwt'), 'invalid_grant', /Invalid JWT/],
    ['signed with another key', grant(jwtAssertion(forged, Date.now())), 'invalid_grant', /^Invalid JWT Signature\.$/],
    ['an account the simulator does not know', grant(jwtAssertion(stranger, Date.now())), 'invalid_grant', /account not found/],
    ['addressed to another token URL', grant(jwtAssertion(elsewhere, Date.now())), 'invalid_grant', new RegExp(`Failed audience check. The expected audience is ${sim.tokenUrl.replace(/\./g, '\\.')}\\.`)],
    ['made two hours ago', grant(jwtAssertion(account, Date.now() - 2 * 3600_000)), 'invalid_grant', /short-lived token \(60 minutes\)/],
    ['made an hour from now', grant(jwtAssertion(account, Date.now() + 3600_000)), 'invalid_grant', /short-lived token/],
    ['no scope', grant(jwtAssertion(account, Date.now(), '')), 'invalid_scope', /Invalid OAuth scope/],
  ];
  for (const [name, answer, error, description] of cases) {
    const r = await answer;
    t.equal(r.status, 400, name);
    t.match(JSON.parse(r.body), { error, error_description: description }, name);
  }
});

t.test('rawPredict: the Messages JSON; streamRawPredict: exactly the provider\'s SSE', async (t) => {
  const bearer = await token();
  const r = await predict(bearer);
  t.equal(r.status, 200);
  t.match(JSON.parse(r.body), { id: /^msg_vrtx_01/, type: 'message', model: 'claude-sonnet-4-6', content: [{ text: /^You said: Hello simulator/ }] });
  const streamed = await predict(bearer, { ...BODY, max_tokens: 200, stream: true }, { streamed: true });
  t.equal(streamed.headers['content-type'], 'text/event-stream; charset=utf-8');
  const direct = await call(sim.url, 'POST', '/v1/messages', { ...STREAM_REQUEST, messages: BODY.messages }, API_HEADERS);
  const normalise = (sse: string) => sse.replace(/msg_[a-z_]*01[0-9A-Za-z]{22}/g, 'msg_ID');
  t.equal(normalise(streamed.body), normalise(direct.body));
  t.equal((await predict(bearer, BODY, { model: 'claude-haiku-4-5@20251001' })).status, 200, 'a dated Vertex id');
});

t.test('the front end refuses in Google\'s shape: no token, a stale one, another project, an unknown model', async (t) => {
  const bearer = await token();
  t.match(google(await predict(null)), { http: 401, code: 401, status: 'UNAUTHENTICATED', message: /invalid authentication credentials/ });
  t.match(google(await predict('ya29.forged')), { http: 401, status: 'UNAUTHENTICATED' });
  t.match(google(await predict(bearer, BODY, { project: 'someone-else' })), { http: 403, status: 'PERMISSION_DENIED', message: /Permission 'aiplatform\.endpoints\.predict' denied on resource '\/\/aiplatform\.googleapis\.com\/projects\/someone-else\// });
  t.match(google(await predict(bearer, BODY, { model: 'claude-nope@1' })), { http: 404, status: 'NOT_FOUND', message: /Publisher Model `projects\/proj-v\/locations\/europe-west1\/publishers\/anthropic\/models\/claude-nope@1` not found\./ });
  sim.advanceClock(301_000);
  t.match(google(await predict(bearer)), { http: 401 }, 'expired on the simulator\'s clock');
});

t.test('the model refuses in the provider\'s shape', async (t) => {
  const bearer = await token();
  const { anthropic_version: _v, ...unversioned } = BODY;
  const cases: Array<[unknown, string]> = [
    [{ ...BODY, model: 'claude-sonnet-4-6' }, 'model: Extra inputs are not permitted'],
    [unversioned, 'anthropic_version: Field required'],
    [{ ...BODY, anthropic_version: 'bedrock-2023-05-31' }, "anthropic_version: Input should be 'vertex-2023-10-16'"],
    [{ ...BODY, max_tokens: undefined }, 'max_tokens: Field required'],
  ];
  for (const [body, message] of cases) {
    const r = await predict(bearer, body);
    t.equal(r.status, 400, message);
    t.same(JSON.parse(r.body), { type: 'error', error: { type: 'invalid_request_error', message } });
  }
  t.equal((await predict(bearer, { ...BODY, anthropic_version: '2026-10-21' })).status, 200, 'a dated version, as the official SDK sends');
});

t.test('quota: 429 RESOURCE_EXHAUSTED over the account\'s limit', async (t) => {
  const bearer = await token();
  for (let i = 0; i < 3; i++) t.equal((await predict(bearer)).status, 200);
  t.match(google(await predict(bearer)), { http: 429, code: 429, status: 'RESOURCE_EXHAUSTED', message: /Quota exceeded for aiplatform\.googleapis\.com\/online_prediction_requests_per_base_model with base model: anthropic-claude-sonnet-4-6/ });
});

t.test('faults: quota in Google\'s shape, overloaded in the provider\'s, an error event mid-stream', async (t) => {
  const bearer = await token();
  sim.injectFault({ kind: 'status', status: 429 }, 1, 'vertex-eu');
  t.match(google(await predict(bearer)), { http: 429, message: /Quota exceeded/ });
  sim.injectFault({ kind: 'status', status: 529 });
  const overloaded = await predict(bearer);
  t.same([overloaded.status, JSON.parse(overloaded.body)], [529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]);
  sim.injectFault({ kind: 'error-event', afterEvents: 3 });
  const streamed = await predict(bearer, { ...BODY, stream: true }, { streamed: true });
  t.match(streamed.body, /event: error\ndata: \{"type":"error","error":\{"type":"overloaded_error","message":"Overloaded"\}\}\n\n$/);
});

t.test('count-tokens:rawPredict counts as the provider\'s count_tokens', async (t) => {
  const bearer = await token();
  const body = { anthropic_version: 'vertex-2023-10-16', model: MODEL, messages: [{ role: 'user', content: 'x'.repeat(400) }] };
  const r = await call(sim.url, 'POST', vertexCountTokensPath('proj-v', 'europe-west1'), body, { 'content-type': 'application/json', authorization: `Bearer ${bearer}` });
  t.same([r.status, JSON.parse(r.body)], [200, { input_tokens: 100 }]);
});

t.test('a token granted without the cloud-platform scope cannot predict', async (t) => {
  const r = await grant(jwtAssertion(account, Date.now(), 'https://www.googleapis.com/auth/userinfo.email'));
  const narrow = (JSON.parse(r.body) as { access_token: string }).access_token;
  t.match(google(await predict(narrow)), { http: 403, message: 'Request had insufficient authentication scopes.' });
});
