// Cross-site request checks for state-changing calls. SameSite=Strict already keeps the cookie off
// cross-site requests; these checks also refuse a request a browser marks as cross-site, whatever it carries.
import type { IncomingMessage } from 'node:http';
import { cameOverTls } from './cookies.js';

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * null when the request may change state, else why not. Browsers send Sec-Fetch-Site and Origin on
 * every fetch POST/DELETE; clients that send neither (scripts, curl) are not browsers carrying ambient
 * cookies, and still need the per-session token.
 */
export function crossSiteProblem(req: IncomingMessage): string | null {
  const site = header(req, 'sec-fetch-site');
  if (site !== undefined && site !== 'same-origin') return `Cross-site request refused (Sec-Fetch-Site: ${site.slice(0, 20)}).`;
  const origin = header(req, 'origin');
  if (origin === undefined) return null;
  const host = header(req, 'x-forwarded-host') ?? header(req, 'host');
  const scheme = cameOverTls(req) ? 'https' : 'http';
  if (host === undefined || origin !== `${scheme}://${host}`) return 'Cross-site request refused (Origin does not match).';
  return null;
}
