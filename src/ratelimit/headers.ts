// The limit headers in each surface's own style: `x-ratelimit-*` with durations on the chat surface,
// `anthropic-ratelimit-*` with RFC 3339 reset times on the messages surface. Both describe the
// calling key's own limits, never the shared upstream account's.
import type { ServerResponse } from 'node:http';
import type { LimitStatus, LimitWindow } from './limiter.js';

export type LimitHeaderStyle = 'chat' | 'messages';

export function setLimitHeaders(res: ServerResponse, style: LimitHeaderStyle, status: LimitStatus, wallNow: number): void {
  if (res.headersSent) return;
  if (style === 'chat') {
    if (status.requests !== null) setChat(res, 'requests', status.requests);
    if (status.tokens !== null) setChat(res, 'tokens', status.tokens);
  } else {
    if (status.requests !== null) setMessages(res, 'requests', status.requests, wallNow);
    if (status.tokens !== null) setMessages(res, 'tokens', status.tokens, wallNow);
  }
}

function setChat(res: ServerResponse, what: 'requests' | 'tokens', w: LimitWindow): void {
  res.setHeader(`x-ratelimit-limit-${what}`, String(w.limit));
  res.setHeader(`x-ratelimit-remaining-${what}`, String(w.remaining));
  res.setHeader(`x-ratelimit-reset-${what}`, durationText(w.resetMs));
}

function setMessages(res: ServerResponse, what: 'requests' | 'tokens', w: LimitWindow, wallNow: number): void {
  res.setHeader(`anthropic-ratelimit-${what}-limit`, String(w.limit));
  res.setHeader(`anthropic-ratelimit-${what}-remaining`, String(w.remaining));
  res.setHeader(`anthropic-ratelimit-${what}-reset`, rfc3339Seconds(wallNow + w.resetMs));
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

/** Whole seconds, rounded up so a client waiting until then is never early. */
export function rfc3339Seconds(epochMs: number): string {
  const iso = new Date(Math.ceil(epochMs / 1000) * 1000).toISOString();
  return `${iso.slice(0, 19)}Z`;
}

/** Whole seconds for `retry-after`, at least 1. */
export function retryAfterSeconds(ms: number): string {
  return String(Math.max(1, Math.ceil(ms / 1000)));
}
