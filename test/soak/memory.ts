// Heap and RSS after a full garbage collection, so samples compare what is retained, not garbage.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

export interface MemorySample {
  requests: number;
  heapUsedMb: number;
  rssMb: number;
  handles: number;
}

export async function sample(requests: number): Promise<MemorySample> {
  // Let finished responses, timers and usage flushes settle before measuring.
  await new Promise((r) => setTimeout(r, 200));
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
  const m = process.memoryUsage();
  return {
    requests,
    heapUsedMb: round(m.heapUsed / 1048576),
    rssMb: round(m.rss / 1048576),
    handles: process.getActiveResourcesInfo().length,
  };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
