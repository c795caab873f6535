// Which provider serves a model, and the start-up check that a models file names only providers there are.
import t from 'tap';
import { ConfigError } from '../../../src/config/config-error.js';
import { createAnthropicProvider } from '../../../src/providers/anthropic/anthropic-provider.js';
import { providerSet } from '../../../src/providers/provider.js';

const options = { connections: 1, connectTimeoutMs: 1000, headersTimeoutMs: 1000, bodyTimeoutMs: 1000 };

t.test('a model that names no provider, or the anthropic one, is served by it', async (t) => {
  const anthropic = createAnthropicProvider('http://127.0.0.1:9', 'sk-test', options);
  t.teardown(() => anthropic.close());
  const set = providerSet([anthropic], 'anthropic', [{ id: 'a' }, { id: 'b', provider: 'anthropic' }]);
  t.equal(set.of(null), anthropic);
  t.equal(set.of({}), anthropic);
  t.equal(set.of({ provider: 'anthropic' }), anthropic);
});

t.test('a models file naming a provider the gateway does not have refuses the start, naming both', async (t) => {
  const anthropic = createAnthropicProvider('http://127.0.0.1:9', 'sk-test', options);
  t.teardown(() => anthropic.close());
  t.throws(() => providerSet([anthropic], 'anthropic', [{ id: 'gpt-x', provider: 'openai' }]), ConfigError);
  t.throws(() => providerSet([anthropic], 'anthropic', [{ id: 'gpt-x', provider: 'openai' }]), { message: /"gpt-x".*"openai".*it has: anthropic/ });
});

t.test('the anthropic provider authenticates with its own credential and scrubs it from error bodies', async (t) => {
  const anthropic = createAnthropicProvider('http://127.0.0.1:9', 'sk-upstream-secret-0123456789', options);
  t.teardown(() => anthropic.close());
  const forwarded = anthropic.forwardedHeaders({ 'x-api-key': 'gateway-key', authorization: 'Bearer gw', 'anthropic-beta': 'x' });
  t.equal(forwarded['x-api-key'], 'sk-upstream-secret-0123456789', 'the client credential is replaced');
  t.equal(forwarded.authorization, undefined);
  t.equal(forwarded['anthropic-beta'], 'x');
  const built = anthropic.builtHeaders(null);
  t.equal(built['x-api-key'], 'sk-upstream-secret-0123456789');
  t.equal(built['content-type'], 'application/json');
  const scrubbed = anthropic.scrubCredential(Buffer.from('{"error":"bad key sk-upstream-secret-0123456789"}')).toString();
  t.notMatch(scrubbed, /sk-upstream-secret/);
});
