// How a Bedrock call proves who sends it: AWS Signature V4 (service `bedrock`, the route's region)
// from an access key, its secret and an optional session token, computed by @smithy/signature-v4
// over the method, path, query, headers and body exactly as they go out; or a Bedrock API key sent
// as a bearer token instead. Credentials are given values (the route's settings), never looked up.
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { BEDROCK_SERVICE } from './invoke-path.js';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export type BedrockAuth = { kind: 'sigv4'; region: string; credentials: AwsCredentials } | { kind: 'api-key'; apiKey: string };

/** One request as it will be sent. */
export interface OutgoingCall {
  method: 'GET' | 'POST';
  /** The full URL: its host, path (percent-encoded as sent) and query are signed. */
  url: URL;
  /** Every header that goes out with the call, by lower-case name (host excepted: it is taken from `url`). */
  headers: Readonly<Record<string, string>>;
  body: Buffer;
}

/** node:crypto's SHA-256, in the shape @smithy/signature-v4 asks for. */
export const Sha256 = Hash.bind(null, 'sha256');

/** A query string as the signer takes it: each name with its value, or its values when repeated. */
export function signingQuery(params: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of params) {
    const had = query[name];
    query[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return query;
}

export class BedrockSigner {
  private readonly sigv4: SignatureV4 | null;

  constructor(
    private readonly auth: BedrockAuth,
    /** The signing time (tests pin it); the wall clock by default. */
    private readonly now: () => Date = () => new Date(),
  ) {
    this.sigv4 = auth.kind === 'sigv4' ? new SignatureV4({ service: BEDROCK_SERVICE, region: auth.region, credentials: { ...auth.credentials }, sha256: Sha256 }) : null;
  }

  /**
   * The headers to send: the call's own, `host`, and what authenticates it (`authorization`, and for
   * Signature V4 `x-amz-date`, `x-amz-content-sha256`, `x-amz-security-token` with a session token).
   * A signed call must go out with exactly these headers and this body.
   */
  async headersFor(call: OutgoingCall): Promise<Record<string, string>> {
    const headers: Record<string, string> = { ...call.headers, host: call.url.host };
    if (this.sigv4 === null) {
      headers.authorization = `Bearer ${(this.auth as { apiKey: string }).apiKey}`;
      return headers;
    }
    const signed = await this.sigv4.sign(
      {
        method: call.method,
        protocol: call.url.protocol,
        hostname: call.url.hostname,
        port: call.url.port === '' ? undefined : Number(call.url.port),
        path: call.url.pathname,
        query: signingQuery(call.url.searchParams),
        headers,
        body: call.body,
      },
      { signingDate: this.now() },
    );
    return signed.headers;
  }
}
