// The generated haproxy.cfg: what the fleet relies on is in it, and HAProxy itself accepts it
// (`haproxy -c`); the stats parser reads HAProxy's CSV by its header, not by column positions.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { requireHaproxy, parseServerStats } from '../../../../src/apps/fleet/haproxy.js';
import { drainDelayFor, haproxyConfig } from '../../../../src/apps/fleet/haproxy-config.js';

const settings = {
  bindHost: '127.0.0.1',
  bindPort: 18080,
  servers: [
    { name: 'gw1', host: '127.0.0.1', port: 18081 },
    { name: 'gw2', host: '127.0.0.1', port: 18082 },
  ],
  check: { interMs: 500, fall: 2, rise: 2 },
  statsSocket: '/tmp/never-bound.sock',
};

t.test('round-robin, /readyz checks, replays only refused connections', async (t) => {
  const cfg = haproxyConfig(settings);
  for (const line of ['balance roundrobin', 'option httpchk GET /readyz', 'http-check expect status 200', 'default-server inter 500ms fall 2 rise 2', 'retry-on conn-failure', 'server gw1 127.0.0.1:18081 check', 'server gw2 127.0.0.1:18082 check']) {
    t.ok(cfg.includes(line), line);
  }
  t.notMatch(cfg, /retry-on[^\n]*(empty-response|all-retryable|50[0-4])/, 'a request that reached an instance is never replayed');
  t.notMatch(cfg, /on-marked-down shutdown-sessions/, 'requests under way on a drained instance are left to finish');
  t.throws(() => haproxyConfig({ ...settings, servers: [{ name: 'gw 1', host: '127.0.0.1', port: 1 }] }), /server name/);
});

t.test('HAProxy accepts the configuration', async (t) => {
  requireHaproxy();
  const path = join(t.testdir(), 'haproxy.cfg');
  writeFileSync(path, haproxyConfig(settings));
  const checked = spawnSync('haproxy', ['-c', '-f', path], { encoding: 'utf8' });
  t.equal(checked.status, 0, checked.stderr + checked.stdout);
  t.notMatch(checked.stderr + checked.stdout, /\[WARNING\]/, 'without warnings');
});

t.test('the drain delay outlasts the checks that take an instance out', async (t) => {
  t.equal(drainDelayFor({ interMs: 500, fall: 2, rise: 2 }), 2000);
  t.ok(drainDelayFor({ interMs: 200, fall: 3, rise: 2 }) > 200 * 3);
});

t.test('show stat is read by its header', async (t) => {
  const csv = '# pxname,svname,qcur,stot,econ,wretr,status,type,\ngateways,gw1,0,12,1,2,UP,2,\ngateways,gw2,0,3,0,0,DOWN 1/2,2,\ngateways,BACKEND,0,15,1,2,UP,1,\n';
  t.same(parseServerStats(csv), [
    { name: 'gw1', status: 'UP', sessions: 12, connectionErrors: 1, retries: 2 },
    { name: 'gw2', status: 'DOWN 1/2', sessions: 3, connectionErrors: 0, retries: 0 },
  ]);
  t.throws(() => parseServerStats('Unknown command\n'), /unexpected answer/);
});
