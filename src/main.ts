#!/usr/bin/env node
// Process entry: `model-gateway <command>`; every failure ends with a one-line reason on stderr.
import { runCli } from './apps/cli/dispatch.js';

void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
