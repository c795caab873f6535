// Bedrock's names for Anthropic's models, mapped to the simulator's: an optional geography prefix of
// an inference profile (`us.`, `eu.`, `apac.`, `global.`), `anthropic.`, the provider's id, a
// version suffix (`-v1:0`). An inference profile's ARN names the same after its last `/`.
//   us.anthropic.claude-sonnet-4-6-v1:0              → claude-sonnet-4-6
//   anthropic.claude-haiku-4-5-20251001-v1:0         → claude-haiku-4-5-20251001
//   arn:aws:bedrock:us-east-1:1:inference-profile/eu.anthropic.claude-opus-4-7-v1:0 → claude-opus-4-7
const BEDROCK_ID = /^(?:[a-z]+\.)?anthropic\.(.+?)(?:-v\d+(?::\d+)?)?$/;

/** The provider's model id a Bedrock model id stands for, or null when it names no Anthropic model. */
export function modelOfBedrockId(id: string): string | null {
  const name = id.startsWith('arn:') ? id.slice(id.lastIndexOf('/') + 1) : id;
  return BEDROCK_ID.exec(name)?.[1] ?? null;
}
