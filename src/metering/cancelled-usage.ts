// The usage a stream the client cancelled is metered at (finding N3): the provider's count, raised to
// the output the gateway relayed (counted by ../dialects/anthropic/relayed-output.ts).
import type { TokenUsage } from './token-usage.js';

/**
 * The usage to meter a cancelled stream at: what the provider reported, its output raised to what was
 * relayed, its input (when it never reported any) the reservation's estimate. `estimated` says whether
 * any count was raised, which the usage row records.
 */
export function cancelledUsage(reported: TokenUsage | null, relayedTokens: number, inputEstimate: number): { usage: TokenUsage; estimated: boolean } {
  const usage = reported === null ? { input: inputEstimate, output: 0, cacheRead: 0, cacheWrite: 0 } : { ...reported };
  let estimated = reported === null;
  if (relayedTokens > usage.output) {
    usage.output = relayedTokens;
    estimated = true;
  }
  return { usage, estimated };
}
