// The one route table: method + path → a pipeline of stages, assembled once at start-up.
import type { RouteInfo } from './context.js';
import type { Handler, Stage } from './compose.js';
import { compose } from './compose.js';
import type { Runtime } from './runtime.js';
import { offloadParseStage, offloadTranslateStage } from './stages/chat/offload-stages.js';
import { CHAT_PREFIX, MESSAGES_PREFIX } from './surfaces.js';
import { authStage } from './stages/auth.js';
import { budgetStage } from './stages/budget.js';
import { callUpstreamStage } from './stages/call-upstream.js';
import { respondStage } from './stages/respond.js';
import { translateRequestStage, type TranslateOptions } from './stages/translate-request.js';
import { errorBoundaryStage } from './stages/error-boundary.js';
import { listModelsStage } from './stages/models/list-models.js';
import { observeStage } from './stages/observe.js';
import { limitMessagesStage } from './stages/limit-messages.js';
import { healthzStage, metricsStage, readyzStage } from './stages/ops/health.js';
import { metricsTokenStage } from './stages/ops/metrics-token.js';
import { parseJsonStage } from './stages/parse-json.js';
import { rateLimitStage } from './stages/rate-limit.js';
import { readBodyStage } from './stages/read-body.js';
import { requestIdStage } from './stages/request-id.js';
import { resolveModelStage } from './stages/resolve-model.js';
import { yieldLargeBodyStage } from './stages/yield-large-body.js';

/** One HTTP route of the gateway: method, path and the composed stages (not an upstream `Route`, policy/routing/route.ts). */
export interface HttpRoute {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly info: RouteInfo;
  readonly handler: Handler;
}

export function buildRoutes(rt: Runtime, extra: readonly HttpRoute[] = []): HttpRoute[] {
  const front = (): Stage[] => [requestIdStage(rt), observeStage(rt), errorBoundaryStage(rt)];
  const messagesAuth = authStage(rt, { acceptXApiKey: true });
  const chatAuth = authStage(rt, { acceptXApiKey: false });
  const admitRequest = [resolveModelStage(rt), rateLimitStage(rt), budgetStage(rt)];
  const checkRequest = [limitMessagesStage(rt, 'messages'), ...admitRequest];
  const modelRequest = [readBodyStage(rt.config.limits.bodyBytes), parseJsonStage(rt), ...checkRequest];
  // Large chat bodies are parsed and translated on the worker pool when there is one (see offload/).
  const pool = rt.translatePool;
  const chatParse = pool === null ? parseJsonStage(rt) : offloadParseStage(rt, pool, parseJsonStage(rt));
  const chatOptions: TranslateOptions = { dialect: 'chat', operation: 'messages', allowFallback: true };
  const responsesOptions: TranslateOptions = { dialect: 'responses', operation: 'messages', allowFallback: true };
  const chatInline = translateRequestStage(rt, chatOptions);
  const chatTranslate = pool === null ? chatInline : offloadTranslateStage(rt, pool, chatInline, chatOptions);

  const route = (method: HttpRoute['method'], path: string, info: RouteInfo, stages: Stage[]): HttpRoute => ({
    method,
    path,
    info,
    handler: compose(stages),
  });
  /** `countsTokens`: count_tokens, where another model would answer a different question, so no fallback. */
  const messagesForward = (name: string, countsTokens: boolean): HttpRoute => {
    const options: TranslateOptions = { dialect: 'messages', operation: countsTokens ? 'count_tokens' : 'messages', allowFallback: !countsTokens };
    return route('POST', MESSAGES_PREFIX + name, { name: MESSAGES_PREFIX + name, surface: 'messages', errorFormat: 'messages', countsTokens }, [
      ...front(),
      messagesAuth,
      ...modelRequest,
      translateRequestStage(rt, options),
      callUpstreamStage(rt, options),
      respondStage(rt, 'messages'),
    ]);
  };

  return [
    messagesForward('/messages', false),
    messagesForward('/messages/count_tokens', true),
    route('GET', `${MESSAGES_PREFIX}/models`, { name: `${MESSAGES_PREFIX}/models`, surface: 'models', errorFormat: 'messages' }, [
      ...front(),
      messagesAuth,
      listModelsStage(rt, 'provider'),
    ]),
    route('POST', `${CHAT_PREFIX}/chat/completions`, { name: `${CHAT_PREFIX}/chat/completions`, surface: 'chat', errorFormat: 'chat' }, [
      ...front(),
      chatAuth,
      readBodyStage(rt.config.limits.bodyBytes),
      chatParse,
      ...checkRequest,
      // Inline only: with a pool, the worker does both steps.
      ...(pool === null ? [yieldLargeBodyStage(rt)] : []),
      chatTranslate,
      callUpstreamStage(rt, chatOptions),
      respondStage(rt, 'chat'),
    ]),
    // The Responses surface: translated like the chat surface, its conversation in `input` items.
    route('POST', `${CHAT_PREFIX}/responses`, { name: `${CHAT_PREFIX}/responses`, surface: 'responses', errorFormat: 'chat' }, [
      ...front(),
      chatAuth,
      readBodyStage(rt.config.limits.bodyBytes),
      parseJsonStage(rt),
      limitMessagesStage(rt, 'input'),
      ...admitRequest,
      translateRequestStage(rt, responsesOptions),
      callUpstreamStage(rt, responsesOptions),
      respondStage(rt, 'responses'),
    ]),
    route('GET', `${CHAT_PREFIX}/models`, { name: `${CHAT_PREFIX}/models`, surface: 'models', errorFormat: 'chat' }, [
      ...front(),
      chatAuth,
      listModelsStage(rt, 'openai'),
    ]),
    route('GET', '/healthz', { name: '/healthz', surface: 'other', errorFormat: 'chat' }, [requestIdStage(rt), healthzStage]),
    route('GET', '/readyz', { name: '/readyz', surface: 'other', errorFormat: 'chat' }, [requestIdStage(rt), readyzStage(rt)]),
    // With a port of its own (metrics-listener.ts), the main port has no /metrics at all: 404.
    ...(rt.config.metrics.port === null ? [metricsRoute(rt)] : []),
    ...extra,
  ];
}

/** GET /metrics, behind the metrics token when one is set; on the main port or alone on its own. */
export function metricsRoute(rt: Runtime): HttpRoute {
  const token = rt.config.metrics.token;
  return {
    method: 'GET',
    path: '/metrics',
    info: { name: '/metrics', surface: 'other', errorFormat: 'chat' },
    handler: compose([requestIdStage(rt), errorBoundaryStage(rt), ...(token === null ? [] : [metricsTokenStage(token)]), metricsStage(rt)]),
  };
}
