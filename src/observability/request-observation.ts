// What the gateway reports about one finished request, and the label values it can take: shared by
// the metrics object and the series it updates.
import type { TokenUsage } from '../metering/token-usage.js';

export type Surface = 'messages' | 'chat' | 'responses' | 'models' | 'admin' | 'other';
export type Outcome = 'ok' | 'client_error' | 'upstream_error' | 'client_cancelled';
export const SURFACES: readonly Surface[] = ['messages', 'chat', 'responses', 'models', 'admin', 'other'];
export const OUTCOMES: readonly Outcome[] = ['ok', 'client_error', 'upstream_error', 'client_cancelled'];

export interface RequestObservation {
  surface: Surface;
  /** Catalogue id or `other`; bounded again here. */
  model: string;
  /** Customer name or `none`. */
  customer: string;
  status: number;
  outcome: Outcome;
  durationSec: number;
  upstreamHeadersSec: number | null;
  ttftSec: number | null;
  usage: TokenUsage;
  streamed: boolean;
  /** First token → end, for time per output token. */
  generationSec: number | null;
  /** The request's sampled trace: the duration and time-to-first-token buckets keep it as their exemplar. */
  traceId: string | null;
}
