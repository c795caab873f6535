// A typed fake context for testing one stage alone: the real RequestContext (createContext) around a
// request that is only its headers and client address, a runtime holding only the services the stage
// reads (the type names them), a `next` that records whether the rest of the chain ran, and metrics
// that record their calls. What the stage writes is then read off the context. A stage that reads the
// request stream or writes the response runs on a real node:http server instead (stageServer), and a
// real HTTP client reads what it answered.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createContext, type RequestContext, type RouteInfo } from '../../../../src/gateway/context.js';
import type { Next, Stage } from '../../../../src/gateway/compose.js';
import type { Runtime } from '../../../../src/gateway/runtime.js';
import type { GatewayMetrics } from '../../../../src/observability/metrics.js';
import type { Principal } from '../../../../src/keys/principal.js';
import type { Test } from 'tap';
import { startServer } from '../../../helpers/http-server.js';
import { call, type RawResponse } from '../../../helpers/http.js';

export interface FakeRequest {
  readonly headers?: Record<string, string>;
  readonly remoteAddress?: string;
  readonly route?: Partial<RouteInfo>;
}

const MESSAGES_ROUTE: RouteInfo = { name: '/v1/messages', surface: 'messages', errorFormat: 'messages' };

/** A fresh context for one request; the response is never written by the stages tested with it. */
export function stageContext(request: FakeRequest = {}): RequestContext {
  const req = { headers: request.headers ?? {}, socket: { remoteAddress: request.remoteAddress ?? '192.0.2.1' } } as unknown as IncomingMessage;
  const res = {} as ServerResponse;
  return createContext('req-1', req, res, { ...MESSAGES_ROUTE, ...request.route }, '', 0);
}

/**
 * The runtime a stage is built with, holding only `parts`: the one cast of these tests, so a stage
 * reading a service the test did not give fails on the missing property, not silently.
 */
export function runtimeWith<K extends keyof Runtime>(parts: Pick<Runtime, K>): Runtime {
  return parts as unknown as Runtime;
}

/** A `next` that records the contexts it was called with, and can fail like a later stage does. */
export function recordingNext(fails?: Error): Next & { readonly calls: RequestContext[] } {
  const calls: RequestContext[] = [];
  const next = async (ctx: RequestContext) => {
    calls.push(ctx);
    if (fails !== undefined) throw fails;
  };
  return Object.assign(next, { calls });
}

/** One call a recording metrics object received, its arguments as given. */
export interface MetricsCall {
  readonly name: string;
  readonly args: readonly unknown[];
}

/**
 * Metrics that record each call as `name(arg, ...)` in `calls`, and as given in `received` (for
 * arguments with measured times, which a test reads field by field); every method is a no-op.
 */
export function recordingMetrics(): GatewayMetrics & { readonly calls: string[]; readonly received: MetricsCall[] } {
  const calls: string[] = [];
  const received: MetricsCall[] = [];
  const target = { calls, received } as unknown as GatewayMetrics & { calls: string[]; received: MetricsCall[] };
  return new Proxy(target, {
    get(_target, name) {
      if (name === 'calls') return calls;
      if (name === 'received') return received;
      if (typeof name !== 'string') return undefined;
      return (...args: unknown[]) => {
        calls.push(`${name}(${args.map((a) => JSON.stringify(a)).join(', ')})`);
        received.push({ name, args });
      };
    },
  }) as typeof target;
}

/** A principal with no limits and no budgets; override what a test needs. */
export function principal(overrides: Partial<Principal> = {}): Principal {
  return {
    keyId: 'key-1',
    customerId: 'cust-1',
    customerName: 'acme',
    allowedModels: null,
    rpm: null,
    tpm: null,
    customerLimits: null,
    keyBudget: null,
    customerBudget: null,
    ...overrides,
  };
}

/** What a stage run on a real request ended with: its context, and what it threw (null: it resolved). */
export interface StageRun {
  readonly ctx: RequestContext;
  readonly thrown: unknown;
}

/** A stage run together with the response a real HTTP client read. */
export interface ServedRun extends StageRun {
  readonly response: RawResponse;
}

/** The status a served stage's response has when the stage threw without answering (the error boundary's job). */
export const UNANSWERED = 599;
/** The status a served stage's response has when the stage resolved and left the answer to later stages. */
export const PASSED_ON = 204;

export interface StageServer {
  readonly url: string;
  readonly port: number;
  /**
   * The next request the server receives runs the stage, its context shaped by `prepare` first (the
   * fields earlier stages would have written); resolves once the stage settled, after its response.
   */
  expect(prepare?: (ctx: RequestContext) => void, next?: Next): Promise<StageRun>;
  /** Sends one request (`call()` of helpers/http.ts) and returns the stage's run with what the client read. */
  ask(request?: Parameters<typeof call>[1], prepare?: (ctx: RequestContext) => void, next?: Next): Promise<ServedRun>;
}

/**
 * A stage on a real node:http server on 127.0.0.1, for stages that read the request stream or write the
 * response: the context is the real createContext around the server's own req and res. A stage that
 * throws without answering gets UNANSWERED, and one that resolves without answering PASSED_ON, so the
 * client is never left waiting.
 */
export async function stageServer(t: Test, stage: Stage, route: Partial<RouteInfo> = {}): Promise<StageServer> {
  let pending: { prepare: (ctx: RequestContext) => void; next: Next; settled: (run: StageRun) => void } | null = null;
  const server = await startServer(t, async (req, res) => {
    const run = pending;
    pending = null;
    if (run === null) throw new Error('stageServer: a request came that no test expected');
    const ctx = createContext('req-1', req, res, { ...MESSAGES_ROUTE, ...route }, '', performance.now());
    // As the gateway does (create-gateway.ts): a client gone before the end cancels the request.
    res.on('close', () => {
      if (!res.writableFinished) ctx.cancellation.cancel();
    });
    let thrown: unknown = null;
    try {
      run.prepare(ctx);
      await stage(ctx, run.next);
      if (!res.headersSent && !res.destroyed) res.writeHead(PASSED_ON).end();
    } catch (err) {
      thrown = err;
      if (!res.headersSent && !res.destroyed) res.writeHead(UNANSWERED).end();
    }
    run.settled({ ctx, thrown });
  });
  const expect = (prepare: (ctx: RequestContext) => void = () => {}, next: Next = recordingNext()): Promise<StageRun> =>
    new Promise((settled) => (pending = { prepare, next, settled }));
  return {
    url: server.url,
    port: server.port,
    expect,
    async ask(request = {}, prepare, next) {
      const run = expect(prepare, next);
      const response = await call(server.url + (route.name ?? MESSAGES_ROUTE.name), request);
      return { ...(await run), response };
    },
  };
}
