// Web pages must not spend the key: any page can make the browser send a "simple" request (no CORS
// preflight) to 127.0.0.1:3099. The headers below are those Chromium sends for such requests; the
// proxy must refuse them before anything reaches the gateway, and still serve local clients.
import t from 'tap';
import { call } from '../../helpers/http.js';
import { proxiedGateway } from './fixtures/proxy.js';

const MODEL = 'claude-sonnet-4-6';
const MESSAGES_BODY = JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'spend the key' }] });
const CHAT_BODY = JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'spend the key' }] });

/** What every Chromium request carries, whatever its kind. */
const CHROMIUM = {
  'sec-ch-ua': '"Chromium";v="131", "Not_A Brand";v="24"',
  'sec-ch-ua-mobile': '?0',
  'sec-ch-ua-platform': '"Linux"',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'accept-encoding': 'gzip, deflate, br, zstd',
  'accept-language': 'en-US,en;q=0.9',
};

/** `fetch('http://127.0.0.1:3099/v1/messages', { method: 'POST', mode: 'no-cors', body: '{...}' })` from https://evil.example. */
const NO_CORS_FETCH = {
  ...CHROMIUM,
  accept: '*/*',
  'content-type': 'text/plain;charset=UTF-8',
  origin: 'https://evil.example',
  referer: 'https://evil.example/',
  'sec-fetch-site': 'cross-site',
  'sec-fetch-mode': 'no-cors',
  'sec-fetch-dest': 'empty',
};

/** The same fetch with a Blob body: the browser then sends no Content-Type at all. */
const { 'content-type': _, ...NO_CORS_FETCH_UNTYPED } = NO_CORS_FETCH;

/** `<form method="post" action="http://127.0.0.1:3099/v1/chat/completions">` submitted on https://evil.example. */
const FORM_POST = {
  ...CHROMIUM,
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
  'cache-control': 'max-age=0',
  'content-type': 'application/x-www-form-urlencoded',
  origin: 'https://evil.example',
  referer: 'https://evil.example/',
  'upgrade-insecure-requests': '1',
  'sec-fetch-site': 'cross-site',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-user': '?1',
  'sec-fetch-dest': 'document',
};

/** `<img src="http://127.0.0.1:3099/v1/models">`: a GET carries Sec-Fetch-Site but no Origin. */
const IMAGE_GET = {
  ...CHROMIUM,
  accept: 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8',
  referer: 'https://evil.example/',
  'sec-fetch-site': 'cross-site',
  'sec-fetch-mode': 'no-cors',
  'sec-fetch-dest': 'image',
};

/** The developer typing http://127.0.0.1:3099/v1/models into the address bar. */
const TYPED_URL = {
  ...CHROMIUM,
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'upgrade-insecure-requests': '1',
  'sec-fetch-site': 'none',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-user': '?1',
  'sec-fetch-dest': 'document',
};

t.test('the local proxy and web browsers', async (t) => {
  const { h, p } = await proxiedGateway(t);
  const upstreamCalls = () => h.simulator.received.length;

  t.test('requests a web page can make are refused before they reach the gateway', async (t) => {
    const before = upstreamCalls();
    const cases: Array<[string, string, Record<string, string>, string | undefined, 'messages' | 'chat']> = [
      ['no-cors fetch, text/plain', '/v1/messages', NO_CORS_FETCH, MESSAGES_BODY, 'messages'],
      ['no-cors fetch, text/plain', '/v1/chat/completions', NO_CORS_FETCH, CHAT_BODY, 'chat'],
      ['no-cors fetch, untyped Blob body', '/v1/messages', NO_CORS_FETCH_UNTYPED, MESSAGES_BODY, 'messages'],
      ['form post', '/v1/chat/completions', FORM_POST, 'model=claude-sonnet-4-6', 'chat'],
      ['form post, enctype text/plain', '/v1/chat/completions', { ...FORM_POST, 'content-type': 'text/plain' }, CHAT_BODY, 'chat'],
      ['a page on another localhost port', '/v1/messages', { ...NO_CORS_FETCH, origin: 'http://localhost:5173', 'sec-fetch-site': 'same-site' }, MESSAGES_BODY, 'messages'],
      ['a sandboxed frame (Origin: null)', '/v1/messages', { ...NO_CORS_FETCH, origin: 'null' }, MESSAGES_BODY, 'messages'],
      ['a browser without Sec-Fetch-* (Origin only)', '/v1/messages', { 'content-type': 'text/plain', origin: 'https://evil.example' }, MESSAGES_BODY, 'messages'],
      ['Origin with a JSON type (a CORS request: refused, not left to the preflight)', '/v1/messages', { ...NO_CORS_FETCH, 'content-type': 'application/json' }, MESSAGES_BODY, 'messages'],
      ['an image', '/v1/models', IMAGE_GET, undefined, 'chat'],
    ];
    for (const [name, path, headers, body, format] of cases) {
      const res = await call(`${p.url}${path}`, { method: body === undefined ? 'GET' : 'POST', headers, body });
      t.equal(res.status, 403, name);
      t.ok(res.headers['request-id'], `${name}: a request id`);
      t.notOk(res.headers['access-control-allow-origin'], `${name}: no CORS header`);
      if (format === 'messages') t.same(res.json().error.type, 'permission_error', `${name}: the messages shape`);
      else t.match(res.json(), { error: { type: 'permission_denied', code: 'forbidden', param: null } }, `${name}: the chat shape`);
    }
    t.equal(upstreamCalls(), before, 'nothing reached the upstream: the key was never spent');
    const logged = p.logText().split('\n').filter((line) => line.includes('refused a request sent by a web browser'));
    t.equal(logged.length, cases.length, 'each refusal is logged');
    t.match(logged[0], '"origin":"https://evil.example"', 'with the page that sent it');
  });

  t.test('what the developer does themselves still works', async (t) => {
    const typed = await call(`${p.url}/v1/models`, { headers: TYPED_URL });
    t.equal(typed.status, 200, 'a URL typed into the address bar (Sec-Fetch-Site: none)');
    t.equal(typed.json().object, 'list');
    const curl = await call(`${p.url}/v1/messages`, { body: MESSAGES_BODY, headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'curl/8.5.0' } });
    t.equal(curl.status, 200, 'a JSON POST with a charset parameter');
  });

  t.test('a body must be labelled JSON, in each surface shape', async (t) => {
    const before = upstreamCalls();
    const cases: Array<[string, Record<string, string>, string, 'messages' | 'chat']> = [
      ['/v1/messages', {}, MESSAGES_BODY, 'messages'],
      ['/v1/messages', { 'content-type': 'text/plain' }, MESSAGES_BODY, 'messages'],
      ['/v1/chat/completions', { 'content-type': 'application/x-www-form-urlencoded' }, CHAT_BODY, 'chat'],
      ['/v1/chat/completions', { 'content-type': 'multipart/form-data; boundary=x' }, CHAT_BODY, 'chat'],
    ];
    for (const [path, headers, body, format] of cases) {
      const res = await call(`${p.url}${path}`, { method: 'POST', headers, body });
      const label = `${path} ${headers['content-type'] ?? '(no content-type)'}`;
      t.equal(res.status, 415, label);
      if (format === 'messages') t.match(res.json(), { type: 'error', error: { type: 'invalid_request_error' } }, label);
      else t.match(res.json(), { error: { type: 'invalid_request_error', code: 'unsupported_media_type', param: null } }, label);
      t.match(res.json().error.message, 'Content-Type: application/json', label);
    }
    t.equal(upstreamCalls(), before, 'nothing reached the upstream');
  });
});
