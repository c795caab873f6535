// A large chat body lets the event loop turn between parsing and translating; a small one does not.
import t from 'tap';
import type { RequestContext } from '../../../../src/gateway/context.js';
import type { Runtime } from '../../../../src/gateway/runtime.js';
import { yieldLargeBodyStage } from '../../../../src/gateway/stages/yield-large-body.js';

const rt = { config: { translatePool: { threads: 0, minBytes: 1024 } } } as unknown as Runtime;

async function loopTurnedBeforeNext(bodyBytes: number): Promise<boolean> {
  let turned = false;
  setImmediate(() => (turned = true));
  let seen: boolean | null = null;
  const ctx = { body: Buffer.alloc(bodyBytes) } as unknown as RequestContext;
  await yieldLargeBodyStage(rt)(ctx, async () => {
    seen = turned;
  });
  return seen!;
}

t.test('bodies at or above the threshold yield one turn of the event loop before the next stage', async (t) => {
  t.equal(await loopTurnedBeforeNext(1024), true, 'at the threshold');
  t.equal(await loopTurnedBeforeNext(1024 * 1024), true, '1 MiB');
});

t.test('smaller bodies go straight on', async (t) => {
  t.equal(await loopTurnedBeforeNext(1023), false, 'just below');
  t.equal(await loopTurnedBeforeNext(200), false, 'a small request');
});
