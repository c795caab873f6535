// The simulator's HTTP server: reads the request, records it, and hands it to the API its path
// belongs to: the provider's (/v1/messages, /v1/models), Bedrock's (/model/…), Vertex AI's
// (/v1/projects/…) and its token endpoint (/token); /_simulator/ is the control endpoint.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { AccountSet } from '../accounts/accounts.js';
import { SimClock } from '../accounts/clock.js';
import { randomId } from '../ids.js';
import { buildModelIndex, defaultModelInfos, type ModelIndex } from '../models.js';
import type { AccountOptions, RecordedRequest, ResolvedOptions, Simulator, SimulatorOptions, StartOptions } from '../types.js';
import { handleVertex } from '../vertex/endpoint.js';
import { IssuedTokens } from '../vertex/issued-tokens.js';
import { handleToken, TOKEN_PATH } from '../vertex/token-endpoint.js';
import { handleAnthropic } from './anthropic.js';
import type { Incoming, SimContext } from './context.js';
import { handleControl, type Controls } from './control.js';
import { FaultQueue } from './faults.js';
import { readBody } from './read-body.js';
import { sendError, unmeteredRateHeaders } from './respond.js';
import { ResponseScope } from './scope.js';
import { errorMessage } from '../../../lib/error-message.js';

/** The provider refuses bodies over 32 MiB (docs/wire.md, "Messages requests"). */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

function resolveOptions(opts: SimulatorOptions): ResolvedOptions {
  return {
    ttftMs: opts.ttftMs ?? 0,
    tokensPerSecond: opts.tokensPerSecond ?? 0,
    replyTokens: opts.replyTokens ?? 12,
    streamChunkBytes: opts.streamChunkBytes,
    inputMultiplier: opts.inputMultiplier ?? 1,
    apiKey: opts.apiKey,
    record: opts.record ?? false,
    models: opts.models ?? defaultModelInfos(),
  };
}

class SimulatorState implements SimContext {
  options: ResolvedOptions;
  models: ModelIndex;
  readonly faults = new FaultQueue();
  readonly received: RecordedRequest[] = [];
  readonly clock: SimClock;
  readonly accounts: AccountSet;
  readonly tokens = new IssuedTokens();
  readonly controls: Controls = {
    injectFault: (fault, count, account) => this.injectFault(fault, count, account),
    clearFaults: () => this.faults.clear(),
    setOptions: (partial) => this.setOptions(partial),
    advanceClock: (ms) => this.clock.advance(ms),
    resetAccounts: (id) => this.resetAccounts(id),
  };

  constructor(opts: SimulatorOptions & AccountOptions) {
    this.options = resolveOptions(opts);
    this.models = buildModelIndex(this.options.models);
    this.clock = new SimClock(opts.now);
    this.accounts = new AccountSet(opts, opts.apiKey);
  }

  injectFault(fault: Parameters<FaultQueue['add']>[0], count?: number, account?: string): void {
    if (account !== undefined && !this.accounts.has(account)) throw new Error(`no simulator account ${account}`);
    this.faults.add(fault, count, account ?? null);
  }

  resetAccounts(id?: string): void {
    if (id !== undefined && !this.accounts.has(id)) throw new Error(`no simulator account ${id}`);
    this.accounts.reset(id);
  }

  setOptions(partial: Partial<SimulatorOptions>): void {
    const next = { ...this.options };
    if (partial.ttftMs !== undefined) next.ttftMs = partial.ttftMs;
    if (partial.tokensPerSecond !== undefined) next.tokensPerSecond = partial.tokensPerSecond;
    if (partial.replyTokens !== undefined) next.replyTokens = partial.replyTokens;
    if ('streamChunkBytes' in partial) next.streamChunkBytes = partial.streamChunkBytes;
    if (partial.inputMultiplier !== undefined) next.inputMultiplier = partial.inputMultiplier;
    if ('apiKey' in partial) {
      next.apiKey = partial.apiKey;
      this.accounts.setDefaultKey(partial.apiKey);
    }
    if (partial.record !== undefined) next.record = partial.record;
    if (partial.models !== undefined) {
      next.models = partial.models;
      this.models = buildModelIndex(partial.models);
    }
    this.options = next;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
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
    const call: Incoming = { req, res, scope, requestId: randomId('req'), method, path, rawQuery: q < 0 ? '' : url.slice(q + 1), body: read.body, tooLarge: read.tooLarge };
    // Bedrock's endpoint (and the AWS libraries it checks signatures and frames streams with) is loaded
    // with its first request: most runs of the simulator never play Bedrock.
    if (path.startsWith('/model/')) return (await import('../bedrock/endpoint.js')).handleBedrock(call, this);
    if (path.startsWith('/v1/projects/')) return handleVertex(call, this);
    if (path === TOKEN_PATH) return handleToken(call, this);
    return handleAnthropic(call, this);
  }
}

function onHandlerError(res: ServerResponse, err: unknown): void {
  if (!res.headersSent) {
    const message = errorMessage(err);
    sendError(res, randomId('req'), { status: 500, type: 'api_error', message: `Internal server error: ${message}` }, unmeteredRateHeaders(Date.now()));
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
  const url = `http://${urlHost}:${port}`;
  return {
    url,
    port,
    tokenUrl: `${url}${TOKEN_PATH}`,
    received: state.received,
    setOptions: (partial) => state.setOptions(partial),
    injectFault: state.controls.injectFault,
    clearFaults: state.controls.clearFaults,
    advanceClock: state.controls.advanceClock,
    resetAccounts: state.controls.resetAccounts,
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
