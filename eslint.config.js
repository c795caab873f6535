// ESLint over the gateway's TypeScript (src, test, bench), the admin pages' browser code and the build
// scripts. Type-aware where it matters most: a promise nobody awaits or catches, or one handed to a
// callback that ignores it, is a request that can fail without an answer or a rejection that kills
// the process, so those rules are errors everywhere. The syntactic `recommended` set runs too.
import tseslint from 'typescript-eslint';

/** The promise rules, with the type information they need. */
const promiseRules = {
  '@typescript-eslint/no-floating-promises': [
    'error',
    {
      // tap's `t.test(...)` returns a promise tap itself awaits: the subtest is not lost.
      allowForKnownSafePromises: [{ from: 'package', name: 'PromiseWithSubtest', package: '@tapjs/core' }],
    },
  ],
  '@typescript-eslint/no-misused-promises': 'error',
};

/** Arguments and locals named with a leading underscore are there for their position. */
const unusedVars = ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.tap/**'] },
  ...tseslint.configs.recommended,
  { rules: { '@typescript-eslint/no-unused-vars': unusedVars } },
  {
    files: ['**/*.ts', '**/*.cts'],
    languageOptions: { parserOptions: { project: ['./tsconfig.json'], tsconfigRootDir: import.meta.dirname } },
    rules: promiseRules,
  },
  {
    // Served as written to the browser, typed by JSDoc and checked by their own tsconfig.
    files: ['src/admin/static/assets/*.js'],
    languageOptions: { parserOptions: { project: ['./src/admin/tsconfig.client.json'], tsconfigRootDir: import.meta.dirname } },
    rules: promiseRules,
  },
);
