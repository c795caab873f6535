// Histogram bucket boundaries (seconds), chosen for LLM traffic rather than prom-client's web
// defaults, which stop at 10 s. Each list is short (≤ 18 bounds) because every bound is a series
// per label set; the bounds sit where operators draw lines (SLOs, timeouts) so quantiles are
// accurate there.

/**
 * Whole request, arrival → last byte. Spans fast local answers (auth errors, models list: ms)
 * to long non-streamed generations and streams (minutes); 600 s matches the upstream
 * response-header timeout (docs/contract.md), so a timed-out request still lands in a finite bucket.
 */
export const REQUEST_DURATION_BUCKETS: readonly number[] = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300, 600,
];

/**
 * Arrival → upstream response headers. Streams get headers in well under a second; non-streamed
 * requests get them only after the whole generation, so the same wide range as the duration.
 */
export const UPSTREAM_HEADERS_BUCKETS: readonly number[] = REQUEST_DURATION_BUCKETS;

/**
 * Arrival → first generated token of a stream (GenAI "time to first token"). Most answers start
 * within 0.2–3 s; long prompts and extended thinking push it to tens of seconds, so the list is
 * dense below 5 s and reaches 60 s.
 */
export const TIME_TO_FIRST_TOKEN_BUCKETS: readonly number[] = [
  0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5, 7.5, 10, 15, 20, 30, 60,
];

/**
 * Time per output token after the first (GenAI "time per output token"): models emit roughly
 * 10–200 tokens/s, i.e. 5–100 ms per token; the low bounds also resolve the simulator's bursts.
 */
export const TIME_PER_OUTPUT_TOKEN_BUCKETS: readonly number[] = [
  0.001, 0.0025, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.04, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1,
];
