// The simulator's HTTP server: reads the request, records it, applies early faults, checks the
// credential and version header like the provider, and hands off to the endpoint handlers.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { randomId } from '../ids.js';
import { buildModelIndex, defaultModelInfos, type ModelIndex } from '../models.js';
import type { ApiFailure, Fault, RecordedRequest, ResolvedOptions, Simulator, SimulatorOptions, StartOptions } from '../types.js';
import { handleCountTokens, handleGetModel, handleListModels, handleMessages, type ApiCall } from './api.js';
import { handleControl, type Controls } from './control.js';
import { FaultQueue, isLateFault, type EarlyFault } from './faults.js';
import { readBody } from './read-body.js';
import { baseHeaders, defaultErrorMessage, errorTypeForStatus, sendError } from './respond.js';
import { ResponseScope } from './scope.js';
import { resetConnection } from './write-reply.js';
import { errorMessage } from '../../../lib/error-message.js';

/** The provider refuses bodies over 32 MiB (docs/wire.md, "Messages requests"). */
const MAX_BODY_BYTES = 32 * 1024 * 1024;
const VERSION_FORMAT = /^\d{4}-\d{2}-\d{2}$/;

function resolveOptions(opts: SimulatorOptions): ResolvedOptions {
  return {
    ttftMs: opts.ttftMs ?? 0,
    tokensPerSecond: opts.tokensPerSecond ?? 0,
    replyTokens: opts.replyTokens ?? 12,
    apiKey: opts.apiKey,
    record: opts.record ?? false,
    models: opts.models ?? defaultModelInfos(),
  };
}

type Endpoint = { kind: 'messages' | 'count' | 'list' } | { kind: 'model'; id: string };

function endpointOf(method: string, path: string): Endpoint | null {
  if (method === 'POST' && path === '/v1/messages') return { kind: 'messages' };
  if (method === 'POST' && path === '/v1/messages/count_tokens') return { kind: 'count' };
  if (method === 'GET' && path === '/v1/models') return { kind: 'list' };
  if (method === 'GET' && path.startsWith('/v1/models/') && path.length > 11 && !path.includes('/', 11)) {
    return { kind: 'model', id: decodeURIComponent(path.slice(11)) };
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
function checkHeaders(req: IncomingMessage, apiKey: string | undefined): ApiFailure | null {
  const credential = credentialOf(req);
  if (credential === null) return { status: 401, type: 'authentication_error', message: 'x-api-key header is required' };
  if (apiKey !== undefined && credential !== apiKey) return { status: 401, type: 'authentication_error', message: 'invalid x-api-key' };
  const version = req.headers['anthropic-version'];
  if (version === undefined || version === '') return { status: 400, type: 'invalid_request_error', message: 'anthropic-version: header is required' };
  if (typeof version !== 'string' || !VERSION_FORMAT.test(version)) {
    return { status: 400, type: 'invalid_request_error', message: `anthropic-version: "${String(version)}" is not a valid version` };
  }
  return null;
}

const TRUNCATED_JSON = '{"id":"msg_01Truncated","type":"message","role":"assistant","content":[{"type":"text","text":"This body ends in the mid';

async function strikeEarly(fault: EarlyFault, res: ServerResponse, scope: ResponseScope, requestId: string): Promise<void> {
  switch (fault.kind) {
    case 'status': {
      const type = fault.errorType ?? errorTypeForStatus(fault.status);
      const retryAfter = fault.retryAfter ?? (fault.status === 429 || fault.status === 529 ? 1 : undefined);
      return sendError(res, requestId, { status: fault.status, type, message: fault.message ?? defaultErrorMessage(type), retryAfter });
    }
    case 'reset-before-headers':
      return resetConnection(res);
    case 'hang-before-headers':
      return scope.untilClosed();
    case 'malformed-json':
      res.writeHead(200, { ...baseHeaders(requestId), 'content-type': 'application/json' });
      res.end(TRUNCATED_JSON);
  }
}

class SimulatorState {
  options: ResolvedOptions;
  models: ModelIndex;
  readonly faults = new FaultQueue();
  readonly received: RecordedRequest[] = [];
  readonly controls: Controls = {
    injectFault: (fault, count) => this.faults.add(fault, count),
    clearFaults: () => this.faults.clear(),
    setOptions: (partial) => this.setOptions(partial),
  };

  constructor(opts: SimulatorOptions) {
    this.options = resolveOptions(opts);
    this.models = buildModelIndex(this.options.models);
  }

  setOptions(partial: Partial<SimulatorOptions>): void {
    const next = { ...this.options };
    if (partial.ttftMs !== undefined) next.ttftMs = partial.ttftMs;
    if (partial.tokensPerSecond !== undefined) next.tokensPerSecond = partial.tokensPerSecond;
    if (partial.replyTokens !== undefined) next.replyTokens = partial.replyTokens;
    if ('apiKey' in partial) next.apiKey = partial.apiKey;
    if (partial.record !== undefined) next.record = partial.record;
    if (partial.models !== undefined) {
      next.models = partial.models;
      this.models = buildModelIndex(partial.models);
    }
    this.options = next;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = randomId('req');
    const scope = new ResponseScope(res);
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const method = req.method ?? 'GET';
    let read;
    try {
      read = await readBody(req, MAX_BODY_BYTES);
    } catch {
      return; // the client left before sending its body
    }
    if (path.startsWith('/_simulator/')) return handleControl(res, method, path, read.body, this.controls);
    if (this.options.record) this.received.push({ method, url, headers: req.headers, body: read.body });
    const endpoint = endpointOf(method, path);
    if (endpoint === null) return sendError(res, requestId, { status: 404, type: 'not_found_error', message: 'Not Found' });
    const fault: Fault | null = endpoint.kind === 'messages' || endpoint.kind === 'count' ? this.faults.take() : null;
    if (fault !== null && !isLateFault(fault)) return strikeEarly(fault, res, scope, requestId);
    if (read.tooLarge) {
      return sendError(res, requestId, { status: 413, type: 'request_too_large', message: defaultErrorMessage('request_too_large') });
    }
    const refused = checkHeaders(req, this.options.apiKey);
    if (refused !== null) return sendError(res, requestId, refused);
    const call: ApiCall = {
      res,
      scope,
      requestId,
      body: read.body,
      query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)),
      beta: typeof req.headers['anthropic-beta'] === 'string' && req.headers['anthropic-beta'] !== '',
      options: this.options,
      models: this.models,
      fault: fault !== null && isLateFault(fault) ? fault : null,
    };
    switch (endpoint.kind) {
      case 'messages':
        return handleMessages(call);
      case 'count':
        return handleCountTokens(call);
      case 'list':
        return handleListModels(call);
      case 'model':
        return handleGetModel(call, endpoint.id);
    }
  }
}

function onHandlerError(res: ServerResponse, err: unknown): void {
  if (!res.headersSent) {
    const message = errorMessage(err);
    sendError(res, randomId('req'), { status: 500, type: 'api_error', message: `Internal server error: ${message}` });
  } else {
    res.destroy();
  }
}

export async function startSimulator(opts: StartOptions = {}): Promise<Simulator> {
  const state = new SimulatorState(opts);
  const sockets = new Set<Socket>();
  let bytesOfClosedSockets = 0;
  const server = createServer({ noDelay: true }, (req, res) => {
    state.handle(req, res).catch((err: unknown) => onHandlerError(res, err));
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      bytesOfClosedSockets += socket.bytesWritten;
      sockets.delete(socket);
    });
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    received: state.received,
    setOptions: (partial) => state.setOptions(partial),
    injectFault: state.controls.injectFault,
    clearFaults: state.controls.clearFaults,
    openConnections: () => sockets.size,
    bytesWritten: () => {
      let total = bytesOfClosedSockets;
      for (const s of sockets) total += s.bytesWritten;
      return total;
    },
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        state.faults.clear();
        server.close(() => resolve());
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
        sockets.clear();
      });
      return closing;
    },
  };
}
