// relayAnswer between two real sockets: a provider (node:http on loopback) streams through
// UpstreamClient.exchange, and a client-facing node:http server relays it to a real client. A client
// that stops reading must stop the provider; a mapper that throws, or a client that goes away, must
// end the relay and close the provider's connection; a mapper may write over its earlier output only
// when the relay says that output has left.
import { get } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import type { Test } from 'tap';
import { providerStream } from '../../../../bench/micro/stream-fixture.js';
import { Reframer } from '../../../../src/dialects/sse/reframer.js';
import type { PumpResult } from '../../../../src/gateway/relay/pump.js';
import type { ChunkMapper } from '../../../../src/gateway/relay/relay-answer.js';
import { relayAnswer } from '../../../../src/gateway/relay/relay-answer.js';
import { ChatStreamTranslator } from '../../../../src/dialects/translators/chat-to-anthropic/stream.js';
import { ReframedStream } from '../../../../src/dialects/translators/openai-shared/translated-answer.js';
import { Cancellation } from '../../../../src/upstream/cancellation.js';
import { UpstreamClient } from '../../../../src/upstream/client.js';
import { ByteDigest, EventProducer } from '../../../helpers/event-producer.js';
import type { Gate } from '../../../helpers/http-server.js';
import { closeOf, gate, startServer } from '../../../helpers/http-server.js';
import { waitFor } from '../../../helpers/wait.js';

/** A socket that hangs fails its own test instead of stalling the file (a new object each time: tap
 * deletes `timeout` from a finished test's options). */
const quick = () => ({ timeout: 5000 });
const SSE_TYPE = { 'content-type': 'text/event-stream' };
const passThrough: ChunkMapper = { chunk: (c) => c, end: () => '' };
const chatTranslator = () => new ChatStreamTranslator({ created: 1767225600, model: 'claude-sonnet-4-6', includeUsage: true });

interface Relay {
  res: ServerResponse;
  cancellation: Cancellation;
  result: Promise<PumpResult>;
}

/**
 * The client-facing side: each request is sent up, and the provider's stream relayed back. With
 * `wireClose` (as the gateway does) a client that goes away before the end cancels the request.
 */
async function relayServer(t: Test, providerUrl: string, mapper: () => ChunkMapper, wireClose = true): Promise<{ url: string; relay: Gate<Relay> }> {
  const upstream = new UpstreamClient(providerUrl, { connections: 2, connectTimeoutMs: 2000, headersTimeoutMs: 5000, bodyTimeoutMs: 5000 });
  t.teardown(() => upstream.destroy());
  const relay = gate<Relay>();
  const server = await startServer(t, (_req, res) => {
    const cancellation = new Cancellation();
    if (wireClose) {
      res.once('close', () => {
        if (!res.writableFinished) cancellation.cancel();
      });
    }
    const result = (async () => {
      const answer = await upstream.exchange({ method: 'POST', path: '/v1/messages', headers: {}, body: '{}' }, cancellation);
      if (answer.kind !== 'stream') throw new Error('the provider did not stream');
      res.writeHead(200, SSE_TYPE);
      res.flushHeaders();
      const result = await relayAnswer(res, answer.body, cancellation, mapper());
      if (!res.destroyed) res.end();
      return result;
    })();
    relay.open({ res, cancellation, result });
  });
  return { url: server.url, relay };
}

/** A client that has the response's headers and has not read its body yet. */
async function client(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = get(url, { agent: false }, (res) => {
      res.pause();
      resolve(res);
    });
    req.on('error', reject);
  });
}

function readAll(res: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', reject);
    res.resume();
  });
}

/** Reads until `text` has arrived, then stops reading. */
function readUntil(res: IncomingMessage, text: string): Promise<string> {
  let got = '';
  return new Promise((resolve) => {
    const onData = (c: Buffer) => {
      got += c.toString('utf8');
      if (!got.includes(text)) return;
      res.off('data', onData);
      res.pause();
      resolve(got);
    };
    res.on('data', onData);
    res.resume();
  });
}

/**
 * A provider that streams one event, then `next` once `more` opens, and holds the stream open: only
 * a cancellation ends it. `closed` tells whether its connection closed before the end.
 */
async function heldProvider(t: Test, next?: string): Promise<{ url: string; more: Gate; closed: Promise<{ finished: boolean }> }> {
  const more = gate();
  const closed = gate<{ finished: boolean }>();
  const provider = await startServer(t, async (_req, res) => {
    void closeOf(res).then(closed.open);
    res.writeHead(200, SSE_TYPE);
    res.write('data: {"n":1}\n\n');
    await more.promise;
    if (next !== undefined) res.write(next);
  });
  return { url: provider.url, more, closed: closed.promise };
}

/** An EventProducer relayed unchanged to a client that has not started reading. */
async function producingRelay(t: Test): Promise<{ res: IncomingMessage; producer: EventProducer; relay: Relay }> {
  const made = gate<EventProducer>();
  const provider = await startServer(t, (_req, res) => made.open(new EventProducer(res)));
  const front = await relayServer(t, provider.url, () => passThrough);
  const res = await client(front.url);
  return { res, producer: await made.promise, relay: await front.relay.promise };
}

t.test('a client that does not read holds the provider back; reading again takes every byte in order', quick(), async (t) => {
  const { res, producer, relay } = await producingRelay(t);

  await producer.stalled(300, 20_000);
  t.comment(`the provider was held back after ${producer.written} bytes; the relay holds ${relay.res.writableLength} unsent`);
  t.ok(relay.res.writableLength < 256 * 1024, 'the relay buffers about one chunk, not the stream');
  // On a loaded machine the relay may still be moving bytes into the sockets' buffers after a 300 ms
  // stall, so the provider can take a little more: what matters is that it stays held back, within
  // what the two connections' kernel buffers hold (a few MiB), far below the 64 MiB it would write.
  await producer.stalled(300, 20_000);
  const held = producer.written;
  t.ok(held < 16 * 1024 * 1024, `nothing beyond the sockets' buffers is written while the client does not read (${held} bytes)`);

  producer.stop();
  const digest = new ByteDigest();
  res.on('data', (c: Buffer) => digest.update(c));
  const ended = new Promise((r) => res.once('end', r));
  res.resume();
  await ended;
  await producer.done;
  t.ok(producer.written > held, 'the provider went on once the client read');
  t.equal(digest.bytes, producer.written, 'every byte');
  t.equal(digest.digest(), producer.digest(), 'in order');
  t.same(await relay.result, { end: 'complete', error: null });
});

t.test('a mapper that throws ends the relay as source_failed and closes the provider connection', quick(), async (t) => {
  const provider = await heldProvider(t, 'data: {"boom":true}\n\n');
  const failure = new Error('cannot map this chunk');
  const front = await relayServer(t, provider.url, () => ({
    chunk(c) {
      if (c.includes('boom')) throw failure;
      return c;
    },
    end: () => '',
  }));
  const res = await client(front.url);
  t.equal(await readUntil(res, '\n\n'), 'data: {"n":1}\n\n', 'the chunk before the failure was relayed');
  provider.more.open();
  const relay = await front.relay.promise;
  t.same(await relay.result, { end: 'source_failed', error: failure });
  t.same(await provider.closed, { finished: false }, 'the provider sees its connection closed');
  t.equal(relay.cancellation.cancelled, false, 'the client is still there');
  t.equal((await readAll(res)).toString(), '', 'the client gets nothing from the failed chunk, then the end');
});

t.test('an unchanged mapper reads each chunk after it went out: a chunk it fails on has reached the client', quick(), async (t) => {
  const provider = await heldProvider(t, 'data: {"boom":true}\n\n');
  const failure = new Error('cannot read this chunk');
  const read: string[] = [];
  const front = await relayServer(t, provider.url, () => ({
    unchanged: true,
    chunk(c) {
      read.push(c.toString());
      if (c.includes('boom')) throw failure;
      return c;
    },
    end: () => '',
  }));
  const res = await client(front.url);
  t.equal(await readUntil(res, '\n\n'), 'data: {"n":1}\n\n');
  provider.more.open();
  const relay = await front.relay.promise;
  t.same(await relay.result, { end: 'source_failed', error: failure });
  t.same(await provider.closed, { finished: false }, 'the provider sees its connection closed');
  t.equal((await readAll(res)).toString(), 'data: {"boom":true}\n\n', 'the chunk was written before the mapper read it');
  t.same(read, ['data: {"n":1}\n\n', 'data: {"boom":true}\n\n'], 'the mapper read every chunk');
});

t.test('the last chunk and the end of the body leave in one write', quick(), async (t) => {
  const more = gate();
  const provider = await startServer(t, async (_req, res) => {
    res.writeHead(200, SSE_TYPE);
    res.write('data: {"n":1}\n\n');
    await more.promise;
    res.end('data: {"n":2}\n\n');
  });
  const front = await relayServer(t, provider.url, () => passThrough);
  const res = await client(front.url);
  t.equal(await readUntil(res, '\n\n'), 'data: {"n":1}\n\n');
  const relay = await front.relay.promise;
  // Counted where the socket hands bytes to the system: one write, or one gathered write, per call.
  const socket = relay.res.socket as unknown as { _write: (...a: unknown[]) => unknown; _writev: (...a: unknown[]) => unknown };
  let writes = 0;
  for (const name of ['_write', '_writev'] as const) {
    const original = socket[name].bind(socket);
    socket[name] = (...args: unknown[]) => {
      writes++;
      return original(...args);
    };
  }
  more.open();
  t.same(await relay.result, { end: 'complete', error: null });
  t.equal((await readAll(res)).toString(), 'data: {"n":2}\n\n');
  t.equal(writes, 1, 'the last event and the chunked body\'s end went out together');
});

t.test('a client that goes away mid-stream: the relay ends as client_gone and the provider connection closes', quick(), async (t) => {
  const provider = await heldProvider(t);
  const front = await relayServer(t, provider.url, () => passThrough);
  const res = await client(front.url);
  await readUntil(res, '\n\n');
  const relay = await front.relay.promise;
  res.destroy();
  const result = await relay.result;
  t.equal(relay.cancellation.cancelled, true, 'the close cancelled the request');
  t.equal(result.end, 'client_gone');
  t.same(await provider.closed, { finished: false });
});

t.test('a client that goes away while the relay waits for drain: client_gone, provider closed', quick(), async (t) => {
  const { res, producer, relay } = await producingRelay(t);
  await producer.stalled(200, 4000);
  res.destroy();
  t.equal((await relay.result).end, 'client_gone');
  await producer.done;
  t.equal(producer.cut, true, 'the provider saw its connection close while it waited to write');
});

t.test('without the close wiring, the next chunk finds the client gone and cancels the provider', quick(), async (t) => {
  const provider = await heldProvider(t, 'data: {"n":2}\n\n');
  const front = await relayServer(t, provider.url, () => passThrough, false);
  const res = await client(front.url);
  await readUntil(res, '\n\n');
  const relay = await front.relay.promise;
  const frontClosed = closeOf(relay.res);
  res.destroy();
  await frontClosed;
  provider.more.open();
  t.same(await relay.result, { end: 'client_gone', error: null });
  t.same(await provider.closed, { finished: false });
});

t.test('a re-framing mapper gives the same text however the provider splits its writes', quick(), async (t) => {
  const { bytes } = providerStream(12);
  const whole = new Reframer(chatTranslator());
  const expected = `${whole.push(bytes)}${whole.end()}`;
  t.match(expected, /data: \[DONE\]\n\n$/);
  for (const piece of [1, 13, 512]) {
    const provider = await startServer(t, async (_req, res) => {
      res.writeHead(200, SSE_TYPE);
      for (let i = 0; i < bytes.length; i += piece) {
        res.write(bytes.subarray(i, i + piece));
        if (i % (piece * 8) === 0) await new Promise((r) => setImmediate(r));
      }
      res.end();
    });
    const front = await relayServer(t, provider.url, () => {
      const reframer = new Reframer(chatTranslator());
      return { chunk: (c) => reframer.push(c), end: () => reframer.end() };
    });
    const got = (await readAll(await client(front.url))).toString('utf8');
    t.equal(got, expected, `${piece}-byte provider writes`);
    t.same(await (await front.relay.promise).result, { end: 'complete', error: null });
  }
});

t.test('re-framed as bytes, a stream read late by its client arrives whole: no output is written over while its write waits', { timeout: 20_000 }, async (t) => {
  // Enough output to fill both sockets' buffers while the client does not read, so that writes wait
  // in the response while later chunks are re-framed: a buffer reused too early would show in the text.
  const { bytes } = providerStream(60_000);
  const whole = new Reframer(chatTranslator());
  const expected = `${whole.push(bytes)}${whole.end()}`;
  const provider = await startServer(t, async (_req, res) => {
    res.writeHead(200, SSE_TYPE);
    for (let i = 0; i < bytes.length; i += 4096) {
      if (!res.write(bytes.subarray(i, i + 4096))) await new Promise((r) => res.once('drain', r));
    }
    res.end();
  });
  let front: Relay | null = null;
  let pendingAtChunk = 0;
  let bufferChunks = 0;
  let reused = 0;
  let sentWhilePending = 0;
  // As the chat surface relays: deltas re-framed as bytes into the output's buffer, not as text, and
  // that buffer written over for the next chunk whenever the relay says the earlier output has left.
  const server = await relayServer(t, provider.url, () => {
    const stream = new ReframedStream({}, chatTranslator());
    let last: Buffer | null = null;
    return {
      chunk: (c, earlierSent) => {
        const pending = front !== null && front.res.writableLength > 0;
        if (pending) pendingAtChunk++;
        if (pending && earlierSent) sentWhilePending++;
        const out = stream.chunk(c, earlierSent);
        if (Buffer.isBuffer(out)) {
          bufferChunks++;
          if (last !== null && out.buffer === last.buffer && out.byteOffset === last.byteOffset) reused++;
          last = out;
        }
        return out;
      },
      end: () => stream.end(),
    };
  });
  const res = await client(server.url);
  front = await server.relay.promise;
  await waitFor(() => pendingAtChunk > 0, 10_000);
  const got = (await readAll(res)).toString('utf8');
  t.equal(got.length, expected.length, 'every byte');
  t.ok(got === expected, 'in order, none written over');
  t.ok(pendingAtChunk > 0, `chunks were re-framed while earlier output waited in the response (${pendingAtChunk} of them)`);
  t.ok(bufferChunks > 100, `the output was bytes in buffers (${bufferChunks} chunks), not text`);
  t.equal(sentWhilePending, 0, 'the relay never let a buffer be reused while output waited in the response');
  t.ok(reused > 0, `while the client read, chunks reused the buffer of the one before (${reused} of them)`);
  t.same(await front.result, { end: 'complete', error: null });
});

t.test('the provider failing mid-stream ends the relay as source_failed', quick(), async (t) => {
  const provider = await startServer(t, async (_req, res) => {
    res.writeHead(200, SSE_TYPE);
    res.write('data: {"n":1}\n\n');
    await sleep(20);
    res.socket?.destroy();
  });
  const front = await relayServer(t, provider.url, () => passThrough);
  const got = readAll(await client(front.url));
  const relay = await front.relay.promise;
  const result = await relay.result;
  t.equal(result.end, 'source_failed');
  t.ok(result.error instanceof Error, 'with the socket error');
  t.equal((await got).toString(), 'data: {"n":1}\n\n');
  await waitFor(() => relay.res.writableFinished, 1000, 5);
});
