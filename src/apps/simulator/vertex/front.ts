// How Vertex AI answers (http/front.ts): its own front end (authentication, permissions, quotas,
// unknown models, capacity) in Google's `{"error":{"code","message","status"}}`; the model's own
// errors (an invalid request, overloaded) in the provider's shape as the provider wrote them; a
// stream as the provider's SSE.
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { endJson } from '../../../lib/json-response.js';
import type { LimitRefusal } from '../accounts/rate-limits.js';
import { SSE_WIRE, type ReplyFront, type StatusFault, type StreamWire } from '../http/front.js';
import { defaultErrorMessage, errorTypeForStatus } from '../http/respond.js';
import type { ApiFailure } from '../types.js';

/** Google's canonical status for the HTTP statuses its front end answers with. */
const GOOGLE_STATUS: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** Statuses that Vertex's front end answers itself; the others come from the model. */
const FRONT_END_STATUSES = new Set([401, 403, 404, 429, 503]);

export function sendGoogleError(res: ServerResponse, code: number, message: string): void {
  endJson(res, code, JSON.stringify({ error: { code, message, status: GOOGLE_STATUS[code] ?? 'UNKNOWN' } }));
}

function sendModelError(res: ServerResponse, status: number, type: string, message: string): void {
  endJson(res, status, JSON.stringify({ type: 'error', error: { type, message } }));
}

export class VertexFront implements ReplyFront {
  readonly messageIdKind = 'msg_vrtx';

  constructor(
    readonly requestId: string,
    /** What the quota message names: `anthropic-<model>`. */
    private readonly baseModel: string,
  ) {}

  okHeaders(): OutgoingHttpHeaders {
    return {};
  }

  sendError(res: ServerResponse, failure: ApiFailure): void {
    if (FRONT_END_STATUSES.has(failure.status)) return sendGoogleError(res, failure.status, failure.message);
    sendModelError(res, failure.status, failure.type, failure.message);
  }

  sendFault(res: ServerResponse, fault: StatusFault): void {
    if (FRONT_END_STATUSES.has(fault.status)) {
      if (fault.status === 429) return this.sendLimited(res);
      return sendGoogleError(res, fault.status, fault.message ?? `The service answered ${fault.status}.`);
    }
    const type = fault.errorType ?? errorTypeForStatus(fault.status);
    sendModelError(res, fault.status, type, fault.message ?? defaultErrorMessage(type));
  }

  sendLimited(res: ServerResponse, _refusal?: LimitRefusal): void {
    sendGoogleError(
      res,
      429,
      `Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model with base model: anthropic-${this.baseModel}. Please submit a quota increase request. https://cloud.google.com/vertex-ai/docs/generative-ai/quotas-genai.`,
    );
  }

  wire(): StreamWire {
    return SSE_WIRE;
  }
}
