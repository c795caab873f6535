// The `anthropic` entries of the models file: { "id", "type": "anthropic", "baseUrl"?, "apiKeyEnv" }.
// The API key is required against the provider's own endpoint; a private endpoint (`baseUrl`) may
// need none.
import type { ProviderType } from '../provider-type.js';
import { ANTHROPIC_ENDPOINT, createAnthropicProvider } from './anthropic-provider.js';

export const anthropicType: ProviderType = {
  type: 'anthropic',
  dialect: 'anthropic',
  configure(fields) {
    const baseUrl = fields.optionalUrl('baseUrl');
    const settings = { baseUrl: baseUrl ?? ANTHROPIC_ENDPOINT, apiKey: fields.secret('apiKeyEnv', { required: baseUrl === null }) };
    return (id, options) => createAnthropicProvider(id, settings, options);
  },
};
