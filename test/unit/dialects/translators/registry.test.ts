// The translator registry: each pair found by client and provider dialect, a pair it lacks refused
// at start (check) and never met by a request (get throws).
import t from 'tap';
import { Translators } from '../../../../src/dialects/translators/registry.js';
import { ConfigError } from '../../../../src/config/config-error.js';
import { messagesToAnthropic } from '../../../../src/dialects/translators/messages-to-anthropic/translator.js';
import { chatToAnthropic } from '../../../../src/dialects/translators/chat-to-anthropic/translator.js';

t.test('get: each pair, by both dialects', async (t) => {
  const registry = new Translators([messagesToAnthropic, chatToAnthropic]);
  t.equal(registry.get('messages', 'anthropic'), messagesToAnthropic);
  t.equal(registry.get('chat', 'anthropic'), chatToAnthropic);
  t.throws(() => registry.get('responses', 'anthropic'), /no translator from responses to anthropic/);
});

t.test('check: a surface that could meet a provider it has no translator to refuses the start', async (t) => {
  const registry = new Translators([messagesToAnthropic, chatToAnthropic]);
  t.doesNotThrow(() => registry.check(['messages', 'chat'], [{ id: 'main', dialect: 'anthropic' }]));
  const refused = t.throws(() => registry.check(['messages', 'responses'], [{ id: 'main', dialect: 'anthropic' }]));
  t.ok(refused instanceof ConfigError);
  t.match((refused as Error).message, /the provider "main" speaks anthropic, and the responses surface has no translator to it/);
});
