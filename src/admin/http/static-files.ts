// The dashboard's pages and assets, read from ./static beside this module (src/ under tests, dist/ after
// the build copies it). Paths without a file extension are page routes of the single-page app: index.html.
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { GatewayError } from '../../dialects/errors/codes.js';
import type { Stage } from '../../gateway/compose.js';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** Everything comes from this origin; no inline script or style, no framing. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SAFE_ASSET = /^\/assets\/[a-z0-9][a-z0-9._-]*$/i;

export const DASHBOARD_PREFIX = '/dashboard';

export function staticFilesStage(root: URL = new URL('../static/', import.meta.url)): Stage {
  const cache = new Map<string, Buffer>();
  const load = async (file: string): Promise<Buffer> => {
    let body = cache.get(file);
    if (body === undefined) cache.set(file, (body = await readFile(new URL(file, root))));
    return body;
  };
  return async (ctx) => {
    const url = ctx.req.url ?? '/';
    const q = url.indexOf('?');
    const path = (q === -1 ? url : url.slice(0, q)).slice(DASHBOARD_PREFIX.length);
    const file = extname(path) === '' ? 'index.html' : SAFE_ASSET.test(path) ? path.slice(1) : null;
    if (file === null || TYPES[extname(file)] === undefined) throw new GatewayError('route_not_found', 'No such file.');
    let body: Buffer;
    try {
      body = await load(file);
    } catch {
      throw new GatewayError('route_not_found', 'No such file.');
    }
    ctx.res.writeHead(
      200,
      Object.assign(ctx.headers, {
        'content-type': TYPES[extname(file)],
        'content-length': body.length,
        // Pages and assets change with each release and are small: always revalidate.
        'cache-control': 'no-cache',
        'content-security-policy': CONTENT_SECURITY_POLICY,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'x-frame-options': 'DENY',
      }),
    );
    ctx.res.end(body);
  };
}
