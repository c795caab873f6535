// The Reframer as a Transform, for callers that hold a Readable (tests, the micro-benchmarks that
// compare it with the three object-mode Transforms). Production relays push to a Reframer directly.
import { Transform, type TransformCallback } from 'node:stream';
import type { Frame } from './frames.js';
import type { StreamMapper } from './map-stream.js';
import type { SseEvent, SseParser } from './parser.js';
import { Reframer } from './reframer.js';

export class ReframeStream extends Transform {
  private readonly reframer: Reframer;

  constructor(mapper: StreamMapper<SseEvent, Frame>, options: ConstructorParameters<typeof SseParser>[1] = {}) {
    super();
    this.reframer = new Reframer(mapper, options);
  }

  /** Frames produced so far. */
  get frames(): number {
    return this.reframer.frames;
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.emit_(() => this.reframer.push(chunk), done);
  }

  override _flush(done: TransformCallback): void {
    this.emit_(() => this.reframer.end(), done);
  }

  private emit_(produce: () => string, done: TransformCallback): void {
    let text: string;
    try {
      text = produce();
    } catch (err) {
      return done(err as Error);
    }
    done(null, text === '' ? undefined : Buffer.from(text, 'utf8'));
  }
}
