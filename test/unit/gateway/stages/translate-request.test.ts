import t from 'tap';
import { validateHeaderValue } from 'node:http';
import { DEFAULT_MODELS } from '../../../../src/catalog/model.js';
import { warningsHeaderValue } from '../../../../src/gateway/stages/translate-request.js';
import { translateChatRequest } from '../../../../src/dialects/translators/chat-to-anthropic/request.js';

const model = DEFAULT_MODELS.find((m) => m.id === 'claude-sonnet-4-6')!;

t.test('the warnings header lists every kind with its detail, client field names made safe by the translation', async (t) => {
  const body = { model: model.id, max_tokens: 10, messages: [{ role: 'user', content: 'x' }], seed: 1, 'bad\r\nname: x': 1, '': 1, n: 2 };
  const r = translateChatRequest(body, model, { strict: false });
  if (!r.ok) throw new Error(r.message);
  const value = warningsHeaderValue(r.warnings);
  t.equal(value, 'field_ignored:seed, field_ignored:bad??name??x, field_ignored:?, n_reduced:n');
  t.doesNotThrow(() => validateHeaderValue('x-gateway-translation-warnings', value));
});
