// The provider types a models file may name, one line each: a new type is a folder beside these and
// a line here.
import { anthropicType } from './anthropic/anthropic-type.js';
import { bedrockType } from './bedrock/bedrock-type.js';
import type { ProviderType } from './provider-type.js';
import { vertexType } from './vertex/vertex-type.js';

export const PROVIDER_TYPES: readonly ProviderType[] = [
  anthropicType,
  bedrockType,
  vertexType,
];
