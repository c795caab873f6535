// Pieces both surfaces' respond stages share.
import type { RequestContext } from '../context.js';
import type { TokenUsage } from '../metering/token-usage.js';
import type { GatewayMetrics } from '../observability/metrics.js';
import type { UpstreamResponse } from '../upstream/client.js';

/** Keeps the usage a response reported (null: it reported none). */
export function keepUsage(ctx: RequestContext, usage: TokenUsage | null): void {
  if (usage === null) return;
  ctx.usage = usage;
  ctx.usageSeen = true;
}

export function isEventStream(upstream: UpstreamResponse): boolean {
  return String(upstream.headers['content-type'] ?? '').startsWith('text/event-stream');
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
