import t from 'tap';
import { proxiedRequestHeaders } from '../../../../src/providers/anthropic/headers.js';

const KEY = 'mgw_ABCDEFGHabcdefgh_0123456789abcdefghijABCDEFGHIJ0123456789abc';

t.test('the client credential is swapped for the gateway key; the rest goes on', async (t) => {
  const out = proxiedRequestHeaders(
    {
      authorization: 'Bearer sk-client-own',
      'x-api-key': 'sk-client-own',
      cookie: 'session=1',
      'proxy-authorization': 'Basic abc',
      host: '127.0.0.1:3099',
      connection: 'keep-alive, x-hop',
      'x-hop': 'listed in connection',
      'keep-alive': 'timeout=5',
      'transfer-encoding': 'chunked',
      te: 'trailers',
      upgrade: 'h2c',
      expect: '100-continue',
      'accept-encoding': 'gzip, br',
      'content-type': 'application/json',
      'content-length': '42',
      'anthropic-version': '2023-06-01',
      'vendor-version': '2023-06-01',
      'anthropic-beta': 'a,b',
      'x-gateway-strict': 'true',
      'user-agent': 'Anthropic/JS 1.0',
      'x-stainless-retry-count': '0',
    },
    KEY,
  );
  t.same(out, {
    authorization: `Bearer ${KEY}`,
    'content-type': 'application/json',
    'content-length': '42',
    'anthropic-version': '2023-06-01',
    'vendor-version': '2023-06-01',
    'anthropic-beta': 'a,b',
    'x-gateway-strict': 'true',
    'user-agent': 'Anthropic/JS 1.0',
    'x-stainless-retry-count': '0',
  });
});

t.test('repeated headers are joined', async (t) => {
  t.same(proxiedRequestHeaders({ 'anthropic-beta': ['a', 'b'] as unknown as string }, KEY)['anthropic-beta'], 'a, b');
});
