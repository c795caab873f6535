// The upstream exchange against real HTTP servers on loopback: how a JSON answer and an event stream
// are handed over, how a broken, stalled, oversized or refused answer is classified, and what a
// cancellation does to the call and to the provider's connection.
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { upstreamBodyFailure } from '../../../src/policy/resilience/body-failure.js';
import type { Test } from 'tap';
import type { AnswerSink, AnswerStream } from '../../../src/upstream/answer-stream.js';
import { collectAnswer } from '../../../src/upstream/answer-stream.js';
import { Cancellation } from '../../../src/upstream/cancellation.js';
import type { UpstreamFailureKind, UpstreamOptions, UpstreamRequest } from '../../../src/upstream/client.js';
import { classifyUpstreamFailure, UpstreamClient } from '../../../src/upstream/client.js';
import { upstreamFailureError } from '../../../src/policy/resilience/upstream-failure.js';
import type { UpstreamResponse, StreamedAnswer } from '../../../src/upstream/exchange.js';
import { AnswerBodyError } from '../../../src/upstream/answer-stream.js';
import { ExchangeCancelled, isEventStreamType } from '../../../src/upstream/exchange.js';
import { ByteDigest, EventProducer } from '../../helpers/event-producer.js';
import type { Gate, TestServer } from '../../helpers/http-server.js';
import { closeOf, gate, startServer } from '../../helpers/http-server.js';
import { closedPort } from '../../helpers/ports.js';
import { waitFor } from '../../helpers/wait.js';

/** A socket that hangs fails its own test instead of stalling the file (a new object each time: tap
 * deletes `timeout` from a finished test's options). */
const quick = () => ({ timeout: 5000 });
const OPTIONS: UpstreamOptions = { connections: 2, connectTimeoutMs: 2000, headersTimeoutMs: 5000, bodyTimeoutMs: 5000 };
const REQUEST: UpstreamRequest = { method: 'POST', path: '/v1/messages', headers: { 'content-type': 'application/json' }, body: '{"model":"m"}' };
const JSON_TYPE = { 'content-type': 'application/json' };
const SSE_TYPE = { 'content-type': 'text/event-stream; charset=utf-8' };

function upstream(t: Test, url: string, options: Partial<UpstreamOptions> = {}): UpstreamClient {
  const client = new UpstreamClient(url, { ...OPTIONS, ...options });
  t.teardown(() => client.destroy());
  return client;
}

/** The error a call failed with (fails the test if it answered). */
async function failure(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (err) {
    return err;
  }
  throw new Error('the call answered; a failure was expected');
}

/** How the gateway reports a failure: its kind and, for a kind the client sees, the error code. */
function reported(err: unknown): { kind: UpstreamFailureKind; code: string | null } {
  const kind = classifyUpstreamFailure(err);
  return { kind, code: kind === 'cancelled' ? null : upstreamFailureError(kind).code };
}

interface Collected {
  chunks: Buffer[];
  /** Which chunks arrived while attach() was still running (replayed from before the sink). */
  duringAttach: number;
  done: Promise<{ end: 'end' } | { end: 'error'; error: Error }>;
}

function attachCollector(stream: AnswerStream): Collected {
  const chunks: Buffer[] = [];
  let settle!: (v: { end: 'end' } | { end: 'error'; error: Error }) => void;
  const done = new Promise<{ end: 'end' } | { end: 'error'; error: Error }>((r) => (settle = r));
  let attaching = true;
  const collected: Collected = { chunks, duringAttach: 0, done };
  const sink: AnswerSink = {
    data(chunk) {
      chunks.push(chunk);
      if (attaching) collected.duringAttach++;
      return true;
    },
    end: () => settle({ end: 'end' }),
    error: (error) => settle({ end: 'error', error }),
  };
  stream.attach(sink);
  attaching = false;
  return collected;
}

function streamed(t: Test, answer: UpstreamResponse): StreamedAnswer {
  if (answer.kind !== 'stream') throw new Error(`expected a stream, got a ${answer.kind} answer`);
  t.teardown(() => answer.body.cancel(new ExchangeCancelled()));
  return answer;
}

/** A provider that streams one event and then holds the stream open; `arrived` gives its response. */
async function oneEventThenSilence(t: Test): Promise<{ server: TestServer; arrived: Gate<ServerResponse> }> {
  const arrived = gate<ServerResponse>();
  const server = await startServer(t, (_req, res) => {
    res.writeHead(200, SSE_TYPE);
    res.write(events(1)[0]);
    arrived.open(res);
  });
  return { server, arrived };
}

const events = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `event: e\ndata: {"n":${from + i}}\n\n`);

t.test('which content types are streams', quick(), async (t) => {
  const cases: [string | string[] | undefined, boolean][] = [
    ['text/event-stream', true],
    ['text/event-stream; charset=utf-8', true],
    ['Text/Event-Stream', true],
    ['TEXT/EVENT-STREAM;charset=UTF-8', true],
    [['text/event-stream'], true],
    ['text/event-strea', false],
    ['text/event_stream', false],
    ['', false],
    ['application/json', false],
    ['text/plain', false],
    [undefined, false],
  ];
  for (const [type, stream] of cases) t.equal(isEventStreamType(type), stream, JSON.stringify(type));
});

t.test('a JSON answer arrives whole: status, headers, bytes and when the headers came', quick(), async (t) => {
  for (const status of [200, 400, 529]) {
    let received = '';
    const server = await startServer(t, (req, res) => {
      req.setEncoding('utf8');
      req.on('data', (d: string) => (received += d));
      req.on('end', () => {
        res.writeHead(status, { ...JSON_TYPE, 'request-id': 'req_1', 'retry-after': '3' });
        res.end(JSON.stringify({ status, echo: received }));
      });
    });
    const before = performance.now();
    const answer = await upstream(t, server.url).exchange(REQUEST);
    const after = performance.now();
    t.equal(answer.kind, 'buffered', `${status}: buffered`);
    t.equal(answer.statusCode, status);
    t.equal(answer.headers['request-id'], 'req_1');
    t.equal(answer.headers['retry-after'], '3');
    t.equal(received, REQUEST.body, 'the request body went up');
    t.same(answer.kind === 'buffered' && JSON.parse(answer.body.toString('utf8')), { status, echo: REQUEST.body });
    t.ok(answer.headersAt >= before && answer.headersAt <= after, 'headersAt is a performance.now() taken during the call');
    t.ok(answer.dispatchedAt >= before && answer.dispatchedAt <= answer.headersAt, 'dispatchedAt is taken during the call, before the headers came');
  }
});

t.test('a JSON answer split over many writes with pauses is put back together', quick(), async (t) => {
  const body = Buffer.from(JSON.stringify({ id: 'msg_1', content: [{ type: 'text', text: 'ünïcødé across writes — '.repeat(4) }] }));
  for (const [piece, framing] of [[1, 'chunked'], [7, 'content-length'], [64, 'chunked']] as const) {
    let lastWriteAt = 0;
    const server = await startServer(t, async (_req, res) => {
      res.writeHead(200, framing === 'chunked' ? JSON_TYPE : { ...JSON_TYPE, 'content-length': body.length });
      for (let i = 0; i < body.length; i += piece) {
        await sleep(1);
        lastWriteAt = performance.now();
        res.write(body.subarray(i, i + piece));
      }
      res.end();
    });
    const answer = await upstream(t, server.url).exchange(REQUEST);
    t.equal(answer.kind, 'buffered');
    t.ok(answer.kind === 'buffered' && answer.body.equals(body), `${piece}-byte writes (${framing}): the same bytes`);
    t.ok(answer.headersAt < lastWriteAt, 'headersAt is when the headers came, not when the body ended');
  }
});

t.test('an event stream is handed over at its headers, before its body is complete', quick(), async (t) => {
  const rest = gate();
  let restSent = false;
  const server = await startServer(t, async (_req, res) => {
    res.writeHead(200, SSE_TYPE);
    res.write(events(1)[0]);
    await rest.promise;
    restSent = true;
    for (const e of events(3, 1)) res.write(e);
    res.end();
  });
  const answer = streamed(t, await upstream(t, server.url).exchange(REQUEST));
  t.equal(restSent, false, 'the answer came while the provider was still holding the rest');
  t.equal(answer.statusCode, 200);
  t.equal(answer.headers['content-type'], SSE_TYPE['content-type']);
  const got = attachCollector(answer.body);
  await waitFor(() => got.chunks.length > 0, 2000, 5);
  t.equal(Buffer.concat(got.chunks).toString(), events(1)[0], 'the first event is relayed before the rest exists');
  rest.open();
  t.same(await got.done, { end: 'end' });
  t.equal(Buffer.concat(got.chunks).toString(), events(4).join(''), 'then the rest, in order');
  t.equal(answer.body.finished, true);
});

t.test('chunks that arrive before a sink is attached are replayed in order on attach', quick(), async (t) => {
  const written = gate();
  const server = await startServer(t, async (_req, res) => {
    res.writeHead(200, SSE_TYPE);
    for (const e of events(5)) {
      res.write(e);
      await sleep(5);
    }
    res.end(() => written.open());
  });
  const answer = streamed(t, await upstream(t, server.url).exchange(REQUEST));
  await written.promise;
  await sleep(30);
  t.equal(answer.body.finished, false, 'the answer waits for its sink: undici stopped reading at the first held chunk');
  const got = attachCollector(answer.body);
  t.ok(got.duringAttach > 0, `${got.duringAttach} held chunk(s) replayed inside attach()`);
  t.same(await got.done, { end: 'end' });
  t.equal(Buffer.concat(got.chunks).toString(), events(5).join(''), 'held and later chunks, in order');
  t.throws(() => answer.body.attach({ data: () => true, end() {}, error() {} }), /already attached/, 'one sink only');
});

t.test('a stream nobody reads stops the upstream socket; attaching takes every byte', quick(), async (t) => {
  const made = gate<EventProducer>();
  const server = await startServer(t, (_req, res) => made.open(new EventProducer(res)));
  const answer = streamed(t, await upstream(t, server.url).exchange(REQUEST));
  const producer = await made.promise;
  await producer.stalled(200, 4000);
  t.comment(`the provider was held back after ${producer.written} bytes`);
  producer.stop();
  const digest = new ByteDigest();
  const done = new Promise<string>((resolve) =>
    answer.body.attach({ data: (c) => (digest.update(c), true), end: () => resolve('end'), error: (e) => resolve(e.message) }),
  );
  t.equal(await done, 'end');
  await producer.done;
  t.equal(digest.bytes, producer.written, 'every byte');
  t.equal(digest.digest(), producer.digest(), 'in order');
});

t.test('a sink that returns false holds the upstream until resume()', quick(), async (t) => {
  const made = gate<EventProducer>();
  const server = await startServer(t, (_req, res) => made.open(new EventProducer(res)));
  const answer = streamed(t, await upstream(t, server.url).exchange(REQUEST));
  const producer = await made.promise;
  const digest = new ByteDigest();
  let holding = true;
  const done = new Promise<string>((resolve) =>
    answer.body.attach({ data: (c) => (digest.update(c), !holding), end: () => resolve('end'), error: (e) => resolve(e.message) }),
  );
  await producer.stalled(200, 4000);
  const held = digest.bytes;
  await sleep(50);
  t.equal(digest.bytes, held, 'no data while held');
  holding = false;
  producer.stop();
  answer.body.resume();
  t.equal(await done, 'end', 'one resume() and the rest flows');
  await producer.done;
  t.equal(digest.digest(), producer.digest(), 'every byte, in order');
});

t.test('an answer larger than the limit is refused as cut: upstream_bad_response', quick(), async (t) => {
  const limit = 1024;
  for (const [size, framing] of [[limit - 1, 'content-length'], [limit, 'chunked'], [limit + 1, 'content-length'], [limit + 1, 'chunked'], [64 * limit, 'chunked']] as const) {
    const body = Buffer.alloc(size, 'a');
    const server = await startServer(t, async (_req, res) => {
      res.writeHead(200, framing === 'chunked' ? JSON_TYPE : { ...JSON_TYPE, 'content-length': size });
      if (framing === 'content-length') return res.end(body);
      // Chunked in 100-byte writes: the limit applies to the sum, not to one chunk.
      for (let i = 0; i < size && !res.destroyed; i += 100) {
        res.write(body.subarray(i, i + 100));
        await sleep(0);
      }
      res.end();
    });
    const call = upstream(t, server.url, { maxBufferedAnswerBytes: limit }).exchange(REQUEST);
    if (size <= limit) {
      const answer = await call;
      t.equal(answer.kind === 'buffered' && answer.body.length, size, `${size} bytes (${framing}): accepted`);
      continue;
    }
    const err = await failure(call);
    t.type(err, AnswerBodyError, `${size} bytes (${framing}): refused after the headers`);
    t.match((err as AnswerBodyError).cause, { message: /larger than 1024 bytes/ });
    t.same(reported(err), { kind: 'cut', code: 'upstream_bad_response' });
    await waitFor(() => server.closedConnections === 1, 2000, 5);
    t.pass('the connection is dropped, not drained');
  }
});

t.test('a body cut mid-way is classified cut: upstream_bad_response', quick(), async (t) => {
  for (const framing of ['content-length', 'chunked'] as const) {
    const server = await startServer(t, async (_req, res) => {
      res.writeHead(200, framing === 'chunked' ? JSON_TYPE : { ...JSON_TYPE, 'content-length': 1000 });
      res.write('{"id":"msg_1","content":[{"type":"text","text":"half');
      await sleep(20);
      res.socket?.destroy();
    });
    const err = await failure(upstream(t, server.url).exchange(REQUEST));
    t.type(err, AnswerBodyError, framing);
    t.same(reported(err), { kind: 'cut', code: 'upstream_bad_response' }, framing);
  }
});

t.test('an event stream cut mid-way fails its sink after the bytes that came', quick(), async (t) => {
  const server = await startServer(t, async (_req, res) => {
    res.writeHead(200, SSE_TYPE);
    res.write(events(2).join(''));
    await sleep(20);
    res.socket?.destroy();
  });
  const answer = streamed(t, await upstream(t, server.url).exchange(REQUEST));
  const got = attachCollector(answer.body);
  const done = await got.done;
  t.equal(done.end, 'error', 'an error, not an end');
  t.equal(Buffer.concat(got.chunks).toString(), events(2).join(''));
  t.equal(done.end === 'error' && reported(done.error).kind, 'reset', 'the raw socket error (not a cancellation)');
});

t.test('silence past the timeouts: stalled body and missing headers are upstream_timeout', quick(), async (t) => {
  // undici runs these timeouts on its coarse timer (a ~0.5 s tick), so 200 ms fires at about 1 s: the
  // three cases run side by side.
  const timeoutMs = 200;
  const server = await startServer(t, (req, res) => {
    if (req.url === '/v1/no-headers') return; // never answers
    res.writeHead(200, req.url === '/v1/stream' ? SSE_TYPE : { ...JSON_TYPE, 'content-length': 100 });
    res.write(req.url === '/v1/stream' ? events(1)[0] : '{"id":');
  });
  const client = upstream(t, server.url, { connections: 3, bodyTimeoutMs: timeoutMs, headersTimeoutMs: timeoutMs });
  const started = performance.now();
  const silentBody = failure(client.exchange(REQUEST)).then((err) => ({ err, after: performance.now() - started }));
  const noHeaders = failure(client.exchange({ ...REQUEST, path: '/v1/no-headers' }));
  const silentStream = client.exchange({ ...REQUEST, path: '/v1/stream' }).then((answer) => attachCollector(streamed(t, answer).body).done);

  const body = await silentBody;
  t.type(body.err, AnswerBodyError);
  t.same(reported(body.err), { kind: 'stalled', code: 'upstream_timeout' }, 'a JSON body that goes silent');
  t.ok(body.after >= timeoutMs - 20, 'after bodyTimeout, not before');
  t.same(reported(await noHeaders), { kind: 'timeout', code: 'upstream_timeout' }, 'no headers');
  t.match(await silentStream, { end: 'error', error: { code: 'UND_ERR_BODY_TIMEOUT' } }, 'a stream that goes silent fails its sink');
});

t.test('connection refused is a connect failure: upstream_unreachable', quick(), async (t) => {
  const err = await failure(upstream(t, `http://127.0.0.1:${await closedPort()}`).exchange(REQUEST, new Cancellation()));
  t.same(reported(err), { kind: 'connect', code: 'upstream_unreachable' });
});

t.test('cancelled before dispatch: no request goes up', quick(), async (t) => {
  const server = await startServer(t, (_req, res) => res.end('{}'));
  const cancellation = new Cancellation();
  cancellation.cancel();
  const err = await failure(upstream(t, server.url).exchange(REQUEST, cancellation));
  t.type(err, ExchangeCancelled);
  t.equal(reported(err).kind, 'cancelled');
  await sleep(20);
  t.equal(server.requests, 0, 'the provider saw no request');
  t.equal(server.connections, 0, 'and no connection was opened for it');
});

t.test('an event stream is recognised whatever the letter case of its media type', async (t) => {
  const { isEventStreamType } = await import('../../../src/upstream/exchange.js');
  const cases: Array<[string | string[] | undefined, boolean]> = [
    ['text/event-stream', true],
    ['text/event-stream; charset=utf-8', true],
    ['Text/Event-Stream', true],
    [['TEXT/EVENT-STREAM'], true],
    ['application/json', false],
    ['text/event', false],
    [undefined, false],
  ];
  for (const [type, want] of cases) t.equal(isEventStreamType(type), want, String(type));
});

t.test('the content type is found whatever the letter case and place of its header name', quick(), async (t) => {
  const cases: Array<[string, string[]]> = [
    ['Content-Type', []],
    ['CONTENT-TYPE', ['x-request-id', 'Content-Length']],
    ['content-type', ['Content-Typo']],
  ];
  for (const [name, before] of cases) {
    const server = await startServer(t, (_req, res) => {
      const headers: Record<string, string> = {};
      for (const other of before) headers[other] = other === 'Content-Length' ? '5' : 'x';
      headers[name] = 'text/event-stream';
      res.writeHead(200, headers);
      res.end(before.includes('Content-Length') ? 'data:' : 'data:\n\n');
    });
    const answer = await upstream(t, server.url).exchange(REQUEST);
    t.equal(answer.kind, 'stream', `${name} after ${before.length} other headers`);
    t.equal(answer.headers['content-type'], 'text/event-stream', 'and the parsed headers carry it');
    if (answer.kind === 'stream') attachCollector(answer.body);
  }
});

t.test('one header is read alone as the parsed headers have it: absent, once, or several times', quick(), async (t) => {
  const server = await startServer(t, (_req, res) => {
    res.writeHead(200, ['Content-Type', 'application/json', 'Request-Id', 'req_1', 'x-should-retry', 'a', 'X-Should-Retry', 'b', 'x-should-retry', 'c']);
    res.end('{}');
  });
  const answer = await upstream(t, server.url).exchange(REQUEST);
  for (const name of ['content-type', 'request-id', 'x-should-retry', 'retry-after']) t.same(answer.header(name), answer.headers[name], name);
  t.same(answer.header('x-should-retry'), ['a', 'b', 'c']);
  t.equal(answer.header('retry-after'), undefined);
});

t.test('cancelled while waiting for the headers: the call fails at once and the connection closes', quick(), async (t) => {
  const arrived = gate<ServerResponse>();
  const server = await startServer(t, (_req, res) => arrived.open(res)); // never answers
  const cancellation = new Cancellation();
  const call = upstream(t, server.url).exchange(REQUEST, cancellation);
  const res = await arrived.promise;
  const started = performance.now();
  cancellation.cancel();
  const err = await failure(call);
  t.ok(performance.now() - started < 1000, 'well before any timeout');
  t.type(err, ExchangeCancelled);
  t.equal(reported(err).kind, 'cancelled');
  t.same(await closeOf(res), { finished: false }, 'the provider sees the connection close');
});

t.test('cancelled while a JSON body arrives: cancelled, not a broken body', quick(), async (t) => {
  const arrived = gate<ServerResponse>();
  const server = await startServer(t, (_req, res) => {
    res.writeHead(200, { ...JSON_TYPE, 'content-length': 100 });
    res.write('{"id":');
    arrived.open(res);
  });
  const cancellation = new Cancellation();
  const call = upstream(t, server.url).exchange(REQUEST, cancellation);
  const res = await arrived.promise;
  await sleep(50); // the headers and the first bytes are in
  cancellation.cancel();
  const err = await failure(call);
  t.type(err, ExchangeCancelled);
  t.equal(reported(err).kind, 'cancelled');
  t.same(await closeOf(res), { finished: false });
});

t.test('cancelled mid-stream: the sink fails with the cancellation and the connection closes', quick(), async (t) => {
  const { server, arrived } = await oneEventThenSilence(t);
  const cancellation = new Cancellation();
  const answer = streamed(t, await upstream(t, server.url).exchange(REQUEST, cancellation));
  const res = await arrived.promise;
  const got = attachCollector(answer.body);
  await waitFor(() => got.chunks.length > 0, 2000, 5);
  cancellation.cancel();
  const done = await got.done;
  t.equal(done.end, 'error');
  t.type(done.end === 'error' && done.error, ExchangeCancelled);
  t.equal(done.end === 'error' && reported(done.error).kind, 'cancelled');
  t.same(await closeOf(res), { finished: false }, 'the provider sees the connection close');
});

t.test('a cancellation after the answer is complete touches nothing: the connection is reused', quick(), async (t) => {
  const server = await startServer(t, (req, res) => {
    if (req.url === '/v1/stream') {
      res.writeHead(200, SSE_TYPE);
      return res.end(events(2).join(''));
    }
    res.writeHead(200, JSON_TYPE);
    res.end('{}');
  });
  const client = upstream(t, server.url, { connections: 1 });
  const first = new Cancellation();
  t.equal((await client.exchange(REQUEST, first)).kind, 'buffered');
  first.cancel();
  const second = new Cancellation();
  const answer = await client.exchange({ ...REQUEST, path: '/v1/stream' }, second);
  t.equal(answer.kind, 'stream');
  if (answer.kind === 'stream') t.same(await attachCollector(answer.body).done, { end: 'end' });
  second.cancel();
  t.equal((await client.exchange(REQUEST, new Cancellation())).kind, 'buffered');
  t.equal(server.connections, 1, 'one keep-alive connection for all three calls');
  t.equal(server.closedConnections, 0);
});

t.test('AnswerStream.cancel drops the rest and closes the connection', quick(), async (t) => {
  const { server, arrived } = await oneEventThenSilence(t);
  const answer = streamed(t, await upstream(t, server.url).exchange(REQUEST));
  const res = await arrived.promise;
  const got = attachCollector(answer.body);
  await waitFor(() => got.chunks.length > 0, 2000, 5);
  answer.body.cancel(new ExchangeCancelled());
  t.match(await got.done, { end: 'error', error: { name: 'AbortError' } });
  t.equal(answer.body.finished, true);
  t.same(await closeOf(res), { finished: false });
});

t.test('collectAnswer reads a streamed answer whole, or refuses one over its limit', quick(), async (t) => {
  const body = events(20).join('');
  const server = await startServer(t, async (_req, res) => {
    res.writeHead(529, SSE_TYPE);
    for (let i = 0; i < body.length; i += 50) {
      res.write(body.slice(i, i + 50));
      await sleep(0);
    }
    res.end();
  });
  const client = upstream(t, server.url);
  const whole = streamed(t, await client.exchange(REQUEST));
  t.equal(whole.statusCode, 529);
  t.equal((await collectAnswer(whole.body, body.length)).toString(), body, 'exactly the limit: whole');
  const over = streamed(t, await client.exchange(REQUEST));
  const err = await failure(collectAnswer(over.body, body.length - 1));
  t.match(err, { cause: { message: `upstream answer larger than ${body.length - 1} bytes` } });
  t.match(upstreamBodyFailure(err), { error: { code: 'upstream_bad_response', status: 502 }, metric: 'protocol' }, 'answered 502, not the gateway\'s own 500');
  await waitFor(() => server.closedConnections === 1, 2000, 5);
  t.pass('the oversized answer’s connection is dropped');
});
