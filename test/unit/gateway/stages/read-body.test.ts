// The read-body stage alone, on a real server with real clients (undici, and a raw socket for what
// undici will not send: a chunked body, a client that leaves mid-body). Reads the request's
// content-type, content-length and stream; writes ctx.body; answers 415 for a body that is not JSON,
// 413 for one larger than the limit (declared, or counted as it arrives), 400 for one cut short.
import t from 'tap';
import { connect } from 'node:net';
import { once } from 'node:events';
import { readBodyStage } from '../../../../src/gateway/stages/read-body.js';
import { GatewayError } from '../../../../src/dialects/errors/codes.js';
import { PASSED_ON, recordingNext, stageServer } from './stage-context.js';

const LIMIT = 1024;

/** Writes a raw HTTP/1.1 request head, then each body part as it is given; `end` false leaves the request unfinished and hangs up. */
async function rawRequest(port: number, head: string, parts: readonly string[], end: boolean): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => {});
  socket.write(`POST /v1/messages HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n${head}\r\n`);
  for (const part of parts) socket.write(part);
  if (!end) socket.destroy();
  else await once(socket, 'close');
  return received;
}

const chunked = (parts: readonly string[]) => [...parts.map((p) => `${Buffer.byteLength(p).toString(16)}\r\n${p}\r\n`), '0\r\n\r\n'];

t.test('a JSON body is read whole into ctx.body, then the chain runs', async (t) => {
  const server = await stageServer(t, readBodyStage(LIMIT));
  const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'é'.repeat(100) }] });
  const types = ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/vnd.api+json', undefined];
  for (const type of types) {
    const next = recordingNext();
    const { ctx, thrown, response } = await server.ask({ method: 'POST', body, headers: type === undefined ? {} : { 'content-type': type } }, undefined, next);
    t.equal(thrown, null, String(type));
    t.equal(ctx.body?.toString('utf8'), body, `${String(type)}: the bytes as sent`);
    t.same(next.calls, [ctx], `${String(type)}: the chain runs`);
    t.equal(response.status, PASSED_ON);
  }
});

t.test('a chunked body arriving in parts is joined in order', async (t) => {
  const server = await stageServer(t, readBodyStage(LIMIT));
  const run = server.expect();
  const parts = ['{"model":', '"m",', '"messages":[]}'];
  await rawRequest(server.port, 'content-type: application/json\r\ntransfer-encoding: chunked\r\n', chunked(parts), true);
  const { ctx, thrown } = await run;
  t.equal(thrown, null);
  t.equal(ctx.body?.toString('utf8'), parts.join(''));
});

t.test('an empty body declared as such is an empty buffer (the parse stage refuses it)', async (t) => {
  const server = await stageServer(t, readBodyStage(LIMIT));
  const { ctx, thrown } = await server.ask({ method: 'POST', body: '', headers: { 'content-type': 'application/json', 'content-length': '0' } });
  t.equal(thrown, null);
  t.equal(ctx.body?.length, 0);
});

t.test('refusals: the error, nothing written to ctx.body, the chain not run', async (t) => {
  const server = await stageServer(t, readBodyStage(LIMIT));
  const cases: Array<[string, Record<string, string>, string, object]> = [
    ['text/plain', { 'content-type': 'text/plain' }, '{}', { code: 'unsupported_media_type', status: 415, message: 'Content-Type must be application/json, got "text/plain".' }],
    ['form data', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1', { code: 'unsupported_media_type' }],
    ['declared over the limit', { 'content-type': 'application/json' }, 'x'.repeat(LIMIT + 1), { code: 'request_too_large', status: 413, message: `Request body is larger than the limit of ${LIMIT} bytes.` }],
  ];
  for (const [name, headers, body, error] of cases) {
    const next = recordingNext();
    const { ctx, thrown } = await server.ask({ method: 'POST', headers, body }, undefined, next);
    t.ok(thrown instanceof GatewayError, name);
    t.match(thrown, error, name);
    t.equal(ctx.body, null, `${name}: no body`);
    t.same(next.calls, [], `${name}: the chain stops`);
  }
});

t.test('a chunked body growing past the limit is refused as it arrives', async (t) => {
  const server = await stageServer(t, readBodyStage(LIMIT));
  const next = recordingNext();
  const run = server.expect(undefined, next);
  const answer = rawRequest(server.port, 'content-type: application/json\r\ntransfer-encoding: chunked\r\n', chunked(['x'.repeat(600), 'x'.repeat(600)]), true);
  const { ctx, thrown } = await run;
  t.match(thrown, { code: 'request_too_large' });
  t.equal(ctx.body, null);
  t.same(next.calls, []);
  t.match(await answer, /^HTTP\/1\.1 599 /, 'the request was answered (here by the test server) without reading the rest');
});

t.test('a client leaving mid-body: the read fails as an incomplete body (a 400, not a pipeline fault), the chain not run', async (t) => {
  const server = await stageServer(t, readBodyStage(LIMIT));
  const next = recordingNext();
  const run = server.expect(undefined, next);
  await rawRequest(server.port, 'content-type: application/json\r\ncontent-length: 100\r\n', ['{"model":'], false);
  const { ctx, thrown } = await run;
  // Node 20 reports the cut as the request's own error ('aborted', ECONNRESET) before its 'close'; the
  // stage turns it into the client's error, which the error boundary logs as a 400, not as a 500.
  t.match(thrown, { code: 'invalid_request', message: 'The request body was not received completely.' });
  t.equal(ctx.body, null);
  t.same(next.calls, []);
});
