// The limit headers in each surface's own style: `x-ratelimit-*` with durations on the chat surface,
// `anthropic-ratelimit-*` with RFC 3339 reset times on the messages surface. Both describe the
// calling key's own limits, never the shared upstream account's.
import type { OutgoingHttpHeaders } from 'node:http';
import type { LimitStatus, LimitWindow } from './limiter.js';

export type LimitHeaderStyle = 'chat' | 'messages';

/** Adds the limit headers to a response's headers (the request context's, written with the answer). */
export function setLimitHeaders(headers: OutgoingHttpHeaders, style: LimitHeaderStyle, status: LimitStatus, wallNow: number): void {
  if (style === 'chat') {
    if (status.requests !== null) setChat(headers, 'requests', status.requests);
    if (status.tokens !== null) setChat(headers, 'tokens', status.tokens);
  } else {
    if (status.requests !== null) setMessages(headers, 'requests', status.requests, wallNow);
    if (status.tokens !== null) setMessages(headers, 'tokens', status.tokens, wallNow);
  }
}

function setChat(headers: OutgoingHttpHeaders, what: 'requests' | 'tokens', w: LimitWindow): void {
  headers[`x-ratelimit-limit-${what}`] = String(w.limit);
  headers[`x-ratelimit-remaining-${what}`] = String(w.remaining);
  headers[`x-ratelimit-reset-${what}`] = durationText(w.resetMs);
}

function setMessages(headers: OutgoingHttpHeaders, what: 'requests' | 'tokens', w: LimitWindow, wallNow: number): void {
  headers[`anthropic-ratelimit-${what}-limit`] = String(w.limit);
  headers[`anthropic-ratelimit-${what}-remaining`] = String(w.remaining);
  headers[`anthropic-ratelimit-${what}-reset`] = rfc3339Seconds(wallNow + w.resetMs);
}

/** The chat-completions style: `20ms`, `1.5s`, `6m0s`. */
export function durationText(ms: number): string {
  const whole = Math.max(0, Math.ceil(ms));
  if (whole < 1000) return `${whole}ms`;
  const minutes = Math.floor(whole / 60_000);
  const seconds = (whole % 60_000) / 1000;
  const secondsText = `${seconds}s`;
  return minutes === 0 ? secondsText : `${minutes}m${secondsText}`;
}

// Most answers of a second name the same reset second (two headers each on the messages surface):
// formatting a Date showed in profiles, so the last second's text is kept.
let lastSecond = Number.NaN;
let lastText = '';

/** Whole seconds, rounded up so a client waiting until then is never early. */
export function rfc3339Seconds(epochMs: number): string {
  const second = Math.ceil(epochMs / 1000);
  if (second !== lastSecond) {
    lastText = `${new Date(second * 1000).toISOString().slice(0, 19)}Z`;
    lastSecond = second;
  }
  return lastText;
}

/** Whole seconds for `retry-after`, at least 1. */
export function retryAfterSeconds(ms: number): string {
  return String(Math.max(1, Math.ceil(ms / 1000)));
}
