import t from 'tap';
import { GatewayHostHider } from '../../../../src/apps/proxy/host-hider.js';
import { clientResponseHeaders } from '../../../../src/apps/proxy/response-headers.js';

t.test('the client gets the API headers and nothing that points at the gateway', async (t) => {
  const hider = new GatewayHostHider(new URL('https://gw.example.com'));
  const out = clientResponseHeaders(
    {
      'content-type': 'text/event-stream',
      'content-length': '12',
      'request-id': 'req_1',
      'x-request-id': 'req_1',
      'retry-after': '3',
      'anthropic-ratelimit-requests-remaining': '9',
      'x-gateway-translation-warnings': 'temperature clamped',
      'set-cookie': ['AWSALB=abc; Path=/', 'b=2'],
      location: '/elsewhere',
      'content-location': '/x',
      connection: 'keep-alive',
      'keep-alive': 'timeout=5',
      'transfer-encoding': 'chunked',
      server: 'nginx',
      via: '1.1 edge',
      'alt-svc': 'h3=":443"',
      'strict-transport-security': 'max-age=1',
      'x-served-by': 'GW.example.com node 3',
      'x-trace': ['ok', 'from gw.example.com'],
      'x-absent': undefined,
    },
    hider,
  );
  t.same(out, {
    'content-type': 'text/event-stream',
    'content-length': '12',
    'request-id': 'req_1',
    'x-request-id': 'req_1',
    'retry-after': '3',
    'anthropic-ratelimit-requests-remaining': '9',
    'x-gateway-translation-warnings': 'temperature clamped',
  });
});
