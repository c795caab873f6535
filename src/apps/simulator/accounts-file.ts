// The accounts of a standalone simulator (`model-gateway simulator --accounts-file <path>`), as JSON:
//   { "accounts": [{ "id", "apiKey", "limits": { "requestsPerMinute", "inputTokensPerMinute", "outputTokensPerMinute" } }],
//     "bedrock":  [{ "id", "region", "accessKeyId", "secretAccessKey", "sessionToken", "apiKey", "limits" }],
//     "vertex":   [{ "id", "credentialsFile" | ("clientEmail" and "publicKey"), "project", "tokenLifetimeSeconds", "limits" }] }
// the shapes of AccountOptions, except that a Vertex account may name the service-account key file the
// gateway reads (its client_email and the public half of its private_key are taken). Every field is
// checked; a refusal is one line naming the file and the field.
import { createPublicKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isRecord } from '../../lib/is-record.js';
import { readServiceAccountFile } from '../../providers/vertex/service-account.js';
import type { AccountOptions, AnthropicAccountOptions, BedrockAccountOptions, RateLimitOptions, VertexAccountOptions } from './types.js';

export class AccountsFileError extends Error {
  override readonly name = 'AccountsFileError';
}

type Json = Record<string, unknown>;

class Reader {
  constructor(private readonly file: string) {}

  fail(where: string, reason: string): never {
    throw new AccountsFileError(`${this.file}: ${where} ${reason}`);
  }

  only(o: Json, where: string, keys: readonly string[]): void {
    for (const key of Object.keys(o)) if (!keys.includes(key)) this.fail(`${where}.${key}`, 'is not a known field');
  }

  string(o: Json, key: string, where: string, required: boolean): string | undefined {
    const v = o[key];
    if (v === undefined && !required) return undefined;
    if (typeof v !== 'string' || v === '') this.fail(`${where}.${key}`, 'must be a non-empty string');
    return v;
  }

  positive(o: Json, key: string, where: string): number | undefined {
    const v = o[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) this.fail(`${where}.${key}`, 'must be a positive number');
    return v;
  }

  list(o: Json, key: string): Json[] | undefined {
    const v = o[key];
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || !v.every(isRecord)) this.fail(key, 'must be a list of objects');
    return v as Json[];
  }

  limits(o: Json, where: string): RateLimitOptions | undefined {
    const v = o.limits;
    if (v === undefined) return undefined;
    if (!isRecord(v)) this.fail(`${where}.limits`, 'must be an object');
    this.only(v, `${where}.limits`, ['requestsPerMinute', 'inputTokensPerMinute', 'outputTokensPerMinute']);
    return {
      requestsPerMinute: this.positive(v, 'requestsPerMinute', `${where}.limits`),
      inputTokensPerMinute: this.positive(v, 'inputTokensPerMinute', `${where}.limits`),
      outputTokensPerMinute: this.positive(v, 'outputTokensPerMinute', `${where}.limits`),
    };
  }
}

function anthropicAccount(r: Reader, o: Json, where: string): AnthropicAccountOptions {
  r.only(o, where, ['id', 'apiKey', 'limits']);
  return { id: r.string(o, 'id', where, false), apiKey: r.string(o, 'apiKey', where, true)!, limits: r.limits(o, where) };
}

function bedrockAccount(r: Reader, o: Json, where: string): BedrockAccountOptions {
  r.only(o, where, ['id', 'region', 'accessKeyId', 'secretAccessKey', 'sessionToken', 'apiKey', 'limits']);
  const account: BedrockAccountOptions = {
    id: r.string(o, 'id', where, false),
    region: r.string(o, 'region', where, false),
    accessKeyId: r.string(o, 'accessKeyId', where, false),
    secretAccessKey: r.string(o, 'secretAccessKey', where, false),
    sessionToken: r.string(o, 'sessionToken', where, false),
    apiKey: r.string(o, 'apiKey', where, false),
    limits: r.limits(o, where),
  };
  if ((account.accessKeyId === undefined) !== (account.secretAccessKey === undefined)) r.fail(where, 'needs both accessKeyId and secretAccessKey, or neither');
  if (account.accessKeyId === undefined && account.apiKey === undefined) r.fail(where, 'needs accessKeyId and secretAccessKey, or apiKey');
  return account;
}

async function vertexAccount(r: Reader, o: Json, where: string): Promise<VertexAccountOptions> {
  r.only(o, where, ['id', 'credentialsFile', 'clientEmail', 'publicKey', 'project', 'tokenLifetimeSeconds', 'limits']);
  const common = {
    id: r.string(o, 'id', where, false),
    project: r.string(o, 'project', where, false),
    tokenLifetimeSeconds: r.positive(o, 'tokenLifetimeSeconds', where),
    limits: r.limits(o, where),
  };
  const credentialsFile = r.string(o, 'credentialsFile', where, false);
  if (credentialsFile !== undefined) {
    const account = await readServiceAccountFile(credentialsFile);
    return { ...common, clientEmail: account.clientEmail, publicKey: createPublicKey(account.privateKey) };
  }
  const clientEmail = r.string(o, 'clientEmail', where, false);
  const publicKey = r.string(o, 'publicKey', where, false);
  if (clientEmail === undefined || publicKey === undefined) r.fail(where, 'needs credentialsFile, or clientEmail and publicKey');
  try {
    createPublicKey(publicKey);
  } catch {
    r.fail(`${where}.publicKey`, 'is not a PEM key');
  }
  return { ...common, clientEmail, publicKey };
}

/** The account options a file's text describes (pure but for the key files Vertex accounts name). */
export async function parseAccountsFile(text: string, file: string): Promise<AccountOptions> {
  const r = new Reader(file);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AccountsFileError(`${file}: not valid JSON`);
  }
  if (!isRecord(parsed)) throw new AccountsFileError(`${file}: must hold a JSON object`);
  r.only(parsed, 'the file', ['accounts', 'bedrock', 'vertex']);
  const out: AccountOptions = {};
  const anthropic = r.list(parsed, 'accounts');
  if (anthropic !== undefined) out.accounts = anthropic.map((o, i) => anthropicAccount(r, o, `accounts.${i}`));
  const bedrock = r.list(parsed, 'bedrock');
  if (bedrock !== undefined) out.bedrock = bedrock.map((o, i) => bedrockAccount(r, o, `bedrock.${i}`));
  const vertex = r.list(parsed, 'vertex');
  if (vertex !== undefined) out.vertex = await Promise.all(vertex.map((o, i) => vertexAccount(r, o, `vertex.${i}`)));
  return out;
}

export async function readAccountsFile(file: string): Promise<AccountOptions> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new AccountsFileError(`${file}: cannot be read (${(err as { code?: string }).code ?? 'unknown error'})`);
  }
  return parseAccountsFile(text, file);
}
