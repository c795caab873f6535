// The dashboard's browser code is plain JavaScript with JSDoc types (no build step); the compiler still
// checks it, strictly, against the DOM library.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import t from 'tap';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

t.test('the browser code type-checks', async (t) => {
  const result = await new Promise<{ code: number | null; output: string }>((resolve) => {
    execFile(process.execPath, [tsc, '-p', 'src/admin/tsconfig.client.json'], (err, stdout, stderr) =>
      resolve({ code: err === null ? 0 : (err.code as number | null), output: stdout + stderr }),
    );
  });
  t.equal(result.code, 0, result.output);
});
