// The built-in provider simulator: a look-alike of the provider's Messages API for tests,
// benchmarks and the gateway without an upstream. See README section "Simulator".
export type { Fault, RecordedRequest, Simulator, SimulatorOptions, StartOptions } from './types.js';
export { startSimulator } from './http/server.js';
