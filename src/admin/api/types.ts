// The shapes the admin API handlers share: who is calling, what they sent, what goes back.
import type { RequestContext } from '../../gateway/context.js';
import type { Actor } from '../auth/actor.js';
import type { Session } from '../auth/session-store.js';

/**
 * Which callers a route admits; checked by the dispatcher before any handler runs, so no handler can
 * forget it. 'customer' routes carry a :customerId parameter that must be the caller's own customer.
 */
export type Access = 'public' | 'signed-in' | 'operator' | 'customer';

export interface ApiRequest {
  readonly ctx: RequestContext;
  /** null only on 'public' routes. */
  readonly actor: Actor | null;
  /** The cookie session, when the caller used one (not with a bearer admin token). */
  readonly session: { id: string; session: Session } | null;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** The client's address (behind a trusted proxy, the one it forwarded), for the admin trail. */
  readonly address: string | null;
  /** The JSON body of POST and PATCH calls; {} otherwise. */
  readonly body: Readonly<Record<string, unknown>>;
}

export interface ApiReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type ApiHandler = (req: ApiRequest) => Promise<ApiReply>;

export interface ApiRoute {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** e.g. /customers/:customerId/keys (below /admin/api). */
  readonly pattern: string;
  readonly access: Access;
  readonly handler: ApiHandler;
}

export function ok(body: unknown, status = 200): ApiReply {
  return { status, body };
}
