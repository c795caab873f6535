// A Messages body as Bedrock's: model and stream out, the version and the betas in, the rest byte for byte.
import t from 'tap';
import { BEDROCK_ANTHROPIC_VERSION, betaValues, toBedrockBody } from '../../../../src/providers/bedrock/request-body.js';

const body = (text: string, betas: string[] = [], version?: string) => toBedrockBody(Buffer.from(text, 'utf8'), betas, version).toString('utf8');

// [name, client body, betas, Bedrock body]
const CASES: Array<[string, string, string[], string]> = [
  [
    'model and stream leave, the version comes',
    '{"model":"claude-sonnet-4-6","max_tokens":64,"stream":true,"messages":[{"role":"user","content":"hi"}]}',
    [],
    '{"max_tokens":64,"messages":[{"role":"user","content":"hi"}],"anthropic_version":"bedrock-2023-05-31"}',
  ],
  [
    'the client\'s betas become anthropic_beta',
    '{"model":"m","max_tokens":1,"messages":[]}',
    ['context-1m-2025-08-07', 'interleaved-thinking-2025-05-14'],
    '{"max_tokens":1,"messages":[],"anthropic_version":"bedrock-2023-05-31","anthropic_beta":["context-1m-2025-08-07","interleaved-thinking-2025-05-14"]}',
  ],
  ['a version the client wrote is the route\'s', '{"anthropic_version":"2023-06-01","model":"m","max_tokens":1}', [], '{"anthropic_version":"bedrock-2023-05-31","max_tokens":1}'],
  ['betas from the header replace any in the body', '{"anthropic_beta":["old"],"max_tokens":1}', ['new-beta'], '{"anthropic_beta":["new-beta"],"max_tokens":1,"anthropic_version":"bedrock-2023-05-31"}'],
  [
    'everything else exactly as it came: spacing, number spellings, escapes, member order',
    '{ "max_tokens" : 1e2, "model":"m",\n "temperature": 0.50, "system": "\\u00e9t\\u00e9", "metadata": {"model": "inner"} }',
    [],
    '{ "max_tokens" : 1e2,\n "temperature": 0.50, "system": "\\u00e9t\\u00e9", "metadata": {"model": "inner"},"anthropic_version":"bedrock-2023-05-31" }',
  ],
];

for (const [name, client, betas, expected] of CASES) {
  t.test(name, async (t) => {
    t.equal(body(client, betas), expected);
  });
}

t.test('a route may set its own version', async (t) => {
  t.equal(body('{"model":"m"}', [], 'bedrock-2099-01-01'), '{"anthropic_version":"bedrock-2099-01-01"}');
  t.equal(BEDROCK_ANTHROPIC_VERSION, 'bedrock-2023-05-31');
});

t.test('beta values from one header or several, comma-separated', async (t) => {
  t.same(betaValues(undefined), []);
  t.same(betaValues(''), []);
  t.same(betaValues('a, b,,c'), ['a', 'b', 'c']);
  t.same(betaValues(['a,b', ' c ']), ['a', 'b', 'c']);
});
