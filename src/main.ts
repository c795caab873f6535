#!/usr/bin/env -S node --max-semi-space-size=32
// Process entry: `model-gateway <command>`; every failure ends with a one-line reason on stderr.
import { runCli } from './apps/cli/dispatch.js';

void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
