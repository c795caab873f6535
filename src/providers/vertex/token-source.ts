// Access tokens for a Vertex route: obtained from the service account's `token_uri` by the JWT-bearer
// grant (jwt-grant.ts), kept until shortly before they expire, refreshed by one call at a time.
//
// - A token is used until `refreshMarginMs` before its expiry (5 minutes, as Google's own libraries
//   do, but at most half the token's lifetime, so short-lived tokens are not refreshed on every call).
// - Inside that margin the still-valid token is returned at once and a refresh starts behind it;
//   callers never wait for a refresh while they hold a usable token.
// - Without a usable token, callers wait for the refresh; concurrent callers share that one call.
// - A failed refresh is a TokenRefreshError (refused by the endpoint, endpoint unreachable, an answer
//   that is not a token) that a caller maps to its own error; the next call tries again.
// The HTTP call goes through the project's upstream client (src/upstream/), to whatever host the
// file's token_uri names.
import { isRecord } from '../../lib/is-record.js';
import { SingleFlight } from '../../lib/single-flight.js';
import { UpstreamClient, type UpstreamOptions } from '../../upstream/client.js';
import { CLOUD_PLATFORM_SCOPE, grantRequestBody, jwtAssertion } from './jwt-grant.js';
import type { ServiceAccount } from './service-account.js';

export interface TokenSourceOptions {
  /** Milliseconds since the epoch (tests inject a clock); the wall clock by default. */
  now?: () => number;
  /** Refresh this long before expiry (default 5 minutes; at most half the token's lifetime). */
  refreshMarginMs?: number;
  scope?: string;
  /** Deadline of one token request (default 15 s). */
  timeoutMs?: number;
}

export type TokenRefreshFailure = 'refused' | 'unreachable' | 'bad_answer';

export class TokenRefreshError extends Error {
  override readonly name = 'TokenRefreshError';

  constructor(
    message: string,
    /** Refused: the endpoint said no (a bad key, an unknown account); unreachable: no answer; bad_answer: not a token. */
    readonly failure: TokenRefreshFailure,
    /** The token endpoint's HTTP status, when it answered. */
    readonly status: number | null,
  ) {
    super(message);
  }
}

interface Held {
  token: string;
  expiresAt: number;
  refreshAt: number;
}

const DEFAULT_MARGIN_MS = 5 * 60_000;
const DEFAULT_TIMEOUT_MS = 15_000;
const FORM = 'application/x-www-form-urlencoded';

/** A token source's own connection pool: one connection, the request's deadline as every timeout. */
export function tokenClientOptions(timeoutMs: number = DEFAULT_TIMEOUT_MS): UpstreamOptions {
  return { connections: 1, connectTimeoutMs: timeoutMs, headersTimeoutMs: timeoutMs, bodyTimeoutMs: timeoutMs };
}

export class VertexTokenSource {
  private held: Held | null = null;
  private readonly flight = new SingleFlight<Held>();
  private readonly now: () => number;
  private readonly marginMs: number;
  private readonly scope: string;
  private readonly timeoutMs: number;
  private readonly path: string;

  constructor(
    private readonly account: ServiceAccount,
    /** A client whose base URL is the account's token_uri (forAccount() builds one). */
    private readonly client: UpstreamClient,
    options: TokenSourceOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.marginMs = options.refreshMarginMs ?? DEFAULT_MARGIN_MS;
    this.scope = options.scope ?? CLOUD_PLATFORM_SCOPE;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.path = new URL(account.tokenUri).search;
  }

  /** A source with its own upstream client for the account's token_uri. */
  static forAccount(account: ServiceAccount, options: TokenSourceOptions = {}): VertexTokenSource {
    return new VertexTokenSource(account, new UpstreamClient(account.tokenUri, tokenClientOptions(options.timeoutMs)), options);
  }

  /** A usable access token: the held one, or a fresh one. */
  async token(): Promise<string> {
    const held = this.held;
    const now = this.now();
    if (held !== null && now < held.expiresAt) {
      if (now >= held.refreshAt) this.refresh().catch(() => undefined); // behind the held token; the next call tries again
      return held.token;
    }
    return (await this.refresh()).token;
  }

  /** Forgets the held token (an upstream said it is no longer valid): the next call fetches one. */
  invalidate(token: string): void {
    if (this.held?.token === token) this.held = null;
  }

  close(): Promise<void> {
    return this.client.close();
  }

  private refresh(): Promise<Held> {
    return this.flight.run('token', async () => {
      const held = await this.fetchToken();
      this.held = held;
      return held;
    });
  }

  private async fetchToken(): Promise<Held> {
    const file = this.account.file;
    const sentAt = this.now();
    let status: number;
    let text: string;
    try {
      const res = await this.client.request({
        method: 'POST',
        path: this.path,
        headers: { 'content-type': FORM, accept: 'application/json' },
        body: grantRequestBody(jwtAssertion(this.account, sentAt, this.scope)),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      status = res.statusCode;
      text = await res.body.text();
    } catch (err) {
      const code = (err as { code?: string; name?: string }).code ?? (err as { name?: string }).name ?? 'error';
      throw new TokenRefreshError(`${file}: the token endpoint could not be reached (${code})`, 'unreachable', null);
    }
    const body = parseJson(text);
    if (status !== 200) throw new TokenRefreshError(`${file}: the token endpoint refused the grant (HTTP ${status}${oauthReason(body)})`, 'refused', status);
    if (!isRecord(body) || typeof body.access_token !== 'string' || body.access_token === '' || typeof body.expires_in !== 'number' || !(body.expires_in > 0)) {
      throw new TokenRefreshError(`${file}: the token endpoint's answer holds no access token and lifetime`, 'bad_answer', status);
    }
    const lifetimeMs = body.expires_in * 1000;
    const margin = Math.min(this.marginMs, lifetimeMs / 2);
    // Measured from when the grant was sent: the token cannot outlive what the endpoint promised then.
    return { token: body.access_token, expiresAt: sentAt + lifetimeMs, refreshAt: sentAt + lifetimeMs - margin };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** `: invalid_grant: Invalid JWT Signature.` from Google's OAuth error body, when it is one. */
function oauthReason(body: unknown): string {
  if (!isRecord(body) || typeof body.error !== 'string') return '';
  const description = typeof body.error_description === 'string' ? `: ${body.error_description}` : '';
  return ` ${body.error}${description}`.slice(0, 300);
}
