// The batched log destination: every line arrives once, whole and in order, whether it leaves by
// size, by the timer, by flush(), at exit, or through a pipe the reader is slow to drain.
import { spawnNode } from '../../helpers/child-node.js';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import type { Test } from 'tap';
import { BatchedFdStream } from '../../../src/observability/batched-fd-stream.js';

const CHILD = join(import.meta.dirname, 'fixtures/write-many-lines.js');

function fileStream(t: Test, opts: { minBytes: number; flushEveryMs: number }) {
  const path = join(t.testdir(), 'out.log');
  const fd = openSync(path, 'w');
  const stream = new BatchedFdStream({ fd, ...opts });
  t.teardown(() => {
    stream.end();
    closeSync(fd);
  });
  return { stream, read: () => readFileSync(path, 'utf8') };
}

const flushed = (stream: BatchedFdStream) => new Promise<void>((resolve, reject) => stream.flush((err) => (err ? reject(err) : resolve())));

t.test('small lines wait for the batch size, then go out in order', async (t) => {
  const { stream, read } = fileStream(t, { minBytes: 1000, flushEveryMs: 60_000 });
  stream.write('one\n');
  await new Promise((r) => setTimeout(r, 50));
  t.equal(read(), '', 'below the batch size nothing is written yet');
  const lines = Array.from({ length: 100 }, (_, i) => `line ${i} ${'y'.repeat(i)}\n`);
  for (const line of lines) stream.write(line);
  await new Promise((r) => setTimeout(r, 50));
  t.ok(read().length >= 1000, 'a full batch went out without a flush');
  await flushed(stream);
  t.equal(read(), `one\n${lines.join('')}`);
});

t.test('files and /dev/null are written in place; pipes asynchronously', async (t) => {
  const { stream, read } = fileStream(t, { minBytes: 100, flushEveryMs: 60_000 });
  t.equal(stream.writesInline, true, 'a regular file');
  stream.write(`${'z'.repeat(120)}\n`);
  t.equal(read().length, 121, 'the batch was written before write() returned');
  const devNull = openSync('/dev/null', 'w');
  const nullStream = new BatchedFdStream({ fd: devNull, minBytes: 100, flushEveryMs: 60_000 });
  t.equal(nullStream.writesInline, true, '/dev/null');
  nullStream.end();
  closeSync(devNull);
  t.equal(await childWriteMode('pipe'), false, 'a pipe');
  const childLog = openSync(join(t.testdir(), 'child.log'), 'w');
  t.equal(await childWriteMode(childLog), true, 'a file as stdout');
  closeSync(childLog);
});

const MODE_CHILD = join(import.meta.dirname, 'fixtures/report-write-mode.js');

async function childWriteMode(stdout: 'pipe' | number): Promise<boolean> {
  const child = spawnNode(MODE_CHILD, [], { env: process.env, stdio: ['ignore', stdout, 'pipe'] });
  let text = '';
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  await new Promise((resolve) => child.once('close', resolve));
  return (JSON.parse(text) as { writesInline: boolean }).writesInline;
}

t.test('a lone line leaves by the timer', async (t) => {
  const { stream, read } = fileStream(t, { minBytes: 1 << 20, flushEveryMs: 30 });
  stream.write('alone\n');
  await new Promise((r) => setTimeout(r, 200));
  t.equal(read(), 'alone\n');
});

t.test('multi-byte text and a line larger than any buffer keep their bytes and their place', async (t) => {
  const { stream, read } = fileStream(t, { minBytes: 64, flushEveryMs: 60_000 });
  const huge = `${'€'.repeat(40_000)}\n`;
  const expected = ['grüße 🚀\n', '日本語\n', huge, 'after\n'];
  for (const line of expected) stream.write(line);
  await flushed(stream);
  t.equal(read(), expected.join(''));
});

t.test('flushSync writes what is pending before returning', async (t) => {
  const { stream, read } = fileStream(t, { minBytes: 1 << 20, flushEveryMs: 60_000 });
  stream.write('sync me\n');
  stream.flushSync();
  t.equal(read(), 'sync me\n');
});

t.test('through a pipe read slowly, and at exit, no line is lost, doubled or torn', async (t) => {
  const count = 60_000;
  const child = spawnNode(CHILD, [String(count)], { env: process.env, stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => void child.kill('SIGKILL'));
  // Fill the pipe: the reader starts late, so the writer meets a full pipe.
  child.stdout!.pause();
  await new Promise((r) => setTimeout(r, 1000));
  let text = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => (text += chunk));
  child.stdout!.resume();
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  t.equal(code, 0);
  const lines = text.trimEnd().split('\n');
  t.equal(lines.length, count, `${lines.length} lines, ${text.length} chars, starts ${JSON.stringify(text.slice(0, 120))}`);
  const bad = lines.findIndex((line, i) => {
    const parsed = JSON.parse(line) as { n: number; text: string };
    return parsed.n !== i || parsed.text !== `ünïcødé ✓ ${'x'.repeat(i % 200)}`;
  });
  t.equal(bad, -1, 'every line whole and in order');
});
