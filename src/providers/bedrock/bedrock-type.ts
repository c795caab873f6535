// The `bedrock` entries of the models file:
//   { "id", "type": "bedrock", "region", "baseUrl"?, "anthropicVersion"?,
//     "apiKeyEnv"? | "accessKeyIdEnv"?, "secretAccessKeyEnv"?, "sessionTokenEnv"? }
// A Bedrock API key (`apiKeyEnv`) is sent as a bearer token; otherwise requests are signed with AWS
// Signature V4 from the access key in AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN
// (or the variables the entry names). With neither, AWS_BEARER_TOKEN_BEDROCK, the name AWS's own
// tools read a Bedrock API key from, is the last resort.
import type { ProviderSettingName } from '../../config/setting-names.js';
import type { ProviderFields } from '../provider-fields.js';
import type { ProviderType } from '../provider-type.js';
import { bedrockEndpoint } from './invoke-path.js';
import { BEDROCK_ANTHROPIC_VERSION } from './request-body.js';
import type { BedrockAuth } from './signer.js';

export const AWS_ENV: Readonly<Record<'accessKeyId' | 'secretAccessKey' | 'sessionToken' | 'bearerToken', ProviderSettingName>> = Object.freeze({
  accessKeyId: 'AWS_ACCESS_KEY_ID',
  secretAccessKey: 'AWS_SECRET_ACCESS_KEY',
  sessionToken: 'AWS_SESSION_TOKEN',
  bearerToken: 'AWS_BEARER_TOKEN_BEDROCK',
});

const REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/;

export const bedrockType: ProviderType = {
  type: 'bedrock',
  dialect: 'anthropic',
  configure(fields) {
    const region = fields.string('region');
    if (!REGION.test(region)) throw fields.fail('region', `is not an AWS region name such as us-east-1, got "${region}"`);
    const settings = {
      endpoint: fields.optionalUrl('baseUrl') ?? bedrockEndpoint(region),
      auth: authOf(fields, region),
      anthropicVersion: fields.optionalString('anthropicVersion') ?? BEDROCK_ANTHROPIC_VERSION,
    };
    // The provider (with the AWS signing and event-stream libraries) is loaded only by a gateway that has
    // a Bedrock route: about 0.1 s of CPU at every start otherwise.
    return async (id, options) => (await import('./bedrock-provider.js')).createBedrockProvider(id, settings, options);
  },
};

function authOf(fields: ProviderFields, region: string): BedrockAuth {
  const apiKey = fields.secret('apiKeyEnv', { required: false });
  if (apiKey !== null) return { kind: 'api-key', apiKey };
  const namesKeys = fields.optionalString('accessKeyIdEnv') !== null || fields.optionalString('secretAccessKeyEnv') !== null;
  const accessKeyId = fields.secret('accessKeyIdEnv', { fallbackName: AWS_ENV.accessKeyId, required: false });
  if (accessKeyId === null && !namesKeys) {
    const bearer = fields.secret('apiKeyEnv', { fallbackName: AWS_ENV.bearerToken, required: false });
    if (bearer !== null) return { kind: 'api-key', apiKey: bearer };
    throw fields.fail('accessKeyIdEnv', `no credential: ${AWS_ENV.accessKeyId} is not set (name the variables in accessKeyIdEnv and secretAccessKeyEnv, or a Bedrock API key's in apiKeyEnv)`);
  }
  const required = { required: true } as const;
  const credentials = {
    accessKeyId: fields.secret('accessKeyIdEnv', { fallbackName: AWS_ENV.accessKeyId, ...required })!,
    secretAccessKey: fields.secret('secretAccessKeyEnv', { fallbackName: AWS_ENV.secretAccessKey, ...required })!,
  };
  const sessionToken = fields.secret('sessionTokenEnv', { fallbackName: AWS_ENV.sessionToken, required: false });
  return { kind: 'sigv4', region, credentials: sessionToken === null ? credentials : { ...credentials, sessionToken } };
}
