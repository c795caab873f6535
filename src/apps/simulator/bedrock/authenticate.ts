// Who a Bedrock call is from, checked as AWS checks it. A Bedrock API key comes as
// `Authorization: Bearer`; otherwise the call is signed with AWS Signature V4: the signature is
// computed again here with @smithy/signature-v4 from the account's secret, over the method, the
// path and query as sent, the headers the client listed as signed and the body, and must match.
// The date must be within 15 minutes of the simulator's clock, the scope must name the account's
// region and the `bedrock` service, and a session token, when the account has one, must come with it.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256, signingQuery } from '../../../providers/bedrock/signer.js';
import { secretEquals } from '../../../lib/secret-equal.js';
import type { AccountSet, BedrockAccount } from '../accounts/accounts.js';

/** A refusal before the call reaches the model: Bedrock's 403 shapes. */
export interface AuthRefusal {
  status: number;
  exception: string;
  message: string;
}

interface Signed {
  accessKeyId: string;
  date: string;
  region: string;
  service: string;
  signedHeaders: string[];
  signature: string;
}

const AUTH_FORMAT = /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;_.-]+),\s*Signature=([0-9a-f]{64})$/;
const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;
const SKEW_MS = 15 * 60_000;

const MISSING: AuthRefusal = { status: 403, exception: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' };
const BAD_TOKEN: AuthRefusal = { status: 403, exception: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' };
const BAD_API_KEY: AuthRefusal = { status: 403, exception: 'AccessDeniedException', message: 'Authentication failed: Please make sure your API Key is valid.' };
const MISMATCH: AuthRefusal = {
  status: 403,
  exception: 'InvalidSignatureException',
  message: 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
};

function invalidSignature(message: string): AuthRefusal {
  return { status: 403, exception: 'InvalidSignatureException', message };
}

function single(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(',') : v;
}

/** The account the call claims to be from, before its signature is checked (faults aim by account). */
export type Claim = { kind: 'api-key'; account: BedrockAccount } | { kind: 'sigv4'; account: BedrockAccount; signed: Signed } | { kind: 'refused'; refusal: AuthRefusal };

export function claimOf(req: IncomingMessage, accounts: AccountSet): Claim {
  const auth = req.headers.authorization;
  if (auth === undefined || auth === '') return { kind: 'refused', refusal: MISSING };
  if (auth.startsWith('Bearer ')) {
    const account = accounts.bedrockByBearer(auth.slice(7).trim());
    return account === null ? { kind: 'refused', refusal: BAD_API_KEY } : { kind: 'api-key', account };
  }
  const m = AUTH_FORMAT.exec(auth);
  if (m === null) return { kind: 'refused', refusal: { status: 403, exception: 'IncompleteSignatureException', message: 'Authorization header requires Credential, SignedHeaders and Signature.' } };
  const account = accounts.bedrockByKeyId(m[1]!);
  if (account === null) return { kind: 'refused', refusal: BAD_TOKEN };
  return { kind: 'sigv4', account, signed: { accessKeyId: m[1]!, date: m[2]!, region: m[3]!, service: m[4]!, signedHeaders: m[5]!.split(';'), signature: m[6]! } };
}

function parseAmzDate(text: string | undefined): Date | null {
  const m = text === undefined ? null : AMZ_DATE.exec(text);
  return m === null ? null : new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!));
}

export interface SignedCall {
  req: IncomingMessage;
  /** The path as sent, still percent-encoded. */
  path: string;
  rawQuery: string;
  body: Buffer;
}

/** Checks a Signature V4 claim: null when it holds, else Bedrock's refusal. */
export async function checkSignature(claim: Extract<Claim, { kind: 'sigv4' }>, call: SignedCall, nowMs: number): Promise<AuthRefusal | null> {
  const { account, signed } = claim;
  const options = account.options;
  const { req } = call;
  const amzDate = single(req.headers['x-amz-date']);
  const date = parseAmzDate(amzDate);
  if (date === null) return invalidSignature('Authorization header requires existence of either a \'X-Amz-Date\' or a \'Date\' header.');
  if (date.getTime() < nowMs - SKEW_MS || date.getTime() > nowMs + SKEW_MS) return invalidSignature(`Signature expired or not yet current: ${amzDate} is more than 15 minutes from the server's time.`);
  if (signed.date !== amzDate!.slice(0, 8)) return invalidSignature('Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP.');
  if (signed.region !== account.region) return invalidSignature(`Credential should be scoped to a valid region. ${signed.region} is wrong; expecting ${account.region}`);
  if (signed.service !== 'bedrock') return invalidSignature(`Credential should be scoped to correct service: 'bedrock'.`);
  const token = single(req.headers['x-amz-security-token']);
  if ((options.sessionToken ?? undefined) !== token) return BAD_TOKEN;
  const contentHash = single(req.headers['x-amz-content-sha256']);
  if (contentHash !== undefined && contentHash !== createHash('sha256').update(call.body).digest('hex')) {
    return { status: 400, exception: 'XAmzContentSHA256Mismatch', message: 'The provided x-amz-content-sha256 header does not match what was computed.' };
  }
  if (!signed.signedHeaders.includes('host')) return invalidSignature("'Host' must be a signed header.");
  const headers: Record<string, string> = {};
  for (const name of signed.signedHeaders) {
    const value = single(req.headers[name]);
    if (value === undefined) return MISMATCH;
    headers[name] = value;
  }
  const signer = new SignatureV4({
    service: 'bedrock',
    region: account.region,
    credentials: { accessKeyId: options.accessKeyId!, secretAccessKey: options.secretAccessKey!, sessionToken: options.sessionToken },
    sha256: Sha256,
  });
  const expected = async (host: string): Promise<string> => {
    const request = { method: req.method ?? 'POST', protocol: 'http:', hostname: host, path: call.path, query: signingQuery(new URLSearchParams(call.rawQuery)), headers: { ...headers, host }, body: call.body };
    const out = await signer.sign(request, { signingDate: date });
    return /Signature=([0-9a-f]+)/.exec(String(out.headers.authorization))![1]!;
  };
  if (secretEquals(signed.signature, await expected(headers.host!))) return null;
  // The official SDKs sign the host name alone, as AWS endpoints are on the default port; the
  // simulator is not, so a signed host without the port it was reached on is accepted too.
  const bare = headers.host!.replace(/:\d+$/, '');
  if (bare !== headers.host && secretEquals(signed.signature, await expected(bare))) return null;
  return MISMATCH;
}
