// Where a Bedrock call goes: the region's runtime endpoint and the model's invoke path, the id one segment.
import t from 'tap';
import { bedrockEndpoint, bedrockInvokePath } from '../../../../src/providers/bedrock/invoke-path.js';

t.test('the runtime endpoint of a region', async (t) => {
  t.equal(bedrockEndpoint('us-east-1'), 'https://bedrock-runtime.us-east-1.amazonaws.com');
  t.equal(bedrockEndpoint('eu-central-1'), 'https://bedrock-runtime.eu-central-1.amazonaws.com');
});

// [model id, streamed, path]
const PATHS: Array<[string, boolean, string]> = [
  ['us.anthropic.claude-sonnet-4-6-v1:0', false, '/model/us.anthropic.claude-sonnet-4-6-v1%3A0/invoke'],
  ['us.anthropic.claude-sonnet-4-6-v1:0', true, '/model/us.anthropic.claude-sonnet-4-6-v1%3A0/invoke-with-response-stream'],
  ['anthropic.claude-haiku-4-5-20251001-v1:0', false, '/model/anthropic.claude-haiku-4-5-20251001-v1%3A0/invoke'],
  [
    'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc',
    true,
    '/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Aapplication-inference-profile%2Fabc/invoke-with-response-stream',
  ],
];

for (const [id, streamed, path] of PATHS) {
  t.test(`${id}${streamed ? ', streamed' : ''}`, async (t) => {
    t.equal(bedrockInvokePath(id, streamed), path);
    t.equal(decodeURIComponent(path.split('/')[2]!), id, 'the segment decodes to the id');
  });
}
