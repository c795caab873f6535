// The provider's own API: finds the endpoint and the account the credential selects, applies early
// faults, then checks the credential and version header as the provider does before the body.
import type { IncomingMessage } from 'node:http';
import type { Account } from '../accounts/accounts.js';
import type { ApiFailure } from '../types.js';
import { handleCountTokens, handleGetModel, handleListModels, handleMessages, type ApiCall } from './api.js';
import { decodedSegment, type Incoming, type SimContext } from './context.js';
import { isLateFault } from './faults.js';
import { AnthropicFront } from './front.js';
import { defaultErrorMessage } from './respond.js';
import { strikeEarly } from './write-reply.js';

/** The provider's API versions are dates (`2023-06-01`). */
export const DATED_VERSION = /^\d{4}-\d{2}-\d{2}$/;

type Endpoint = { kind: 'messages' | 'count' | 'list' } | { kind: 'model'; id: string };

function endpointOf(method: string, path: string): Endpoint | null {
  if (method === 'POST' && path === '/v1/messages') return { kind: 'messages' };
  if (method === 'POST' && path === '/v1/messages/count_tokens') return { kind: 'count' };
  if (method === 'GET' && path === '/v1/models') return { kind: 'list' };
  if (method === 'GET' && path.startsWith('/v1/models/') && path.length > 11 && !path.includes('/', 11)) {
    return { kind: 'model', id: decodedSegment(path.slice(11)) };
  }
  return null;
}

function credentialOf(req: IncomingMessage): string | null {
  const key = req.headers['x-api-key'];
  if (typeof key === 'string' && key !== '') return key;
  const auth = req.headers.authorization;
  if (auth !== undefined && auth.startsWith('Bearer ')) {
    const token = auth.slice(7).trim();
    if (token !== '') return token;
  }
  return null;
}

/** The provider's checks before it looks at the body: credential, then version header. */
function checkHeaders(req: IncomingMessage, credential: string | null, account: Account | null): ApiFailure | null {
  if (credential === null) return { status: 401, type: 'authentication_error', message: 'x-api-key header is required' };
  if (account === null) return { status: 401, type: 'authentication_error', message: 'invalid x-api-key' };
  const version = req.headers['anthropic-version'];
  if (version === undefined || version === '') return { status: 400, type: 'invalid_request_error', message: 'anthropic-version: header is required' };
  if (typeof version !== 'string' || !DATED_VERSION.test(version)) {
    return { status: 400, type: 'invalid_request_error', message: `anthropic-version: "${String(version)}" is not a valid version` };
  }
  return null;
}

export async function handleAnthropic(call: Incoming, sim: SimContext): Promise<void> {
  const { req, res } = call;
  const credential = credentialOf(req);
  const account = credential === null ? null : sim.accounts.anthropic(credential);
  const front = new AnthropicFront(call.requestId, account, sim.clock);
  const endpoint = endpointOf(call.method, call.path);
  if (endpoint === null) return front.sendError(res, { status: 404, type: 'not_found_error', message: 'Not Found' });
  const fault = endpoint.kind === 'messages' || endpoint.kind === 'count' ? sim.faults.take(account?.id ?? null) : null;
  if (fault !== null && !isLateFault(fault)) return strikeEarly(fault, res, call.scope, front);
  if (call.tooLarge) return front.sendError(res, { status: 413, type: 'request_too_large', message: defaultErrorMessage('request_too_large') });
  const refused = checkHeaders(req, credential, account);
  if (refused !== null) return front.sendError(res, refused);
  const api: ApiCall = {
    res,
    scope: call.scope,
    front,
    account: account!,
    clock: sim.clock,
    body: call.body,
    query: new URLSearchParams(call.rawQuery),
    beta: typeof req.headers['anthropic-beta'] === 'string' && req.headers['anthropic-beta'] !== '',
    options: sim.options,
    models: sim.models,
    fault: fault !== null && isLateFault(fault) ? fault : null,
  };
  switch (endpoint.kind) {
    case 'messages':
      return handleMessages(api);
    case 'count':
      return handleCountTokens(api);
    case 'list':
      return handleListModels(api);
    case 'model':
      return handleGetModel(api, endpoint.id);
  }
}
