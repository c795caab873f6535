// Translation workers run at a lower priority than the event loop; the main thread keeps its own.
import t from 'tap';
import { readdirSync } from 'node:fs';
import { getPriority } from 'node:os';
import { createTranslatePool } from '../../../../src/gateway/offload/pool.js';
import { currentThreadId, lowerThreadPriority, WORKER_NICENESS } from '../../../../src/lib/thread-priority.js';

const linux = process.platform === 'linux';
const niceOfThreads = () => readdirSync('/proc/self/task').map((tid) => ({ tid: Number(tid), nice: getPriority(Number(tid)) }));

t.test('the calling thread is known by its kernel id', { skip: !linux && 'Linux only' }, async (t) => {
  t.equal(currentThreadId(), process.pid, 'the main thread’s id is the process id');
  t.equal(lowerThreadPriority(), null, 'the main thread is never lowered');
  t.equal(getPriority(process.pid), getPriority(), 'the process keeps its priority');
});

t.test('a translation worker lowers its own thread only', { skip: !linux && 'Linux only' }, async (t) => {
  const base = getPriority(process.pid);
  const before = new Set(niceOfThreads().map((x) => x.tid));
  const pool = createTranslatePool({ threads: 1, minBytes: 1 });
  t.teardown(() => pool.close());
  const head = await pool.head(Buffer.from('{"model":"m","messages":[]}'), 64);
  t.equal(head.ok, true);
  const lowered = niceOfThreads().filter((x) => !before.has(x.tid) && x.nice === Math.min(19, base + WORKER_NICENESS));
  t.ok(lowered.length >= 1, `a new thread runs at nice ${base + WORKER_NICENESS}: ${JSON.stringify(niceOfThreads())}`);
  t.equal(getPriority(process.pid), base, 'the event loop’s thread keeps its priority');
});
