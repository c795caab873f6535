// Service accounts for tests and demos: an RSA key pair made with node:crypto, and the JSON key file
// Google would hand out for it, its `token_uri` pointing at a simulator. The simulator is told the
// public key (VertexAccountOptions), the gateway reads the file (src/providers/vertex/service-account.ts).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';

export interface GeneratedServiceAccount {
  clientEmail: string;
  projectId: string;
  privateKeyId: string;
  privateKeyPem: string;
  publicKeyPem: string;
}

/** A new service account (a 2048-bit RSA key, as Google's). */
export function generateServiceAccount(options: { clientEmail?: string; projectId?: string } = {}): GeneratedServiceAccount {
  const projectId = options.projectId ?? 'sim-project';
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    clientEmail: options.clientEmail ?? `gateway@${projectId}.iam.gserviceaccount.com`,
    projectId,
    privateKeyId: randomBytes(20).toString('hex'),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** The key file's JSON, as Google writes it. */
export function serviceAccountJson(account: GeneratedServiceAccount, tokenUri: string): Record<string, string> {
  return {
    type: 'service_account',
    project_id: account.projectId,
    private_key_id: account.privateKeyId,
    private_key: account.privateKeyPem,
    client_email: account.clientEmail,
    client_id: '100000000000000000000',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: tokenUri,
    auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
    universe_domain: 'googleapis.com',
  };
}

/** Writes the key file (readable by its owner only, as a private key should be). */
export async function writeServiceAccountFile(path: string, account: GeneratedServiceAccount, tokenUri: string): Promise<void> {
  await writeFile(path, `${JSON.stringify(serviceAccountJson(account, tokenUri), null, 2)}\n`, { mode: 0o600 });
}
