// The simulator's Bedrock model names alone: the geography prefix of an inference profile, `anthropic.`,
// the version suffix and an inference profile's ARN all resolve to the provider's own model id; a name
// of another vendor resolves to nothing.
import t from 'tap';
import { modelOfBedrockId } from '../../../../../src/apps/simulator/bedrock/model-ids.js';

t.test('Bedrock ids, profiles and ARNs map to the provider\'s model id', async (t) => {
  const cases: Array<[string, string | null]> = [
    ['anthropic.claude-haiku-4-5-20251001-v1:0', 'claude-haiku-4-5-20251001'],
    ['us.anthropic.claude-sonnet-4-6-v1:0', 'claude-sonnet-4-6'],
    ['global.anthropic.claude-opus-4-7-v1', 'claude-opus-4-7'],
    ['anthropic.claude-opus-4-7', 'claude-opus-4-7'],
    ['arn:aws:bedrock:us-east-1:123456789012:inference-profile/eu.anthropic.claude-opus-4-7-v1:0', 'claude-opus-4-7'],
    ['meta.llama3-70b-instruct-v1:0', null],
    ['claude-sonnet-4-6', null],
    ['', null],
  ];
  for (const [id, model] of cases) t.equal(modelOfBedrockId(id), model, id);
});
