// Pieces both surfaces' respond stages share.
import type { RequestContext } from '../context.js';
import type { TokenUsage } from '../metering/token-usage.js';
import type { GatewayMetrics } from '../observability/metrics.js';
import { collectAnswer } from '../upstream/answer-stream.js';
import type { ProviderAnswer } from '../upstream/exchange.js';

/** Keeps the usage a response reported (null: it reported none). */
export function keepUsage(ctx: RequestContext, usage: TokenUsage | null): void {
  if (usage === null) return;
  ctx.usage = usage;
  ctx.usageSeen = true;
}

/** The whole body of an answer: at hand for a JSON answer, read to the end (up to maxBytes) for a stream. */
export function wholeBody(answer: ProviderAnswer, maxBytes: number): Promise<Buffer> | Buffer {
  return answer.kind === 'buffered' ? answer.body : collectAnswer(answer.body, maxBytes);
}

/** Runs a stream relay with the open-streams gauge held for exactly its duration. */
export async function asOpenStream(metrics: GatewayMetrics, ctx: RequestContext, relay: () => Promise<void>): Promise<void> {
  metrics.streamOpened(ctx.route.surface);
  try {
    await relay();
  } finally {
    metrics.streamClosed(ctx.route.surface);
  }
}
