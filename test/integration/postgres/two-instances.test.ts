// Two real `model-gateway serve` processes on one PostgreSQL database (and one Redis), as a fleet runs
// them: a key made on one, or by the CLI, works on the other within 2 s and a revoked one is refused by
// both within 2 s (LISTEN/NOTIFY, the 1 s poll behind it); dashboard sessions are rows both read; and the
// usage each one answered reaches the database: all of it after SIGTERM, all but its last flush interval
// after `kill -9`.
import pg from 'pg';
import t from 'tap';
import { Agent, request } from 'undici';
import type { Fleet, FleetKey } from '../../helpers/fleet.js';
import { adminCall, createFleetKey } from '../../helpers/fleet.js';
import { startTestFleet } from '../../helpers/test-fleet.js';
import { GATEWAY_MAIN, runNode } from '../../helpers/child-node.js';
import { AdminClient, callMessages, TEST_MODEL } from '../dashboard/dashboard-harness.js';

// About 20 s on an idle 2-core machine; each start compiles the gateway, which a busy machine slows many times over.
t.setTimeout(360_000);

/** What the fleet promises for a key change reaching every instance. */
const PROPAGATION_BOUND_MS = 2000;
const USAGE_FLUSH_MS = 250;
/** A flush under way when the process died (its batch still being written), and the clocks of two processes. */
const FLUSH_MARGIN_MS = 500;
/** Requests each instance answers under load before it is stopped. */
const MIN_ANSWERED = 40;

t.test('two gateway processes on one PostgreSQL database', async (t) => {
  const fleet = await startTestFleet(t, {
    instances: 2,
    startTimeoutMs: 180_000,
    env: { GATEWAY_USAGE_FLUSH_MS: String(USAGE_FLUSH_MS), GATEWAY_DRAIN_DELAY_MS: '0' },
  });
  const [a, b] = fleet.urls;
  const cli = async (...argv: string[]) => {
    const run = await runNode(GATEWAY_MAIN, argv, { DATABASE_URL: fleet.databaseUrl, LOG_LEVEL: 'warn' });
    if (run.code !== 0) throw new Error(`model-gateway ${argv[0]} ${argv[1]} exited ${run.code}: ${run.stderr}`);
    return run.stdout.trim();
  };

  await t.test('a key made on one instance works on the other', async (t) => {
    const key = await createFleetKey(fleet, 'made-on-a');
    const delay = await msUntil(async () => (await callMessages(b, key.secret)).status === 200);
    t.ok(delay !== null, `answered 200 by the other instance within ${PROPAGATION_BOUND_MS} ms (took ${delay ?? '>' + PROPAGATION_BOUND_MS} ms)`);
  });

  await t.test('a key made by the CLI works on both; revoked by the CLI, both refuse it', async (t) => {
    const secret = await cli('keys', 'create', '--customer', 'made-by-cli');
    const works = await msUntil(async () => (await statuses(fleet, secret)).every((s) => s === 200));
    t.ok(works !== null, `both instances answer 200 within ${PROPAGATION_BOUND_MS} ms of the CLI's exit (took ${works ?? '>' + PROPAGATION_BOUND_MS} ms)`);

    t.match(await cli('keys', 'revoke', secret.split('_').slice(0, 2).join('_')), /^revoked /);
    const refused = await msUntil(async () => (await statuses(fleet, secret)).every((s) => s === 401));
    t.ok(refused !== null, `both instances refuse it within ${PROPAGATION_BOUND_MS} ms of the CLI's exit (took ${refused ?? '>' + PROPAGATION_BOUND_MS} ms)`);
    t.same(await statuses(fleet, secret), [401, 401]);
  });

  await t.test('an operator session made on one instance works on the other, and ends on both', async (t) => {
    const onA = new AdminClient(a);
    t.equal((await onA.signIn({ token: fleet.adminToken })).status, 200);
    const onB = sameSession(onA, b);
    t.equal((await onB.send('GET', '/customers')).status, 200, 'read on the other instance');
    t.equal((await onB.send('POST', '/customers', { name: 'made-in-a-session' })).status, 201, 'a change, with the CSRF token, on the other instance');
    t.equal((await onB.send('DELETE', '/session')).status, 200, 'signed out on the other instance');
    t.equal((await onA.send('GET', '/customers')).status, 401, 'the session is gone on the first one too');
  });

  await t.test('a customer user removed on one instance loses its session on the other', async (t) => {
    const { customer } = await adminCall<{ customer: { id: string } }>(fleet, 'POST', '/customers', { name: 'with-a-user' });
    const credentials = { email: 'someone@example.com', password: 'a long enough password' };
    const { user } = await adminCall<{ user: { id: string } }>(fleet, 'POST', `/customers/${customer.id}/users`, credentials);
    const onB = new AdminClient(b);
    t.equal((await onB.signIn(credentials)).status, 200, 'signed in on the other instance');
    t.equal((await onB.send('GET', '/session')).json().role, 'customer');
    await adminCall(fleet, 'DELETE', `/customers/${customer.id}/users/${user.id}`, undefined, 0);
    t.equal((await onB.send('GET', '/session')).status, 401, 'the session ended with the user');
  });

  await t.test('usage under load: SIGTERM loses none, kill -9 at most the last flush interval', async (t) => {
    const [killed, stopped] = [fleet.instances[0], fleet.instances[1]];
    const keys = [await createFleetKey(fleet, 'load-killed'), await createFleetKey(fleet, 'load-stopped')];
    await msUntil(async () => (await statuses(fleet, keys[1].secret)).every((s) => s === 200));
    const loads = [startLoad(killed.url, keys[0], 4), startLoad(stopped.url, keys[1], 4)];
    // Enough answered on each that a loss would show, however slow the machine.
    const busy = await msUntil(async () => loads.every((l) => l.answered() >= MIN_ANSWERED), 60_000);
    t.ok(busy !== null, `both instances answered ${MIN_ANSWERED} requests under load (in ${busy} ms)`);

    const killedAt = performance.now();
    await killed.stop('SIGKILL');
    const outcomesKilled = await loads[0].stop();
    t.equal(await stopped.stop('SIGTERM'), 0, 'a clean exit after SIGTERM');
    const outcomesStopped = await loads[1].stop();

    const recorded = await usageRequestIds(fleet.databaseUrl);
    const answered = (outcomes: Outcome[]) => outcomes.filter((o) => o.status === 200 && o.requestId !== null);
    const lost = (outcomes: Outcome[]) => answered(outcomes).filter((o) => !recorded.has(o.requestId!));

    const stoppedAnswered = answered(outcomesStopped);
    t.ok(stoppedAnswered.length >= MIN_ANSWERED, `the stopped instance answered ${stoppedAnswered.length} requests`);
    t.same(lost(outcomesStopped).map((o) => o.requestId), [], `SIGTERM: all ${stoppedAnswered.length} answered requests are recorded`);

    const killedAnswered = answered(outcomesKilled);
    const killedLost = lost(outcomesKilled);
    const windowStart = killedAt - USAGE_FLUSH_MS - FLUSH_MARGIN_MS;
    const oldLoss = killedLost.filter((o) => o.endedAt < windowStart);
    t.ok(killedAnswered.length >= MIN_ANSWERED, `the killed instance answered ${killedAnswered.length} requests`);
    t.same(
      oldLoss.map((o) => `${o.requestId} answered ${Math.round(killedAt - o.endedAt)} ms before the kill`),
      [],
      `kill -9: ${killedLost.length} of ${killedAnswered.length} answered requests lost, all within the last ${USAGE_FLUSH_MS} ms flush interval (+${FLUSH_MARGIN_MS} ms)`,
    );
  });
});

/** Milliseconds until `check` holds, polling; null when it did not within the bound. */
async function msUntil(check: () => Promise<boolean>, boundMs = PROPAGATION_BOUND_MS): Promise<number | null> {
  const start = performance.now();
  for (;;) {
    if (await check()) return Math.round(performance.now() - start);
    if (performance.now() - start > boundMs) return null;
    await sleep(20);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function statuses(fleet: Fleet, secret: string): Promise<number[]> {
  return Promise.all(fleet.urls.map(async (url) => (await callMessages(url, secret)).status));
}

/** A client of another instance carrying the same session cookie and CSRF token, as a load balancer's next pick would. */
function sameSession(client: AdminClient, baseUrl: string): AdminClient {
  const other = new AdminClient(baseUrl);
  other.cookie = client.cookie;
  other.csrfToken = client.csrfToken;
  return other;
}

interface Outcome {
  /** 0: no answer (refused, reset). */
  status: number;
  requestId: string | null;
  endedAt: number;
}

interface Load {
  /** Requests answered 200 so far. */
  answered(): number;
  stop(): Promise<Outcome[]>;
}

/** `workers` loops of small requests, each on a connection of its own, until stopped. */
function startLoad(url: string, key: FleetKey, workers: number): Load {
  const agent = new Agent({ connections: workers });
  const outcomes: Outcome[] = [];
  let running = true;
  const body = JSON.stringify({ model: TEST_MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
  const loop = async () => {
    while (running) {
      try {
        const res = await request(`${url}/gateway/v1/messages`, {
          method: 'POST',
          dispatcher: agent,
          headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
          body,
        });
        await res.body.text();
        const id = res.headers['x-request-id'];
        outcomes.push({ status: res.statusCode, requestId: typeof id === 'string' ? id : null, endedAt: performance.now() });
      } catch {
        outcomes.push({ status: 0, requestId: null, endedAt: performance.now() });
        // A dead instance refuses at once: no need to spin.
        await sleep(20);
      }
    }
  };
  const loops = Array.from({ length: workers }, loop);
  return {
    answered: () => outcomes.filter((o) => o.status === 200).length,
    async stop() {
      running = false;
      await Promise.all(loops);
      await agent.close();
      return outcomes;
    },
  };
}

async function usageRequestIds(databaseUrl: string): Promise<Set<string>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ request_id: string }>('SELECT request_id FROM usage_records');
    return new Set(rows.map((r) => r.request_id));
  } finally {
    await client.end();
  }
}
