// The built-in provider simulator: a look-alike of the provider's Messages API for tests,
// benchmarks and the gateway without an upstream. See README section "Simulator".
export type {
  AccountOptions,
  AnthropicAccountOptions,
  BedrockAccountOptions,
  Fault,
  RateLimitOptions,
  RecordedRequest,
  Simulator,
  SimulatorOptions,
  StartOptions,
  VertexAccountOptions,
} from './types.js';
export { generateServiceAccount, serviceAccountJson, writeServiceAccountFile, type GeneratedServiceAccount } from './vertex/service-account-file.js';
export { startSimulator } from './http/server.js';
