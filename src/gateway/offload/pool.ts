// The translation pool: worker threads for chat bodies of at least `minBytes`, so parsing, translating
// and serialising a large conversation never blocks the event loop that serves everyone else.
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { CatalogModel } from '../../catalog/model.js';
import type { HeadResult, TranslateResult, WorkerTask } from './tasks.js';

export interface TranslatePoolOptions {
  threads: number;
  /** Bodies from this size go to the pool; smaller ones are cheaper inline than a thread hop. */
  minBytes: number;
}

export interface TranslatePool {
  readonly minBytes: number;
  /** Tasks the workers have finished (for tests and the bench). */
  readonly completed: number;
  head(body: Buffer, maxDepth: number): Promise<HeadResult>;
  translate(body: Buffer, model: CatalogModel, strict: boolean): Promise<TranslateResult>;
  close(): Promise<void>;
}

// A CommonJS entry beside this file: Piscina loads its task file with require() first, and on Node 20
// require() of an ES module under a loader hook (a test runner's, an APM agent's) can abort the process.
const WORKER = fileURLToPath(new URL('./translate-worker-entry.cjs', import.meta.url));

export function createTranslatePool(opts: TranslatePoolOptions): TranslatePool {
  const piscina = new Piscina<WorkerTask, HeadResult | TranslateResult>({
    filename: WORKER,
    minThreads: opts.threads,
    maxThreads: opts.threads,
    // Threads stay up: a large body should not also pay for a thread start.
    idleTimeout: Number.POSITIVE_INFINITY,
  });
  return {
    minBytes: opts.minBytes,
    get completed() {
      return piscina.completed;
    },
    // The body is copied to the worker (structured clone): the request keeps its own bytes.
    head: (body, maxDepth) => piscina.run({ kind: 'head', body, maxDepth }) as Promise<HeadResult>,
    translate: (body, model, strict) => piscina.run({ kind: 'translate', body, model, strict }) as Promise<TranslateResult>,
    close: () => piscina.destroy(),
  };
}
