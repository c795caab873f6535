// Every fault kind as a client sees it, injected in-process and through the control endpoint,
// and the clean-up after a client leaves mid-stream.
import type { IncomingMessage } from 'node:http';
import t from 'tap';
import { startSimulator, type Simulator } from '../../../src/apps/simulator/index.js';
import { call, eventNames, eventually, open, readAll, STREAM_REQUEST, TEXT_REQUEST } from './raw-http.js';

let sim: Simulator;
t.before(async () => {
  sim = await startSimulator();
});
t.teardown(() => sim.close());
t.afterEach(() => sim.clearFaults());

/** Collects a response body until `enough` says so, without waiting for its end. */
function readUntil(res: IncomingMessage, enough: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (c: Buffer): void => {
      text += c.toString('utf8');
      if (enough(text)) {
        res.off('data', onData);
        resolve(text);
      }
    };
    res.on('data', onData);
    res.on('error', reject);
  });
}

function errorCode(e: unknown): string | undefined {
  return (e as { code?: string }).code ?? (e instanceof Error ? e.message : undefined);
}

t.test('status fault: the real error shape, retry-after on 429, then back to normal', async (t) => {
  sim.injectFault({ kind: 'status', status: 429, message: 'slow down' }, 2);
  for (let i = 0; i < 2; i++) {
    const r = await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST);
    t.equal(r.status, 429);
    t.equal(r.headers['retry-after'], '1');
    t.match(JSON.parse(r.body), { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' }, request_id: r.headers['request-id'] });
  }
  t.equal((await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST)).status, 200);
  sim.injectFault({ kind: 'status', status: 500, errorType: 'api_error' });
  const r = await call(sim.url, 'POST', '/v1/messages/count_tokens', { model: 'claude-sonnet-4-6', messages: TEXT_REQUEST.messages });
  t.equal(r.status, 500);
  t.equal(r.headers['retry-after'], undefined);
});

t.test('faults do not touch the models endpoints', async (t) => {
  sim.injectFault({ kind: 'status', status: 503 });
  t.equal((await call(sim.url, 'GET', '/v1/models')).status, 200);
  t.equal((await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST)).status, 503);
});

t.test('reset-before-headers: the connection is reset, no response', async (t) => {
  sim.injectFault({ kind: 'reset-before-headers' });
  const e = await open(sim.url, 'POST', '/v1/messages', TEXT_REQUEST).catch((err: unknown) => err);
  t.equal(errorCode(e), 'ECONNRESET');
});

t.test('hang-before-headers: no response until the client gives up, then the socket is gone', async (t) => {
  sim.injectFault({ kind: 'hang-before-headers' });
  const controller = new AbortController();
  const pending = open(sim.url, 'POST', '/v1/messages', TEXT_REQUEST, undefined, controller.signal);
  let settled = false;
  void pending.then(() => (settled = true), () => (settled = true));
  await eventually(() => sim.openConnections() === 1, 'the request reached the simulator');
  await new Promise((r) => setTimeout(r, 50));
  t.notOk(settled, 'no response yet');
  controller.abort();
  await t.rejects(pending, { name: 'AbortError' });
  await eventually(() => sim.openConnections() === 0, 'socket closed');
});

t.test('reset-mid-stream: the stream stops after N events with a reset', async (t) => {
  sim.injectFault({ kind: 'reset-mid-stream', afterEvents: 2 });
  const res = await open(sim.url, 'POST', '/v1/messages', STREAM_REQUEST);
  t.equal(res.statusCode, 200);
  const e = await readAll(res).catch((err: unknown) => err);
  t.type(e, Error);
  t.same(eventNames((e as { partial: string }).partial), ['message_start', 'content_block_start']);
});

t.test('stall-mid-stream: N events, then silence with the socket open', async (t) => {
  sim.injectFault({ kind: 'stall-mid-stream', afterEvents: 3 });
  const res = await open(sim.url, 'POST', '/v1/messages', STREAM_REQUEST);
  let ended = false;
  res.on('end', () => (ended = true));
  const text = await readUntil(res, (s) => eventNames(s).length === 3);
  await new Promise((r) => setTimeout(r, 50));
  t.same(eventNames(text), ['message_start', 'content_block_start', 'ping']);
  t.notOk(ended, 'the response did not end');
  t.equal(sim.openConnections(), 1);
  res.destroy();
  await eventually(() => sim.openConnections() === 0, 'socket closed');
});

t.test('error-event: an SSE error event, then the end, no message_stop', async (t) => {
  sim.injectFault({ kind: 'error-event', afterEvents: 4, errorType: 'api_error', message: 'boom' });
  const r = await call(sim.url, 'POST', '/v1/messages', STREAM_REQUEST);
  const names = eventNames(r.body);
  t.equal(names.length, 5);
  t.equal(names[4], 'error');
  t.match(r.body, /event: error\ndata: \{"type":"error","error":\{"type":"api_error","message":"boom"\}\}\n\n$/);
});

t.test('malformed-json: 200 application/json whose body does not parse', async (t) => {
  sim.injectFault({ kind: 'malformed-json' });
  const r = await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST);
  t.equal(r.status, 200);
  t.equal(r.headers['content-type'], 'application/json');
  t.throws(() => JSON.parse(r.body));
});

t.test('malformed-sse: after N good events, a data line that is not JSON', async (t) => {
  sim.injectFault({ kind: 'malformed-sse', afterEvents: 2 });
  const r = await call(sim.url, 'POST', '/v1/messages', STREAM_REQUEST);
  const dataLines = r.body.split('\n').filter((l) => l.startsWith('data: '));
  t.equal(dataLines.length, 3);
  t.doesNotThrow(() => JSON.parse(dataLines[1].slice(6)));
  t.throws(() => JSON.parse(dataLines[2].slice(6)));
});

t.test('mid-stream faults on a non-streamed request act on the JSON body', async (t) => {
  sim.injectFault({ kind: 'reset-mid-stream', afterEvents: 1 });
  const res = await open(sim.url, 'POST', '/v1/messages', TEXT_REQUEST);
  t.equal(res.statusCode, 200);
  await t.rejects(readAll(res));
  sim.injectFault({ kind: 'error-event', afterEvents: 1 });
  const r = await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST);
  t.equal(r.status, 529);
  t.match(JSON.parse(r.body), { error: { type: 'overloaded_error', message: 'Overloaded' } });
});

t.test('the control endpoint injects and clears faults and changes options', async (t) => {
  const post = await call(sim.url, 'POST', '/_simulator/faults', { fault: { kind: 'status', status: 529 }, count: 3 }, { 'content-type': 'application/json' });
  t.equal(post.status, 204);
  t.equal((await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST)).status, 529);
  t.equal((await call(sim.url, 'DELETE', '/_simulator/faults')).status, 204);
  t.equal((await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST)).status, 200);
  const bad = await call(sim.url, 'POST', '/_simulator/faults', { fault: { kind: 'explode' } });
  t.equal(bad.status, 400);
  t.same(JSON.parse(bad.body), { error: 'unknown fault kind: explode' });
  t.equal((await call(sim.url, 'PATCH', '/_simulator/options', { replyTokens: 3 })).status, 204);
  const short = JSON.parse((await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST)).body) as { content: Array<{ text: string }> };
  t.equal(short.content[0].text, 'You said: Hello');
  t.equal((await call(sim.url, 'PATCH', '/_simulator/options', { replyTokens: 12 })).status, 204);
  t.equal((await call(sim.url, 'PATCH', '/_simulator/options', { bogus: 1 })).status, 400);
});

function simulatorTimers(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
}

t.test('a client leaving mid-stream stops generation: sockets closed, no timers left', async (t) => {
  const slow = await startSimulator({ tokensPerSecond: 50, replyTokens: 5000 });
  t.teardown(() => slow.close());
  const timersBefore = simulatorTimers();
  const res = await open(slow.url, 'POST', '/v1/messages', { ...STREAM_REQUEST, max_tokens: 6000 });
  await readUntil(res, (s) => s.includes('text_delta'));
  t.equal(slow.openConnections(), 1);
  t.ok(simulatorTimers() > timersBefore, 'a pacing timer runs while streaming');
  res.destroy();
  await eventually(() => slow.openConnections() === 0, 'socket closed');
  await eventually(() => simulatorTimers() <= timersBefore, 'pacing timer cleared');
  t.pass('generation stopped');
});

t.test('a slow reader gets the whole stream (backpressure waits for drain)', async (t) => {
  const big = await startSimulator({ replyTokens: 20000 });
  t.teardown(() => big.close());
  const res = await open(big.url, 'POST', '/v1/messages', { ...STREAM_REQUEST, max_tokens: 64000 });
  res.pause();
  await new Promise((r) => setTimeout(r, 50));
  res.resume();
  const body = await readAll(res);
  const names = eventNames(body);
  t.equal(names.filter((n) => n === 'content_block_delta').length, 20000);
  t.equal(names[names.length - 1], 'message_stop');
});

t.test('close() ends hanging requests and frees the port', async (t) => {
  const s = await startSimulator();
  s.injectFault({ kind: 'hang-before-headers' });
  const pending = open(s.url, 'POST', '/v1/messages', TEXT_REQUEST).catch((e: unknown) => e);
  await eventually(() => s.openConnections() === 1, 'request arrived');
  await s.close();
  t.equal(errorCode(await pending), 'ECONNRESET');
  t.equal(s.openConnections(), 0);
});
