// The proxy's own answers (unknown path, refused caller, gateway unreachable) in the surface's error
// shape, with a request id like every gateway response. The message never names the gateway.
import type { ServerResponse } from 'node:http';
import type { ErrorCode } from '../../dialects/errors/codes.js';
import type { ErrorFormat } from '../../dialects/errors/render.js';
import { writeErrorResponse } from '../../dialects/errors/render.js';
import { newRequestId } from '../../observability/request-id.js';

export function answerProxyError(res: ServerResponse, format: ErrorFormat, code: ErrorCode, message: string): void {
  writeErrorResponse(res, newRequestId('req_proxy_'), format, code, message);
}

export const PROXY_MESSAGES = Object.freeze({
  notFound: 'No such endpoint on the model-gateway proxy.',
  notLoopback: 'The model-gateway proxy answers only requests addressed to this machine (127.0.0.1 or localhost).',
  methodNotAllowed: 'The model-gateway proxy forwards GET and POST only.',
  fromBrowser: 'The model-gateway proxy does not answer web browsers (the request carries Origin or Sec-Fetch-Site), so that no web page can spend your key.',
  notJson: 'The model-gateway proxy forwards only JSON request bodies: send Content-Type: application/json.',
  unreachable: 'The model-gateway proxy could not reach the gateway; check that it is running and the --gateway URL.',
  timeout: 'The gateway did not answer the model-gateway proxy in time.',
  redirect: 'The gateway answered with a redirect, which the model-gateway proxy does not follow; check the --gateway URL.',
  notApi: 'The gateway answered with something that is not an API response; check the --gateway URL.',
});
