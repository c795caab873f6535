// Drill: a key revoked by the CLI (`model-gateway keys revoke`, as an operator does) while the fleet takes
// steady mixed load through HAProxy. Every instance, asked directly, and HAProxy must refuse it within
// 2 s of the command's exit (LISTEN/NOTIFY, with the key poll behind it), and none may accept it again
// once it refused it. The load, on another key, goes on untouched.
import t from 'tap';
import { request } from 'undici';
import { countBy, describe, EVENT_BOUND_MS, failed, sleep, startDrill, startLoad, TIMED, timingClaim } from './drill.js';
import { waitFor } from '../helpers/wait.js';

// About 20 s on an idle 2-core machine; every instance start compiles the gateway, which a busy machine slows many times over.
t.setTimeout(360_000);

/** What the fleet promises for a key change reaching every instance. */
const PROPAGATION_BOUND_MS = 2000;
/** Polled past the bound, so a late refusal is measured rather than only missed. */
const POLL_FOR_MS = TIMED ? 6000 : EVENT_BOUND_MS;
const POLL_EVERY_MS = 20;

/** The status of an authenticated request that costs no upstream call (the models list), so a poll is quick. */
async function statusWith(url: string, secret: string): Promise<number> {
  const res = await request(`${url}/gateway/v1/models`, { headers: { authorization: `Bearer ${secret}` } });
  await res.body.dump();
  return res.statusCode;
}

interface Refusal {
  readonly target: string;
  /** ms from the CLI's exit to the first 401; null when none within POLL_FOR_MS. */
  readonly refusedAfterMs: number | null;
  /** Any other status after the first refusal (a 200 there would be the key working again). */
  readonly afterRefusal: readonly number[];
}

/** Polls one target from `from` until it has refused the key and then answered a few more polls. */
async function pollUntilRefused(target: string, url: string, secret: string, from: number): Promise<Refusal> {
  let refusedAt: number | null = null;
  const afterRefusal: number[] = [];
  while (performance.now() - from < POLL_FOR_MS && afterRefusal.length < 10) {
    const status = await statusWith(url, secret);
    const at = performance.now();
    if (refusedAt !== null) afterRefusal.push(status);
    else if (status === 401) refusedAt = at;
    await sleep(POLL_EVERY_MS);
  }
  return { target, refusedAfterMs: refusedAt === null ? null : Math.round(refusedAt - from), afterRefusal: afterRefusal.filter((s) => s !== 401) };
}

t.test(`a key revoked during the load: refused by every instance${TIMED ? ' within 2 s' : ''}`, async (t) => {
  const drill = await startDrill(t);
  const { fleet } = drill;
  const revoked = await drill.cli('keys', 'create', '--customer', 'drill', '--name', 'revoked during the drill');
  const targets = [...fleet.instances.map((i, n) => ({ target: i.name, url: drill.instanceUrls[n] })), { target: 'haproxy', url: fleet.url }];
  await waitFor(async () => (await Promise.all(targets.map((x) => statusWith(x.url, revoked)))).every((s) => s === 200), 10_000);

  const origin = performance.now();
  const load = startLoad(fleet.url, drill.key, 6);
  await sleep(1000);
  // The prefix `keys list` shows: mgw_<id>, never the secret.
  const cliStartedAt = performance.now();
  await drill.cli('keys', 'revoke', revoked.split('_').slice(0, 2).join('_'));
  // From the exit: the revocation was committed (and announced) before it, within the command's own run.
  const revokedAt = performance.now();
  const refusals = await Promise.all(targets.map((x) => pollUntilRefused(x.target, x.url, revoked, revokedAt)));
  // Through HAProxy, after every instance refused it: each instance in turn, all 401.
  const throughHaproxy = await Promise.all(Array.from({ length: 6 }, () => statusWith(fleet.url, revoked)));
  const bothSurfaces = await Promise.all(
    drill.instanceUrls.flatMap((url) =>
      ['/gateway/v1/messages', '/gateway/openai/v1/chat/completions'].map(async (path) => {
        const res = await request(`${url}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${revoked}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
        });
        await res.body.dump();
        return res.statusCode;
      }),
    ),
  );
  await sleep(500);
  const outcomes = await load.stop();

  const report =
    `refused after the CLI's exit: ${refusals.map((r) => `${r.target} ${r.refusedAfterMs === null ? `not within ${POLL_FOR_MS}` : r.refusedAfterMs} ms`).join(', ')} (polled every ${POLL_EVERY_MS} ms; the command itself ran ${Math.round(revokedAt - cliStartedAt)} ms); ` +
    `load on another key: ${outcomes.length} requests (${JSON.stringify(countBy(outcomes, (o) => o.kind))}) answered by ${JSON.stringify(countBy(outcomes, (o) => o.instance))}, ${outcomes.filter(failed).length} failed`;
  t.comment(report);

  for (const r of refusals) {
    t.not(r.refusedAfterMs, null, `${r.target} refused the key`);
    timingClaim(t, r.refusedAfterMs !== null && r.refusedAfterMs <= PROPAGATION_BOUND_MS, `${r.target} refused the key within ${PROPAGATION_BOUND_MS} ms (took ${r.refusedAfterMs ?? `>${POLL_FOR_MS}`} ms)`);
    // Through HAProxy the first refusal may come from the instance that learned first while another is
    // still within its propagation time: what HAProxy promises is checked below, once every instance refused.
    if (r.target !== 'haproxy') t.same(r.afterRefusal, [], `${r.target} never accepted it again`);
  }
  t.same(throughHaproxy, [401, 401, 401, 401, 401, 401], 'refused through HAProxy, whichever instance answers');
  t.same(bothSurfaces, [401, 401, 401, 401, 401, 401], 'refused on both surfaces by every instance');
  const failures = outcomes.filter(failed);
  t.same(failures.slice(0, 20).map((o) => describe(o, origin)), [], `the load on another key never failed: ${report}`);
});
