// The browser tests in one process: each of `browser/*.test.ts` imported in turn (tap's `exclude` skips
// them as files of their own), so Chromium starts and playwright loads once (`browser/chromium.ts` shares
// one browser, each test in a context of its own), not once per file. The files are listed from the
// directory when this runs, so a new one is always run. One still runs alone:
// `npx tap dist/test/browser/<file>.test.js`.
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import t from 'tap';
import { compiledTestFiles } from '../all-unit/groups.js';

const BROWSER_DIR = fileURLToPath(new URL('../browser/', import.meta.url));

// Every browser file in one process: tap's per-file timeout would be theirs together.
t.setTimeout(600_000);
const files = compiledTestFiles(BROWSER_DIR);
t.ok(files.length >= 5, `${files.length} browser files: ${files.join(', ')}`);
for (const file of files) await import(pathToFileURL(join(BROWSER_DIR, file)).href);
