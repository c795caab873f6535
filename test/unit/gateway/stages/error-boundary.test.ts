// The error-boundary stage alone, on a real server: reads what the rest of the chain threw and the
// route's error format, writes ctx.outcome, and answers the error in the surface's shape with the
// headers the stages collected (request ids, retry-after). A database that did not answer is 503 with
// retry-after; anything unexpected is a 500 that says nothing of its cause; a response already begun is
// torn, not written twice.
import t from 'tap';
import type { Test } from 'tap';
import type { Logger } from 'pino';
import type { Next } from '../../../../src/gateway/compose.js';
import { errorBoundaryStage } from '../../../../src/gateway/stages/error-boundary.js';
import { GatewayError } from '../../../../src/dialects/errors/codes.js';
import type { RouteInfo } from '../../../../src/gateway/context.js';
import { StoreUnavailableError } from '../../../../src/stores/errors.js';
import { call } from '../../../helpers/http.js';
import { runtimeWith, stageServer } from './stage-context.js';

function recordingLogger() {
  const lines: string[] = [];
  const log = (level: string) => (fields: unknown, message: string) => lines.push(`${level}: ${message} ${JSON.stringify(fields)}`);
  return { logger: { warn: log('warn'), error: log('error') } as unknown as Logger, lines };
}

async function boundary(t: Test, route: Partial<RouteInfo> = {}) {
  const { logger, lines } = recordingLogger();
  return { server: await stageServer(t, errorBoundaryStage(runtimeWith({ logger })), route), lines };
}

const failing = (err: unknown): Next => async (ctx) => {
  ctx.headers['x-request-id'] = ctx.id;
  throw err;
};

const CHAT: Partial<RouteInfo> = { name: '/openai/v1/chat/completions', surface: 'chat', errorFormat: 'chat' };

t.test('nothing thrown: the chain answered, the boundary adds nothing', async (t) => {
  const { server, lines } = await boundary(t);
  const { response, ctx, thrown } = await server.ask({}, undefined, async (ctx) => {
    ctx.res.writeHead(200, { 'content-type': 'text/plain' }).end('fine');
  });
  t.equal(thrown, null);
  t.equal(response.status, 200);
  t.equal(response.text, 'fine');
  t.equal(ctx.outcome, null);
  t.same(lines, []);
});

t.test('a gateway error is answered in the route surface\'s own shape, with the collected and the error\'s headers', async (t) => {
  const err = new GatewayError('rate_limited', 'Slow down.', { param: 'model', headers: { 'retry-after': '7' } });
  const messages = await boundary(t);
  const m = await messages.server.ask({}, undefined, failing(err));
  t.equal(m.thrown, null, 'the boundary resolves');
  t.equal(m.response.status, 429);
  t.same(m.response.json(), { type: 'error', error: { type: 'rate_limit_error', message: 'Slow down.' } });
  t.equal(m.response.headers['retry-after'], '7');
  t.equal(m.response.headers['x-request-id'], 'req-1');
  t.equal(m.response.headers['content-type'], 'application/json');
  t.equal(m.ctx.outcome, 'client_error');
  t.same(messages.lines, [], 'a refusal is not logged');

  const chat = await boundary(t, CHAT);
  const c = await chat.server.ask({}, undefined, failing(err));
  t.equal(c.response.status, 429);
  t.same(c.response.json(), { error: { message: 'Slow down.', type: 'rate_limit_error', param: 'model', code: 'rate_limit_exceeded' } });
});

t.test('the outcome: a 5xx is the upstream\'s, a 4xx the client\'s, one a stage already set stays', async (t) => {
  const { server } = await boundary(t);
  const cases: Array<[string, GatewayError, string | null, string]> = [
    ['502', new GatewayError('upstream_unreachable', 'x'), null, 'upstream_error'],
    ['400', new GatewayError('invalid_request', 'x'), null, 'client_error'],
    ['set before', new GatewayError('upstream_unreachable', 'x'), 'client_cancelled', 'client_cancelled'],
  ];
  for (const [name, err, before, outcome] of cases) {
    const { ctx, response } = await server.ask({}, (ctx) => (ctx.outcome = before as typeof ctx.outcome), failing(err));
    t.equal(response.status, err.status, name);
    t.equal(ctx.outcome, outcome, name);
  }
});

t.test('a database that did not answer: 503 overloaded with retry-after 5, logged as a warning', async (t) => {
  const { server, lines } = await boundary(t, CHAT);
  const { response, ctx } = await server.ask({}, undefined, failing(new StoreUnavailableError('connection refused')));
  t.equal(response.status, 503);
  t.equal(response.headers['retry-after'], '5');
  t.same(response.json(), { error: { message: 'The database is not answering; retry shortly.', type: 'server_error', param: null, code: 'server_overloaded' } });
  t.equal(ctx.outcome, 'upstream_error');
  t.equal(lines.length, 1);
  t.match(lines[0], /^warn: the database did not answer; answered 503 .*"reqId":"req-1".*connection refused/);
});

t.test('anything else: 500 internal, its cause logged with the request id and never answered', async (t) => {
  const { server, lines } = await boundary(t);
  for (const thrown of [new TypeError('secret detail sk-ant-123'), 'a string'] as unknown[]) {
    lines.length = 0;
    const { response } = await server.ask({}, undefined, failing(thrown));
    t.equal(response.status, 500);
    t.same(response.json(), { type: 'error', error: { type: 'api_error', message: 'The gateway failed to handle this request.' } });
    t.notMatch(response.text, /secret|sk-ant|a string/);
    t.equal(lines.length, 1);
    t.match(lines[0], /^error: unhandled error in request pipeline .*"reqId":"req-1"/);
  }
});

t.test('a response already begun is torn off: the client sees a broken response, not a second head', async (t) => {
  const { server } = await boundary(t);
  const run = server.expect(undefined, async (ctx) => {
    ctx.res.writeHead(200, { 'content-type': 'text/event-stream' });
    ctx.res.write('event: message_start\n\n');
    throw new GatewayError('upstream_unreachable', 'broke mid-stream');
  });
  await t.rejects(async () => {
    const res = await call(server.url + '/v1/messages');
    return res;
  }, 'the body ends in an error');
  const { ctx } = await run;
  t.equal(ctx.outcome, 'upstream_error');
  t.ok(ctx.res.destroyed);
});
