// Stdout is written in batches: a lone line must still come out while the process keeps running.
import { spawnNode } from '../../helpers/child-node.js';
import { join } from 'node:path';
import t from 'tap';

const CHILD = join(import.meta.dirname, 'fixtures/log-then-idle.js');

// The child never exits by itself and is killed with SIGKILL (no exit flush), so the line can only
// come from the periodic flush; 10 s is forty flush periods.
t.test('a single access line reaches stdout while the process keeps running', async (t) => {
  const child = spawnNode(CHILD, [], { env: process.env, stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => void child.kill('SIGKILL'));
  const line = await new Promise<string>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no line within 10 s: ${JSON.stringify(text)}`)), 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes('\n')) {
        clearTimeout(timer);
        resolve(text);
      }
    });
    child.once('exit', (code) => reject(new Error(`the child exited (${code}) before its line came`)));
  });
  const parsed = JSON.parse(line.trim()) as Record<string, unknown>;
  t.equal(parsed.reqId, 'req_child');
  t.equal(parsed.msg, 'request');
  t.equal(parsed.pid, child.pid);
});
