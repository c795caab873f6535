// Audit: the admin trail. Operators read every row (or one customer's); a customer user reads only the
// rows of its own customer (the dispatcher holds it to its own :customerId). Each row comes with the one
// line that says what changed, the same the CLI prints.
import { GatewayError } from '../../dialects/errors/codes.js';
import type { KeyStore } from '../../keys/key-store.js';
import type { AuditQuery, AuditStore } from '../../stores/audit-store.js';
import { auditSinceMs, SINCE_FORMAT } from '../audit/audit-since.js';
import { auditEntryView } from '../audit/audit-view.js';
import { customerOr404 } from './customer-lookup.js';
import type { ApiRequest, ApiRoute } from './types.js';
import { ok } from './types.js';

export const DEFAULT_AUDIT_ROWS = 200;
export const MAX_AUDIT_ROWS = 1000;

export function auditRoutes(keyStore: KeyStore, audit: Pick<AuditStore, 'list'>): ApiRoute[] {
  return [
    {
      method: 'GET',
      pattern: '/audit',
      access: 'operator',
      handler: async (req) => {
        const customerId = req.query.get('customerId') || undefined;
        if (customerId !== undefined) await customerOr404(keyStore, customerId);
        const names = new Map((await keyStore.listCustomers()).map((c) => [c.id, c.name]));
        const entries = await audit.list({ ...listQuery(req), customerId });
        return ok({ entries: entries.map((e) => auditEntryView(e, names)) });
      },
    },
    {
      method: 'GET',
      pattern: '/customers/:customerId/audit',
      access: 'customer',
      handler: async (req) => {
        const customer = await customerOr404(keyStore, req.params.customerId);
        const entries = await audit.list({ ...listQuery(req), customerId: customer.id });
        return ok({ entries: entries.map((e) => auditEntryView(e, new Map([[customer.id, customer.name]]))) });
      },
    },
  ];
}

/** `since` (a day or an ISO time) and `limit` (1 to MAX_AUDIT_ROWS, default DEFAULT_AUDIT_ROWS) from the query string. */
function listQuery(req: ApiRequest): AuditQuery {
  const since = req.query.get('since');
  const limitText = req.query.get('limit');
  const query: AuditQuery = { limit: DEFAULT_AUDIT_ROWS };
  if (since !== null && since !== '') {
    const ms = auditSinceMs(since);
    if (ms === null) throw new GatewayError('invalid_request', `since must be ${SINCE_FORMAT}.`, { param: 'since' });
    query.sinceMs = ms;
  }
  if (limitText !== null && limitText !== '') {
    const limit = Number(limitText);
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_AUDIT_ROWS) {
      throw new GatewayError('invalid_request', `limit must be an integer from 1 to ${MAX_AUDIT_ROWS}.`, { param: 'limit' });
    }
    query.limit = limit;
  }
  return query;
}
