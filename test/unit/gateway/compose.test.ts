// compose: the route's stages joined once into one handler, each calling the rest through `next`.
import t from 'tap';
import { compose, type Stage } from '../../../src/gateway/compose.js';
import { stageContext } from './stages/stage-context.js';

/** A stage that logs its entry and exit around the rest of the chain. */
const around =
  (name: string, log: string[]): Stage =>
  async (ctx, next) => {
    log.push(`${name} in`);
    await next(ctx);
    log.push(`${name} out`);
  };

t.test('stages run in order, each around the rest (an onion), on the same context', async (t) => {
  const log: string[] = [];
  const seen = new Set<unknown>();
  const record: Stage = async (ctx, next) => {
    seen.add(ctx);
    await next(ctx);
  };
  const ctx = stageContext();
  await compose([around('a', log), record, around('b', log), record])(ctx);
  t.same(log, ['a in', 'b in', 'b out', 'a out']);
  t.same([...seen], [ctx], 'one context throughout');
});

t.test('a stage that answers without calling next ends the chain there', async (t) => {
  const log: string[] = [];
  const answer: Stage = async () => {
    log.push('answered');
  };
  await compose([around('a', log), answer, around('never', log)])(stageContext());
  t.same(log, ['a in', 'answered', 'a out']);
});

t.test('no stages: a handler that does nothing', async (t) => {
  await t.resolves(compose([])(stageContext()));
});

t.test('a stage that throws synchronously becomes a rejected promise, seen by the stages around it', async (t) => {
  const failure = new Error('sync failure');
  const throwsSync: Stage = () => {
    throw failure;
  };
  const caught: unknown[] = [];
  const boundary: Stage = async (ctx, next) => {
    try {
      await next(ctx);
    } catch (err) {
      caught.push(err);
    }
  };
  const handler = compose([throwsSync]);
  let result: Promise<void> | undefined;
  t.doesNotThrow(() => {
    result = handler(stageContext());
  }, 'the handler itself never throws');
  await t.rejects(result!, failure);
  await compose([boundary, throwsSync])(stageContext());
  t.same(caught, [failure]);
});
