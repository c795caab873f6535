// A typed fake context for testing one stage alone: the real RequestContext (createContext) around a
// request that is only its headers and client address, a runtime holding only the services the stage
// reads (the type names them), a `next` that records whether the rest of the chain ran, and metrics
// that record their calls. What the stage writes is then read off the context.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createContext, type RequestContext, type RouteInfo } from '../../../../src/gateway/context.js';
import type { Next } from '../../../../src/gateway/compose.js';
import type { Runtime } from '../../../../src/gateway/runtime.js';
import type { GatewayMetrics } from '../../../../src/observability/metrics.js';
import type { Principal } from '../../../../src/keys/principal.js';

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

/** Metrics that record each call as `name(arg, ...)`; every other method is a no-op. */
export function recordingMetrics(): GatewayMetrics & { readonly calls: string[] } {
  const calls: string[] = [];
  const target = { calls } as unknown as GatewayMetrics & { calls: string[] };
  return new Proxy(target, {
    get(_target, name) {
      if (name === 'calls') return calls;
      if (typeof name !== 'string') return undefined;
      return (...args: unknown[]) => {
        calls.push(`${name}(${args.map((a) => JSON.stringify(a)).join(', ')})`);
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
