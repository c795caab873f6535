// Codex CLI (`codex exec`) against a real gateway and the simulator, by a custom model provider with
// `wire_api = "responses"` alone: the simulated model asks for a shell command (the simulator's
// `run: <command>` behaviour), Codex runs it, and the final answer quotes what it printed.
// Not part of `npm test`: `npm run test:clients` installs the pinned Codex into .cache/clients and
// runs this file with CODEX_BIN set (scripts/test-clients.mjs).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startHarness } from '../helpers/harness.js';

const CODEX = process.env.CODEX_BIN;
const MARKER = 'codex-marker-7731';

t.test('codex exec: a shell command round trip through the Responses surface', { skip: CODEX === undefined ? 'CODEX_BIN is not set: run npm run test:clients' : false }, async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const home = mkdtempSync(join(tmpdir(), 'codex-home-'));
  const work = mkdtempSync(join(tmpdir(), 'codex-work-'));
  t.teardown(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });
  writeFileSync(
    join(home, 'config.toml'),
    [
      'model = "claude-sonnet-4-6"',
      'model_provider = "gateway"',
      '[model_providers.gateway]',
      'name = "model-gateway"',
      `base_url = "${h.url}/gateway/openai/v1"`,
      'env_key = "MODEL_GATEWAY_KEY"',
      'wire_api = "responses"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
    ].join('\n'),
  );
  // The gateway runs in this process: the child must be waited for without blocking the event loop.
  const child = spawn(CODEX!, ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '-C', work, `run: echo ${MARKER}`], {
    env: { ...process.env, CODEX_HOME: home, MODEL_GATEWAY_KEY: key },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  t.comment(`codex stdout:\n${stdout}`);
  if (code !== 0) t.comment(`codex stderr:\n${stderr.slice(-4000)}`);
  t.equal(code, 0, 'codex exited 0');
  t.match(stdout, new RegExp(`The command printed: ${MARKER}`), 'the final answer quotes the command output');

  const turns = h.simulator.received.filter((r) => r.url === '/v1/messages').map((r) => JSON.parse(r.body.toString('utf8')));
  t.equal(turns.length, 2, 'two model turns: the call, then the answer');
  const call = turns[1].messages.at(-2).content.find((b: { type: string }) => b.type === 'tool_use');
  t.match(call, { name: 'exec_command', input: { cmd: `echo ${MARKER}` } }, 'the model called the shell tool with the command');
  const result = turns[1].messages.at(-1).content[0];
  t.equal(result.type, 'tool_result');
  t.equal(result.tool_use_id, call.id, 'the tool result answers the call (call_id round trip)');
  t.match(JSON.stringify(result.content), MARKER, 'Codex ran the command and sent its output back');
  const lines = h.logText().split('\n').filter((l) => l.includes('"path":"/gateway/openai/v1/responses"'));
  t.equal(lines.length, 2);
  t.ok(lines.every((l) => l.includes('"surface":"responses"') && l.includes('"status":200') && l.includes('"stream":true')));
});
