// The request-id stage alone: reads the context's id and whether the runtime answers from the
// simulator, writes the id under both header names clients look for (and the simulator mark), and
// always runs the rest of the chain.
import t from 'tap';
import { requestIdStage } from '../../../../src/gateway/stages/request-id.js';
import { recordingNext, runtimeWith, stageContext } from './stage-context.js';

t.test('the id goes out as x-request-id and request-id; the simulator mark only when simulated', async (t) => {
  const cases: Array<[string, boolean, Record<string, string>]> = [
    ['a real upstream', false, { 'x-request-id': 'req-1', 'request-id': 'req-1' }],
    ['the simulator', true, { 'x-request-id': 'req-1', 'request-id': 'req-1', 'x-gateway-upstream': 'simulator' }],
  ];
  for (const [name, simulated, headers] of cases) {
    const ctx = stageContext();
    const next = recordingNext();
    await requestIdStage(runtimeWith({ simulated }))(ctx, next);
    t.same(ctx.headers, headers, name);
    t.same(next.calls, [ctx], `${name}: the chain runs`);
  }
});

t.test('a later stage failing goes through unchanged, the headers already written for the error answer', async (t) => {
  const ctx = stageContext();
  const failure = new Error('later stage');
  await t.rejects(requestIdStage(runtimeWith({ simulated: false }))(ctx, recordingNext(failure)), failure);
  t.equal(ctx.headers['x-request-id'], 'req-1');
});
