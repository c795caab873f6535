// The micro-benchmarks the targets name, run in the bench process once the load is over.
import { bedrockStreamCases } from '../micro/bedrock-stream.js';
import { reframeCases } from '../micro/chat-chunk.js';
import { chatRequestCases } from '../micro/chat-request.js';
import { chatResponseCases } from '../micro/chat-response.js';
import type { MicroResult } from '../micro/harness.js';
import { measure } from '../micro/harness.js';
import { sseParseCases } from '../micro/sse-parse.js';

export async function runMicroPhase(quick: boolean): Promise<MicroResult[]> {
  const opts = quick ? { warmupMs: 50, runMs: 20, runs: 3 } : {};
  return [...reframeCases(), ...sseParseCases(), ...bedrockStreamCases(), ...chatRequestCases(), ...chatResponseCases()].map((c) => measure(c, opts));
}
