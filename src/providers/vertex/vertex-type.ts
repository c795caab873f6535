// The `vertex` entries of the models file:
//   { "id", "type": "vertex", "project", "region", "credentialsFile"?, "baseUrl"?, "anthropicVersion"? }
// The service-account key file is `credentialsFile`, else the one GOOGLE_APPLICATION_CREDENTIALS
// names; it is read and checked at start (a file that cannot be read or is no service account's
// key refuses the start with one line), and its token_uri is where access tokens come from.
import { readFileSync } from 'node:fs';
import type { ProviderSettingName } from '../../config/setting-names.js';
import type { ProviderFields } from '../provider-fields.js';
import type { ProviderType } from '../provider-type.js';
import { vertexEndpoint } from './predict-path.js';
import { VERTEX_ANTHROPIC_VERSION } from './request-body.js';
import { parseServiceAccount, ServiceAccountError, type ServiceAccount } from './service-account.js';
import { createVertexProvider } from './vertex-provider.js';

export const GOOGLE_CREDENTIALS_ENV: ProviderSettingName = 'GOOGLE_APPLICATION_CREDENTIALS';

const REGION = /^(global|[a-z]+-[a-z]+\d+)$/;

export const vertexType: ProviderType = {
  type: 'vertex',
  dialect: 'anthropic',
  configure(fields) {
    const project = fields.string('project');
    const region = fields.string('region');
    if (!REGION.test(region)) throw fields.fail('region', `is not a Google Cloud region such as europe-west1 (or global), got "${region}"`);
    const settings = {
      endpoint: fields.optionalUrl('baseUrl') ?? vertexEndpoint(region),
      project,
      region,
      account: serviceAccountOf(fields),
      anthropicVersion: fields.optionalString('anthropicVersion') ?? VERTEX_ANTHROPIC_VERSION,
    };
    return (id, options) => createVertexProvider(id, settings, options);
  },
};

function serviceAccountOf(fields: ProviderFields): ServiceAccount {
  const file = fields.optionalString('credentialsFile') ?? fields.environment(GOOGLE_CREDENTIALS_ENV)?.trim();
  if (file === undefined || file === '') throw fields.fail('credentialsFile', `is required: the service-account key file (or set ${GOOGLE_CREDENTIALS_ENV})`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw fields.fail('credentialsFile', `${file}: the service-account file cannot be read (${(err as { code?: string }).code ?? 'error'})`);
  }
  try {
    return parseServiceAccount(text, file);
  } catch (err) {
    if (err instanceof ServiceAccountError) throw fields.fail('credentialsFile', err.message);
    throw err;
  }
}
