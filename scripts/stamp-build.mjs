// The last step of `npm run build`: marks when dist/ was complete. Code running from source starts
// new processes and threads from dist/ only while this stamp is newer than every source file
// (src/lib/runnable-file.ts).
import { writeFileSync } from 'node:fs';
writeFileSync('dist/build-stamp', `${new Date().toISOString()}\n`);
