// Bytes → SseEvent objects, as a Transform (readable side in object mode) for stream.pipeline.

import { Transform, type TransformCallback } from 'node:stream';
import { SseParser, type SseEvent } from './parser.js';

export class SseParseStream extends Transform {
  private readonly parser: SseParser;

  constructor(options: { maxEventChars?: number } = {}) {
    super({ readableObjectMode: true });
    this.parser = new SseParser((ev: SseEvent) => this.push(ev), options);
  }

  override _transform(chunk: Buffer | string, _enc: BufferEncoding, done: TransformCallback): void {
    try {
      this.parser.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    } catch (err) {
      return done(err as Error);
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    this.parser.end();
    done();
  }
}
