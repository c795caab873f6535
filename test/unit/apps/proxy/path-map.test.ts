import t from 'tap';
import { mapProxyPath } from '../../../../src/apps/proxy/path-map.js';
import { errorFormatOf } from '../../../../src/gateway/surfaces.js';

const V = { 'anthropic-version': '2023-06-01' };

t.test('root-mounted and gateway paths map to the gateway surfaces', async (t) => {
  const cases: [string, Record<string, string>, string, 'messages' | 'chat'][] = [
    ['/v1/messages', {}, '/gateway/v1/messages', 'messages'],
    ['/v1/messages?beta=true', {}, '/gateway/v1/messages?beta=true', 'messages'],
    ['/v1/messages/count_tokens?beta=true', V, '/gateway/v1/messages/count_tokens?beta=true', 'messages'],
    ['/v1/models', V, '/gateway/v1/models', 'messages'],
    ['/v1/models?limit=5', { 'vendor-version': '2023-06-01' }, '/gateway/v1/models?limit=5', 'messages'],
    ['/v1/models', {}, '/gateway/openai/v1/models', 'chat'],
    ['/v1/chat/completions', {}, '/gateway/openai/v1/chat/completions', 'chat'],
    ['/v1/chat/completions', V, '/gateway/openai/v1/chat/completions', 'chat'],
    ['/v1/responses', {}, '/gateway/openai/v1/responses', 'chat'],
    ['/gateway/v1/messages', {}, '/gateway/v1/messages', 'messages'],
    ['/gateway/v1/messages/count_tokens?beta=true', {}, '/gateway/v1/messages/count_tokens?beta=true', 'messages'],
    ['/gateway/v1/models', {}, '/gateway/v1/models', 'messages'],
    ['/gateway/openai/v1/chat/completions', {}, '/gateway/openai/v1/chat/completions', 'chat'],
    ['/gateway/openai/v1/models?x=1', {}, '/gateway/openai/v1/models?x=1', 'chat'],
    ['/gateway/v1/models/claude-3.5-sonnet', {}, '/gateway/v1/models/claude-3.5-sonnet', 'messages'],
  ];
  for (const [url, headers, path, format] of cases) {
    t.same(mapProxyPath(url, headers), { kind: 'forward', path, format }, url);
  }
});

t.test('anything else is not found, in the shape the client speaks', async (t) => {
  const cases: [string, Record<string, string>, 'messages' | 'chat'][] = [
    ['/', {}, 'chat'],
    ['/v1', {}, 'chat'],
    ['/v1/messages/', V, 'messages'],
    ['/v1/complete', V, 'messages'],
    ['/v1/embeddings', {}, 'chat'],
    ['/v1/models/claude-sonnet-4-6', {}, 'chat'],
    ['/healthz', {}, 'chat'],
    ['/admin/api/keys', {}, 'chat'],
    ['/dashboard/', {}, 'chat'],
    ['/gateway/../admin/api/keys', {}, 'chat'],
    ['/gateway/v1/../../admin', {}, 'messages'],
    ['/gateway/v1/./messages', {}, 'messages'],
    ['/gateway/v1//messages', {}, 'messages'],
    ['/gateway/%2e%2e/admin', {}, 'chat'],
    ['/gateway/v1/messages%2f..', {}, 'messages'],
    ['/gateway/', {}, 'chat'],
    ['/gateway', {}, 'chat'],
    ['/GATEWAY/v1/messages', {}, 'chat'],
    ['/gateway/v1/mess\\ages', {}, 'messages'],
  ];
  for (const [url, headers, format] of cases) {
    t.same(mapProxyPath(url, headers), { kind: 'not_found', format }, url);
  }
});

t.test('errorFormatOf follows the surface prefix', async (t) => {
  const cases: [string, 'messages' | 'chat'][] = [
    ['/gateway/v1', 'messages'],
    ['/gateway/v1/messages', 'messages'],
    ['/gateway/v1x', 'chat'],
    ['/gateway/openai/v1/chat/completions', 'chat'],
    ['/gateway/other', 'chat'],
  ];
  for (const [path, format] of cases) t.equal(errorFormatOf(path), format, path);
});
