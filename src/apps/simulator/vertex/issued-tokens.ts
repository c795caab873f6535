// The access tokens the token endpoint issued: opaque strings, each for one service account, with the
// scopes it was granted and when it expires by the simulator's clock.
import { randomBytes } from 'node:crypto';
import type { VertexAccount } from '../accounts/accounts.js';

export interface Grant {
  account: VertexAccount;
  scopes: readonly string[];
  expiresAt: number;
}

export class IssuedTokens {
  private readonly grants = new Map<string, Grant>();

  /** A new token for the account, valid for its token lifetime from `now`. */
  issue(account: VertexAccount, scopes: readonly string[], now: number): { token: string; expiresIn: number } {
    for (const [token, grant] of this.grants) if (grant.expiresAt <= now) this.grants.delete(token);
    const token = `ya29.sim.${randomBytes(24).toString('base64url')}`;
    this.grants.set(token, { account, scopes, expiresAt: now + account.tokenLifetimeSeconds * 1000 });
    return { token, expiresIn: account.tokenLifetimeSeconds };
  }

  /** The grant of a token that is known and not expired at `now`, else null. */
  find(token: string, now: number): Grant | null {
    const grant = this.grants.get(token);
    return grant !== undefined && grant.expiresAt > now ? grant : null;
  }
}
