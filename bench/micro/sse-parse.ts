// SSE parsing per upstream event: the incremental parser over network-sized chunks, against the
// naive split-on-blank-line approach it replaces. `node dist/bench/micro/sse-parse.js`
import { SseParser } from '../../src/dialects/sse/parser.js';
import type { SseEvent } from '../../src/dialects/sse/parser.js';
import type { MicroCase } from './harness.js';
import { formatResults, isMain, measure } from './harness.js';
import { providerStream } from './stream-fixture.js';

export function sseParseCases(): MicroCase[] {
  const fixture = providerStream(200);
  return [
    {
      name: 'SseParser, 1400-byte chunks',
      opsPerCall: fixture.events,
      fn: () => {
        let n = 0;
        const parser = new SseParser((ev: SseEvent) => {
          n += ev.data.length;
        });
        for (const chunk of fixture.chunks) parser.push(chunk);
        parser.end();
        return n;
      },
    },
    {
      name: 'naive: toString + split("\\n\\n") (reference)',
      opsPerCall: fixture.events,
      fn: () => {
        let n = 0;
        let rest = '';
        for (const chunk of fixture.chunks) {
          const parts = (rest + chunk.toString('utf8')).split('\n\n');
          rest = parts.pop() ?? '';
          for (const p of parts) n += p.length;
        }
        return n;
      },
    },
  ];
}

if (isMain(import.meta.url)) console.log(formatResults('SSE parse, per event', sseParseCases().map((c) => measure(c))));
