// Soak: drives many mixed requests (default 100,000) through an in-process gateway and reports heap
// and RSS before and after; exits 1 when either grew beyond noise. `npm run soak [-- --requests N
// --concurrency C --no-write]`; writes docs/soak.md unless --no-write.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent } from 'undici';
import { startHarness } from '../helpers/harness.js';
import type { MemorySample } from './memory.js';
import { sample } from './memory.js';
import { markdown, verdictOf } from './report.js';
import type { SoakResult } from './report.js';
import type { TrafficTarget } from './traffic.js';
import { kindAt, send } from './traffic.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '100000' },
    concurrency: { type: 'string', default: '32' },
    'no-write': { type: 'boolean', default: false },
  },
});
const total = Number(values.requests);
const concurrency = Number(values.concurrency);
const warmup = Math.min(5000, Math.floor(total / 10));
const SAMPLES = 10;

async function main(): Promise<number> {
  const h = await startHarness({
    env: { LOG_LEVEL: 'error', GATEWAY_RETRY_ATTEMPTS: '2', GATEWAY_RETRY_BASE_DELAY_MS: '1', GATEWAY_BREAKER_MIN_CALLS: '0' },
    simulator: { record: false, replyTokens: 24 },
  });
  const dispatcher = new Agent({ connections: concurrency, pipelining: 1 });
  const { key } = await h.createKey({ name: 'soak' });
  const limited = await h.createKey({ name: 'soak limited', rpm: 60 });
  const target: TrafficTarget = { url: h.url, simulator: h.simulator, dispatcher, key, limitedKey: limited.key };
  const statuses = new Map<number, number>();
  let errors = 0;
  const samples: MemorySample[] = [await sample(0)];

  const run = async (from: number, to: number) => {
    let next = from;
    const worker = async () => {
      while (next < to) {
        const i = next++;
        try {
          const status = await send(target, kindAt(i), i);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        } catch {
          errors++;
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  };

  const started = performance.now();
  await run(0, warmup);
  samples.push(await sample(warmup));
  const step = Math.ceil((total - warmup) / SAMPLES);
  for (let done = warmup; done < total; done += step) {
    await run(done, Math.min(total, done + step));
    samples.push(await sample(Math.min(total, done + step)));
    process.stderr.write(`soak: ${Math.min(total, done + step)} / ${total}\n`);
  }
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  await dispatcher.close();
  await h.close();

  const result: SoakResult = { requests: total, concurrency, seconds, statuses, errors, samples };
  const verdict = verdictOf(result);
  const report = markdown(result, verdict, new Date());
  process.stdout.write(report);
  if (!values['no-write']) writeFileSync(join(process.cwd(), 'docs', 'soak.md'), report);
  return verdict.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`soak failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(2);
  },
);
