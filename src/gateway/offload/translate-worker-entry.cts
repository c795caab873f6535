// The translation pool's task file, in CommonJS on purpose: Piscina loads its task file with require()
// first, and on Node 20 require() of an ES module while a loader hook is registered (a test runner's
// coverage hook, an APM agent's) can abort the whole process. From here the worker module is imported
// the ES module way, once per thread.
import type { HeadResult, TranslateResult, WorkerTask } from './tasks.js';

type Run = (task: WorkerTask) => HeadResult | TranslateResult;
let loaded: Promise<Run> | null = null;

async function translateWorkerEntry(task: WorkerTask): Promise<HeadResult | TranslateResult> {
  loaded ??= import('./translate-worker.js').then((m: { default: Run }) => m.default);
  return (await loaded)(task);
}

export = translateWorkerEntry;
