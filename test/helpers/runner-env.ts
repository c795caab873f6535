// The environment of this process without what the test runner put there: tap's own variables
// (TAP_*, the process tracker's _TAPJS_*), the loader hooks it preloads (NODE_OPTIONS) and coverage
// collection (NODE_V8_COVERAGE). For a child that must run as it would outside the suite: a tap of its
// own, or a process whose profile or timing the test reads.
export function envWithoutTestRunner(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(TAP|_TAPJS_|NODE_OPTIONS$|NODE_V8_COVERAGE$)/.test(k)));
}
