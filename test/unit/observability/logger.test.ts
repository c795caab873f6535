import { PassThrough } from 'node:stream';
import t from 'tap';
import fc from 'fast-check';
import { createLogging, type AccessLog, type Logger } from '../../../src/observability/logger.js';
import { secretScrubber } from '../../../src/observability/redaction.js';

const GATEWAY_KEY = 'mgw_k7Qp2xZ_9fJ3kLmN0pQrStUvWxYz1234567890abcdEFGH';
const OTHER_KEY = 'mgw_Ab12_zyXWvu987654321';
const ADMIN_TOKEN = 'adm_3c9f1e7a5b2d4f6e8a0c1b3d5e7f9a2c';
const UPSTREAM_KEY = 'sk-ant-api03-Zx9_Yw8-Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe';
const COOKIE = 'session=c00kie-value-42';
const BEARER = 'opaque-bearer-token-not-a-gateway-key';
const SECRETS = [GATEWAY_KEY, OTHER_KEY, ADMIN_TOKEN, UPSTREAM_KEY, COOKIE, BEARER];
const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

function capture(level = 'trace'): { logger: Logger; access: AccessLog; lines: () => Promise<string> } {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const { logger, access } = createLogging({ level, destination: out, secrets: [ADMIN_TOKEN, UPSTREAM_KEY] });
  return { logger, access, lines: () => new Promise((resolve) => setImmediate(() => resolve(text))) };
}

// Every way a secret could reach a logger call in this code base.
function logEverything(logger: Logger, level: (typeof LEVELS)[number]): void {
  const log = logger[level].bind(logger);
  log({ headers: { authorization: `Bearer ${GATEWAY_KEY}`, 'x-api-key': OTHER_KEY, cookie: COOKIE } }, 'header bag');
  log({ req: { headers: { Authorization: `Bearer ${BEARER}`, 'Proxy-Authorization': `Basic ${BEARER}`, 'set-cookie': [COOKIE, COOKIE] } } }, 'nested');
  log({ a: { b: { c: { d: { 'X-Api-Key': BEARER } } } } }, 'deep');
  log({ upstreamHeaders: { 'x-api-key': UPSTREAM_KEY, 'anthropic-version': '2023-06-01' } }, 'outgoing');
  log(`key ${GATEWAY_KEY} in a message, token ${ADMIN_TOKEN}`);
  log('formatted %s and %j', UPSTREAM_KEY, { key: GATEWAY_KEY });
  log({ err: new Error(`upstream rejected ${UPSTREAM_KEY}`) }, 'error object');
  log({ err: `string error with ${ADMIN_TOKEN}` }, 'error string');
  log({ detail: { nested: [`list ${OTHER_KEY}`] }, quoted: `"${ADMIN_TOKEN}"` }, 'anywhere');
  logger.child({ reqId: 'r1', key: GATEWAY_KEY })[level]({ token: ADMIN_TOKEN }, `child ${UPSTREAM_KEY}`);
}

t.test('no secret appears in any line at any level', async (t) => {
  for (const level of LEVELS) {
    const { logger, lines } = capture();
    logEverything(logger, level);
    const text = await lines();
    t.equal(text.trim().split('\n').length, 10, `${level}: every call wrote a line`);
    for (const secret of SECRETS) t.notOk(text.includes(secret), `${level}: ${secret.slice(0, 8)}… absent`);
    t.notOk(/mgw_[A-Za-z0-9]+_[A-Za-z0-9]+/.test(text), `${level}: no gateway-key shape`);
    t.match(text, /\[redacted\]/);
  }
});

t.test('redaction keeps the rest of the line intact and valid JSON', async (t) => {
  const { logger, lines } = capture('info');
  logger.info({ headers: { authorization: 'Bearer x', 'set-cookie': ['a=1', 'b=2'], accept: 'text/plain' }, model: 'claude-sonnet-4-6' }, 'hello');
  logger.info({ note: `uses ${GATEWAY_KEY} twice: ${GATEWAY_KEY}` }, 'plain');
  const [first, second] = (await lines()).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  t.same(first.headers, { authorization: '[redacted]', 'set-cookie': '[redacted]', accept: 'text/plain' });
  t.equal(first.model, 'claude-sonnet-4-6');
  t.equal(first.msg, 'hello');
  t.equal(second.note, 'uses [redacted] twice: [redacted]');
});

t.test('lines without secrets pass unchanged', async (t) => {
  const { logger, lines } = capture('info');
  logger.info({ route: 'POST /gateway/v1/messages', tokens: { input: 1 } }, 'request');
  const line = JSON.parse((await lines()).trim()) as Record<string, unknown>;
  t.equal(line.route, 'POST /gateway/v1/messages');
  t.same(line.tokens, { input: 1 });
});

t.test('the access line carries usage at info and upstream timings only at debug', async (t) => {
  const access = {
    reqId: 'req_1',
    surface: 'chat',
    method: 'POST',
    path: 'POST /gateway/openai/v1/chat/completions',
    model: 'claude-sonnet-4-6',
    customer: 'acme',
    keyId: 'key_1',
    status: 200,
    outcome: 'ok',
    stream: true,
    durationMs: 1234.5678,
    upstreamSentMs: 0.04567,
    upstreamMs: 210.1234,
    tokens: { input: 10, output: 20, cacheRead: 5, cacheWrite: 0 },
  };
  for (const [level, hasUpstream] of [['info', false], ['debug', true]] as const) {
    const { access: log, lines } = capture(level);
    log.write(access);
    const line = JSON.parse((await lines()).trim()) as Record<string, unknown>;
    t.equal(line.msg, 'request');
    t.equal(line.durationMs, 1234.57);
    t.same(line.tokens, access.tokens);
    t.equal(line.path, access.path);
    t.equal('upstreamMs' in line, hasUpstream, `${level}: upstreamMs ${hasUpstream ? 'present' : 'absent'}`);
    t.equal('upstreamSentMs' in line, hasUpstream, `${level}: upstreamSentMs ${hasUpstream ? 'present' : 'absent'}`);
    if (hasUpstream) {
      t.equal(line.upstreamMs, 210.12);
      t.equal(line.upstreamSentMs, 0.05);
    }
  }
});

t.test('a level above info writes no access line', async (t) => {
  const { logger, lines } = capture('warn');
  logger.info({ a: 1 }, 'request');
  t.equal(await lines(), '');
});

t.test('the access line scrubs the strings a client or an operator chose', async (t) => {
  const { access, lines } = capture('info');
  access.write({
    reqId: 'req_2',
    surface: 'chat',
    method: 'POST',
    path: 'POST /gateway/openai/v1/chat/completions',
    model: `claude ${GATEWAY_KEY}`,
    customer: `acme "${ADMIN_TOKEN}"`,
    keyId: undefined,
    status: 404,
    outcome: 'client_error',
    stream: false,
    durationMs: 1,
    tokens: undefined,
    upstreamSentMs: null,
    upstreamMs: null,
  });
  const text = await lines();
  const line = JSON.parse(text.trim()) as Record<string, unknown>;
  t.equal(line.model, 'claude [redacted]');
  t.equal(line.customer, 'acme "[redacted]"');
  t.notOk(text.includes(GATEWAY_KEY) || text.includes(ADMIN_TOKEN));
});

t.test('the access line is pino\'s line shape, valid JSON holding exactly its fields, for any strings', async (t) => {
  const scrub = secretScrubber([ADMIN_TOKEN, UPSTREAM_KEY]);
  const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom(GATEWAY_KEY, `x"${ADMIN_TOKEN}\\`, 'claude-sonnet-4-6'));
  const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
  const count = fc.nat({ max: 10_000_000 });
  const line = fc.record({
    reqId: fc.constant('req_0123456789abcdef0123456789abcdef'),
    surface: fc.constantFrom('chat', 'messages', 'models'),
    method: fc.constantFrom('GET', 'POST', 'M-SEARCH'),
    path: fc.oneof(fc.constantFrom('/gateway/v1/messages', '/gateway/openai/v1/chat/completions'), fc.string()),
    model: optional(text),
    customer: optional(text),
    keyId: optional(fc.string()),
    status: fc.integer({ min: 100, max: 599 }),
    outcome: fc.constantFrom('ok', 'client_error', 'upstream_error', 'client_cancelled'),
    stream: fc.boolean(),
    durationMs: fc.double({ min: 0, max: 1e7, noNaN: true }),
    tokens: optional(fc.record({ input: count, output: count, cacheRead: count, cacheWrite: count })),
    upstreamSentMs: fc.option(fc.double({ min: 0, max: 1e7, noNaN: true }), { nil: null }),
    upstreamMs: fc.option(fc.double({ min: 0, max: 1e7, noNaN: true }), { nil: null }),
  });
  for (const level of ['info', 'debug'] as const) {
    const { access, lines } = capture(level);
    const sent: Array<Parameters<AccessLog['write']>[0]> = [];
    fc.assert(
      fc.property(line, (l) => {
        sent.push(l);
        access.write(l);
      }),
      { numRuns: 300 },
    );
    const written = (await lines()).trim().split('\n');
    t.equal(written.length, sent.length, `${level}: one line each`);
    let mismatches = 0;
    written.forEach((raw, i) => {
      const l = sent[i]!;
      const parsed = JSON.parse(raw) as Record<string, unknown>;
      const expected: Record<string, unknown> = {
        level: 30,
        time: parsed.time,
        pid: process.pid,
        reqId: l.reqId,
        surface: l.surface,
        method: l.method,
        path: l.path,
        model: l.model === undefined ? undefined : scrub.value(l.model),
        customer: l.customer === undefined ? undefined : scrub.value(l.customer),
        keyId: l.keyId,
        status: l.status,
        outcome: l.outcome,
        stream: l.stream,
        durationMs: Math.round(l.durationMs * 100) / 100,
        tokens: l.tokens,
        upstreamSentMs: level === 'debug' && l.upstreamSentMs !== null ? Math.round(l.upstreamSentMs * 100) / 100 : undefined,
        upstreamMs: level === 'debug' && l.upstreamMs !== null ? Math.round(l.upstreamMs * 100) / 100 : undefined,
        msg: 'request',
      };
      // JSON.stringify drops the undefined members, as pino does: same keys, same order, same values.
      if (JSON.stringify(parsed) !== JSON.stringify(expected) || typeof parsed.time !== 'number') mismatches++;
    });
    t.equal(mismatches, 0, `${level}: every line is the expected object`);
  }
});
