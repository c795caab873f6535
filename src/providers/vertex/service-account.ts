// A Google service-account key file (the JSON a Vertex route's `credentialsFile` or
// GOOGLE_APPLICATION_CREDENTIALS names): who signs (`client_email`), with what (`private_key`), and
// where the signed grant is exchanged for an access token (`token_uri`, whatever host it names).
// Every refusal is one line naming the file and the field; the key itself is never repeated.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isRecord } from '../../lib/is-record.js';

export interface ServiceAccount {
  /** The file it was read from, for messages. */
  file: string;
  clientEmail: string;
  privateKey: KeyObject;
  /** `private_key_id`, sent as the JWT's `kid` when present. */
  privateKeyId: string | null;
  tokenUri: string;
  projectId: string | null;
}

export class ServiceAccountError extends Error {
  override readonly name = 'ServiceAccountError';
}

function requiredString(o: Record<string, unknown>, field: string, file: string): string {
  const v = o[field];
  if (v === undefined || v === null) throw new ServiceAccountError(`${file}: the service-account file has no "${field}"`);
  if (typeof v !== 'string' || v.trim() === '') throw new ServiceAccountError(`${file}: "${field}" must be a non-empty string`);
  return v;
}

function optionalString(o: Record<string, unknown>, field: string): string | null {
  const v = o[field];
  return typeof v === 'string' && v !== '' ? v : null;
}

/** The service account a file's text describes (pure: the text and the name used in messages). */
export function parseServiceAccount(text: string, file: string): ServiceAccount {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ServiceAccountError(`${file}: the service-account file is not valid JSON`);
  }
  if (!isRecord(parsed)) throw new ServiceAccountError(`${file}: the service-account file is not a JSON object`);
  const clientEmail = requiredString(parsed, 'client_email', file);
  const pem = requiredString(parsed, 'private_key', file);
  const tokenUri = requiredString(parsed, 'token_uri', file);
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch {
    throw new ServiceAccountError(`${file}: "private_key" is not a PEM private key`);
  }
  if (privateKey.asymmetricKeyType !== 'rsa') throw new ServiceAccountError(`${file}: "private_key" is not an RSA key (RS256 signs with RSA)`);
  let url: URL;
  try {
    url = new URL(tokenUri);
  } catch {
    throw new ServiceAccountError(`${file}: "token_uri" is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ServiceAccountError(`${file}: "token_uri" is not an http(s) URL`);
  return { file, clientEmail, privateKey, privateKeyId: optionalString(parsed, 'private_key_id'), tokenUri, projectId: optionalString(parsed, 'project_id') };
}

export async function readServiceAccountFile(file: string): Promise<ServiceAccount> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'unknown error';
    throw new ServiceAccountError(`${file}: the service-account file cannot be read (${code})`);
  }
  return parseServiceAccount(text, file);
}
