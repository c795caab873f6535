// A Messages body as Vertex AI's: model out, the route's version in, the rest (stream included) byte for byte.
import t from 'tap';
import { toVertexBody, VERTEX_ANTHROPIC_VERSION } from '../../../../src/providers/vertex/request-body.js';

const body = (text: string, version?: string) => toVertexBody(Buffer.from(text, 'utf8'), version).toString('utf8');

t.test('model leaves, the version comes, stream stays', async (t) => {
  t.equal(body('{"model":"claude-sonnet-4-6","max_tokens":64,"stream":true,"messages":[]}'), '{"max_tokens":64,"stream":true,"messages":[],"anthropic_version":"vertex-2023-10-16"}');
  t.equal(VERTEX_ANTHROPIC_VERSION, 'vertex-2023-10-16');
});

t.test('the route\'s version replaces one the client wrote; the rest byte for byte', async (t) => {
  t.equal(body('{"anthropic_version":"vertex-2023-10-16","model":"m"}'), '{"anthropic_version":"vertex-2023-10-16"}');
  t.equal(body('{"anthropic_version":"2023-06-01","model":"m"}'), '{"anthropic_version":"vertex-2023-10-16"}');
  t.equal(body('{"anthropic_version":"2023-06-01","model":"m"}', 'vertex-2099-01-01'), '{"anthropic_version":"vertex-2099-01-01"}');
  t.equal(body('{"model":"m"}', 'vertex-2099-01-01'), '{"anthropic_version":"vertex-2099-01-01"}');
  t.equal(body('{\n "max_tokens": 1E1,\n "model": "m",\n "system": "\\u00e9"\n}'), '{\n "max_tokens": 1E1,\n "system": "\\u00e9","anthropic_version":"vertex-2023-10-16"\n}');
});
