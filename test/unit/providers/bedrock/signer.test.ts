// The Bedrock signer: its Signature V4 is checked against the algorithm computed here from its
// definition with node:crypto (canonical request, string to sign, the HMAC key chain), not with the
// library it is built on; a Bedrock API key goes as a bearer token instead.
import { createHash, createHmac } from 'node:crypto';
import t from 'tap';
import { BedrockSigner } from '../../../../src/providers/bedrock/signer.js';
import { bedrockInvokePath } from '../../../../src/providers/bedrock/invoke-path.js';

const CREDENTIALS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const AT = new Date(Date.UTC(2026, 10, 28, 9, 30, 5));
const BODY = Buffer.from('{"max_tokens":5,"messages":[{"role":"user","content":"hi"}],"anthropic_version":"bedrock-2023-05-31"}');

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data).digest();
/** RFC 3986 encoding of one path segment, as Signature V4 wants it. */
const encode = (s: string): string => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Signature V4 from its definition, for a call with no query string. */
function referenceSignature(method: string, path: string, headers: Record<string, string>, body: Buffer, secret: string, region: string): { signature: string; signedHeaders: string } {
  const names = Object.keys(headers).filter((n) => n !== 'authorization').sort();
  const canonicalHeaders = names.map((n) => `${n}:${headers[n]!.trim()}\n`).join('');
  const signedHeaders = names.join(';');
  // Services other than S3 encode the (already encoded) path once more.
  const canonicalUri = path.split('/').map(encode).join('/');
  const canonicalRequest = [method, canonicalUri, '', canonicalHeaders, signedHeaders, sha256(body)].join('\n');
  const amzDate = headers['x-amz-date']!;
  const scope = `${amzDate.slice(0, 8)}/${region}/bedrock/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, amzDate.slice(0, 8)), region), 'bedrock'), 'aws4_request');
  return { signature: hmac(key, stringToSign).toString('hex'), signedHeaders };
}

t.test('Signature V4 over method, encoded path, headers and body, as defined', async (t) => {
  const signer = new BedrockSigner({ kind: 'sigv4', region: 'us-east-1', credentials: CREDENTIALS }, () => AT);
  const url = new URL(`https://bedrock-runtime.us-east-1.amazonaws.com${bedrockInvokePath('us.anthropic.claude-sonnet-4-6-v1:0', false)}`);
  const headers = await signer.headersFor({ method: 'POST', url, headers: { 'content-type': 'application/json', accept: 'application/json' }, body: BODY });
  t.equal(headers.host, 'bedrock-runtime.us-east-1.amazonaws.com');
  t.equal(headers['x-amz-date'], '20261128T093005Z');
  t.equal(headers['x-amz-content-sha256'], sha256(BODY));
  t.equal(headers['content-type'], 'application/json', "the call's own headers stay");
  const reference = referenceSignature('POST', url.pathname, headers, BODY, CREDENTIALS.secretAccessKey, 'us-east-1');
  t.equal(
    headers.authorization,
    `AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261128/us-east-1/bedrock/aws4_request, SignedHeaders=${reference.signedHeaders}, Signature=${reference.signature}`,
  );
  t.equal(reference.signedHeaders, 'accept;content-type;host;x-amz-content-sha256;x-amz-date');
});

t.test('a session token is sent and signed; a port in the URL is part of the signed host', async (t) => {
  const signer = new BedrockSigner({ kind: 'sigv4', region: 'eu-west-3', credentials: { ...CREDENTIALS, sessionToken: 'FwoGZXIvYXdzE-session' } }, () => AT);
  const url = new URL(`http://127.0.0.1:9099${bedrockInvokePath('anthropic.claude-haiku-4-5-20251001-v1:0', true)}`);
  const headers = await signer.headersFor({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body: BODY });
  t.equal(headers['x-amz-security-token'], 'FwoGZXIvYXdzE-session');
  t.equal(headers.host, '127.0.0.1:9099');
  const reference = referenceSignature('POST', url.pathname, headers, BODY, CREDENTIALS.secretAccessKey, 'eu-west-3');
  t.match(headers.authorization, `Credential=AKIDEXAMPLE/20261128/eu-west-3/bedrock/aws4_request, SignedHeaders=${reference.signedHeaders}, Signature=${reference.signature}`);
  t.match(reference.signedHeaders, /x-amz-security-token/);
});

t.test('another body, another signature', async (t) => {
  const signer = new BedrockSigner({ kind: 'sigv4', region: 'us-east-1', credentials: CREDENTIALS }, () => AT);
  const url = new URL('https://bedrock-runtime.us-east-1.amazonaws.com/model/m/invoke');
  const a = await signer.headersFor({ method: 'POST', url, headers: {}, body: BODY });
  const b = await signer.headersFor({ method: 'POST', url, headers: {}, body: Buffer.concat([BODY, Buffer.from(' ')]) });
  t.not(a.authorization, b.authorization);
});

t.test('a Bedrock API key is a bearer token, nothing signed', async (t) => {
  const signer = new BedrockSigner({ kind: 'api-key', apiKey: 'ABSKbedrock-api-key' });
  const headers = await signer.headersFor({ method: 'POST', url: new URL('https://bedrock-runtime.us-east-1.amazonaws.com/model/m/invoke'), headers: { accept: 'application/json' }, body: BODY });
  t.same(headers, { accept: 'application/json', host: 'bedrock-runtime.us-east-1.amazonaws.com', authorization: 'Bearer ABSKbedrock-api-key' });
});
