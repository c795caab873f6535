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

// Most answers of a second name the same reset seconds: formatting a Date showed in profiles, so the
// texts are kept. Two slots: an answer with both windows names two seconds (the requests bucket's and the
// tokens bucket's), which one slot would format again at every call.
const cachedSeconds = [Number.NaN, Number.NaN];
const cachedTexts = ['', ''];
let nextSlot = 0;

/** Whole seconds, rounded up so a client waiting until then is never early. */
export function rfc3339Seconds(epochMs: number): string {
  const second = Math.ceil(epochMs / 1000);
  if (second === cachedSeconds[0]) return cachedTexts[0];
  if (second === cachedSeconds[1]) return cachedTexts[1];
  const text = `${new Date(second * 1000).toISOString().slice(0, 19)}Z`;
  cachedSeconds[nextSlot] = second;
  cachedTexts[nextSlot] = text;
  nextSlot = 1 - nextSlot;
  return text;
}

/** Whole seconds for `retry-after`, at least 1. */
export function retryAfterSeconds(ms: number): string {
  return String(Math.max(1, Math.ceil(ms / 1000)));
}
