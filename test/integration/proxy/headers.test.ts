// What the proxy sends the gateway, and what it refuses to hand back to its client.
import t from 'tap';
import { call } from '../../helpers/http.js';
import { ECHO_PATH, probeRoutes } from './fixtures/gateway-routes.js';
import { proxiedGateway, secretOf } from './fixtures/proxy.js';

t.test('headers in both directions', async (t) => {
  let gatewayHost = '';
  const probe = probeRoutes(() => gatewayHost);
  const { h, key, p } = await proxiedGateway(t, { extraRoutes: () => probe.routes });
  gatewayHost = `127.0.0.1:${h.port}`;

  t.test('the client credential is replaced by the gateway key; the rest goes on', async (t) => {
    const body = JSON.stringify({ hello: 'gateway' });
    const res = await call(`${p.url}${ECHO_PATH}?beta=true`, {
      body,
      headers: {
        authorization: 'Bearer sk-client-own',
        'x-api-key': 'sk-client-own',
        cookie: 'session=abc',
        'content-type': 'application/json',
        'anthropic-version': '2023-06-01',
        'anthropic-beta': 'tools-2024-04-04,other-beta',
        'x-gateway-strict': 'true',
      },
    });
    t.equal(res.status, 200);
    const seen = probe.seen.at(-1)!;
    t.equal(seen.url, `${ECHO_PATH}?beta=true`, 'path and query unchanged');
    t.equal(seen.headers.authorization, `Bearer ${key}`, 'the gateway sees the gateway key');
    t.notOk(seen.headers['x-api-key'], 'the client x-api-key is dropped');
    t.notOk(seen.headers.cookie, 'cookies are dropped');
    t.equal(seen.headers['anthropic-beta'], 'tools-2024-04-04,other-beta');
    t.equal(seen.headers['anthropic-version'], '2023-06-01');
    t.equal(seen.headers['x-gateway-strict'], 'true', 'the gateway own headers reach it');
    t.equal(seen.headers['content-length'], String(Buffer.byteLength(body)));
    t.equal(seen.body, body, 'the body arrives unchanged');
  });

  t.test('a client sending no credential at all still gets through', async (t) => {
    const res = await call(`${p.url}/v1/models`);
    t.equal(res.status, 200);
    t.equal(res.json().object, 'list');
  });

  t.test('a redirect is never followed nor handed on', async (t) => {
    const res = await call(`${p.url}/gateway/test/redirect`);
    t.equal(res.status, 502);
    t.notOk(res.headers.location);
    t.same(Object.keys(res.json()), ['error'], 'chat error shape');
    t.equal(res.json().error.type, 'api_error');
    t.notMatch(res.text, gatewayHost);
  });

  t.test('a non-API body (an HTML page) becomes a 502 in the surface shape', async (t) => {
    const res = await call(`${p.url}/gateway/test/html`);
    t.equal(res.status, 502);
    t.match(res.headers['content-type'], /application\/json/);
    t.equal(res.json().error.code, 'upstream_error');
    t.notMatch(res.text, gatewayHost);
  });

  t.test('error bodies and headers never name the gateway host', async (t) => {
    const res = await call(`${p.url}/gateway/test/error-naming-host`);
    t.equal(res.status, 500);
    t.equal(res.headers['request-id'], 'req_test', 'ordinary headers pass');
    t.notOk(res.headers['x-served-by'], 'a header naming the gateway is dropped');
    t.notOk(res.headers['set-cookie'], 'cookies are not handed on');
    t.notMatch(JSON.stringify(res.headers), gatewayHost);
    t.notMatch(res.text, gatewayHost);
    t.match(res.json().error.message, /upstream http:\/\/\[gateway\]\/x failed/);
    t.equal(res.headers['content-length'], String(Buffer.byteLength(res.text)));
  });

  t.test('paths the proxy does not serve are a 404 in the shape the client speaks', async (t) => {
    const cases: [string, Record<string, string>, 'messages' | 'chat'][] = [
      ['/v1/embeddings', {}, 'chat'],
      ['/v1/complete', { 'anthropic-version': '2023-06-01' }, 'messages'],
      ['/admin/api/keys', {}, 'chat'],
      ['/gateway/../admin/api/keys', {}, 'chat'],
    ];
    for (const [path, headers, format] of cases) {
      const res = await call(`${p.url}${path}`, { headers });
      t.equal(res.status, 404, path);
      t.ok(res.headers['request-id'], 'a request id on the proxy answer');
      if (format === 'messages') t.equal(res.json().type, 'error', path);
      else t.equal(res.json().error.code, 'not_found', path);
    }
    const res = await call(`${p.url}/v1/messages`, { method: 'DELETE' });
    t.equal(res.status, 405);
    t.equal(res.json().error.type, 'invalid_request_error');
  });

  t.test('a request addressed to another host name is refused (DNS rebinding)', async (t) => {
    const before = probe.seen.length;
    const body = JSON.stringify({ hello: 'rebinding' });
    const refused = await call(`${p.url}${ECHO_PATH}`, { body, headers: { host: `evil.example:${p.proxy.port}`, 'content-type': 'application/json' } });
    t.equal(refused.status, 403);
    t.equal(refused.json().error.code, 'forbidden');
    t.equal(probe.seen.length, before, 'the gateway never saw it');
    const byName = await call(`${p.url}${ECHO_PATH}`, { body, headers: { host: `localhost:${p.proxy.port}`, 'content-type': 'application/json' } });
    t.equal(byName.status, 200, 'localhost is fine');
  });

  t.test('the gateway key never reaches the proxy log', async (t) => {
    t.notMatch(p.logText(), secretOf(key));
    t.notMatch(p.logText(), 'sk-client-own');
  });
});
