// Piscina worker entry: runs one task. The result (with a translated body's bytes) is copied back by
// structured clone; Piscina transfers only a top-level return value, and the copy costs the main
// thread a memcpy, far less than the parse and serialisation it saves.
import type { HeadResult, TranslateResult, WorkerTask } from './tasks.js';
import { runTask } from './tasks.js';
import { lowerThreadPriority } from '../../lib/thread-priority.js';

// Large translations yield the cores to the event loop (bench/README.md, the pool phase).
lowerThreadPriority();

export default function translateWorker(task: WorkerTask): HeadResult | TranslateResult {
  return runTask(task);
}
