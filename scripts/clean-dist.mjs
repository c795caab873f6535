// The first step of `npm run build`: dist/ is made anew, so a source file deleted or renamed leaves no
// compiled twin behind (the test runner picks up every dist/test/**/*.test.js).
import { rmSync } from 'node:fs';
rmSync('dist', { recursive: true, force: true });
