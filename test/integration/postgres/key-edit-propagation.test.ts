// A key edit made on one gateway instance (admin API) or by the CLI is applied by another instance on the
// same PostgreSQL database: allowed models, rate limits and budget. Edits ride the path of revocations
// (the key row stamped as changed, LISTEN/NOTIFY, the 1 s poll behind it). The test waits for each effect;
// the 2 s promise is asserted only under DRILL_TIMING=1 (`npm run drills`), printed otherwise.
import t, { type Test } from 'tap';
import { adminCall, createFleetKey } from '../../helpers/fleet.js';
import { startTestFleet } from '../../helpers/test-fleet.js';
import { GATEWAY_MAIN, runNode } from '../../helpers/child-node.js';
import { waitFor } from '../../helpers/wait.js';
import { timingClaim } from '../../fleet/drill.js';
import { callMessages, TEST_MODEL } from '../dashboard/dashboard-harness.js';

t.setTimeout(360_000);

const PROPAGATION_BOUND_MS = 2000;
/** Bound on waiting for an event that this run asserts only happens (a loaded machine is slow). */
const EVENT_BOUND_MS = 60_000;
const HAIKU = 'claude-haiku-4-5-20251001';

t.test('an edit on one instance is applied by the other', async (t) => {
  const fleet = await startTestFleet(t, { instances: 2, startTimeoutMs: 180_000, env: { GATEWAY_DRAIN_DELAY_MS: '0' } });
  const other = fleet.urls[1];
  const key = await createFleetKey(fleet, 'edited');
  const keyPath = `/customers/${key.customerId}/keys/${key.id}`;
  const statusOnOther = async () => (await callMessages(other, key.secret)).status;

  /** Edits on instance 0 and waits until the other instance answers as `applied` says. */
  async function editAndWait(t: Test, what: string, edit: () => Promise<unknown>, applied: () => Promise<boolean>): Promise<void> {
    const started = Date.now();
    await edit();
    await waitFor(applied, EVENT_BOUND_MS, 20);
    const took = Date.now() - started;
    t.pass(`${what}: applied by the other instance`);
    timingClaim(t, took <= PROPAGATION_BOUND_MS, `${what} applied by the other instance within ${PROPAGATION_BOUND_MS} ms (took ${took} ms)`);
  }

  await waitFor(async () => (await statusOnOther()) === 200, EVENT_BOUND_MS);

  await t.test('allowed models', async (t) => {
    await editAndWait(t, 'a model list', () => adminCall(fleet, 'PATCH', keyPath, { allowedModels: [HAIKU] }), async () => (await statusOnOther()) === 403);
    t.notOk([HAIKU].includes(TEST_MODEL), 'the test model is not in the list');
  });

  await t.test('rate limits', async (t) => {
    await editAndWait(t, 'rpm 1', () => adminCall(fleet, 'PATCH', keyPath, { allowedModels: null, rpm: 1 }), async () => (await statusOnOther()) === 429);
  });

  await t.test('budget', async (t) => {
    // $0.000001: less than any request reserves, so a hard budget refuses the next one.
    const refusedForBudget = async () => {
      const res = await callMessages(other, key.secret);
      return res.status === 429 && /USD per/.test(res.text);
    };
    await editAndWait(t, 'a hard budget', () => adminCall(fleet, 'PATCH', keyPath, { rpm: null, budgetUsd: '0.000001' }), refusedForBudget);
  });

  await t.test('by the command line', async (t) => {
    const cli = () => runNode(GATEWAY_MAIN, ['keys', 'update', key.id, '--budget', 'none'], { DATABASE_URL: fleet.databaseUrl, LOG_LEVEL: 'warn' });
    await editAndWait(
      t,
      'keys update',
      async () => {
        const run = await cli();
        if (run.code !== 0) throw new Error(`keys update exited ${run.code}: ${run.stderr}`);
      },
      async () => (await statusOnOther()) === 200,
    );
  });
});
