// The session cookie: HttpOnly (no script reads it), SameSite=Strict (no cross-site request carries it),
// Secure whenever the browser reached us over TLS, directly or through a proxy that says so.
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

export const SESSION_COOKIE = 'mgw_session';

export function readCookie(req: IncomingMessage, name: string): string | null {
  const header = req.headers.cookie;
  if (header === undefined) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** True when the request came over TLS or a proxy in front says it did (X-Forwarded-Proto: https). */
export function cameOverTls(req: IncomingMessage): boolean {
  if ((req.socket as Partial<TLSSocket>).encrypted === true) return true;
  const forwarded = req.headers['x-forwarded-proto'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim().toLowerCase();
  return first === 'https';
}

/** A Set-Cookie value for the session; maxAgeMs 0 clears it. */
export function sessionCookie(req: IncomingMessage, value: string, maxAgeMs: number): string {
  const parts = [`${SESSION_COOKIE}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${Math.floor(maxAgeMs / 1000)}`];
  if (cameOverTls(req)) parts.push('Secure');
  return parts.join('; ');
}
