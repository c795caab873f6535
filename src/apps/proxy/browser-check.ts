// Cross-site request guard. Any web page can make the browser send a "simple" request to 127.0.0.1
// without CORS (fetch with mode "no-cors", a form post, an image): the page never reads the answer, but
// the proxy would already have spent the key on it. Browsers mark every such request, and SDKs, curl
// and agents never do: Origin on every cross-origin request and every POST, Sec-Fetch-Site on every
// request (all current engines). Sec-Fetch-Site "none" is a request the user started themselves, such
// as typing http://127.0.0.1:3099/v1/models into the address bar; it carries no Origin.
import type { IncomingHttpHeaders } from 'node:http';
import { isJsonMediaType, mediaTypeOf } from '../../lib/json/media-type.js';

export function sentByBrowser(headers: IncomingHttpHeaders): boolean {
  if (headers.origin !== undefined) return true;
  const site = headers['sec-fetch-site'];
  return site !== undefined && site !== 'none';
}

/**
 * A body the proxy forwards must say it is JSON. Browsers send a cross-site body without a preflight
 * only as text/plain, a form type, or with no type at all, so this refuses them even from a browser
 * that sends neither header above; every SDK labels its JSON.
 */
export function declaresJsonBody(headers: IncomingHttpHeaders): boolean {
  const type = headers['content-type'];
  return type !== undefined && isJsonMediaType(mediaTypeOf(type));
}
