// Upstream SSE bytes → re-framed SSE bytes in one Transform: each upstream chunk is parsed, its events
// mapped, and every frame they produce leaves as one Buffer (one socket write), with no object-mode
// hop per event. Measured against the three-Transform chain in bench/micro/reframe-streams.ts.
import { Transform, type TransformCallback } from 'node:stream';
import { frameText, type Frame } from './frames.js';
import type { StreamMapper } from './map-stream.js';
import { SseParser, type SseEvent } from './parser.js';

export class ReframeStream extends Transform {
  /** Frames produced so far: lets the caller see when more than the opening frame has gone out. */
  frames = 0;
  private readonly parser: SseParser;
  private text = '';

  constructor(
    private readonly mapper: StreamMapper<SseEvent, Frame>,
    options: ConstructorParameters<typeof SseParser>[1] = {},
  ) {
    super();
    this.parser = new SseParser((ev) => this.append(this.mapper.map(ev)), options);
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    try {
      this.parser.push(chunk);
    } catch (err) {
      return done(err as Error);
    }
    this.pushText(done);
  }

  override _flush(done: TransformCallback): void {
    try {
      this.parser.end();
      this.append(this.mapper.end());
    } catch (err) {
      return done(err as Error);
    }
    this.pushText(done);
  }

  private append(frames: Frame[]): void {
    for (let i = 0; i < frames.length; i++) this.text += frameText(frames[i]!);
    this.frames += frames.length;
  }

  private pushText(done: TransformCallback): void {
    const text = this.text;
    this.text = '';
    done(null, text === '' ? undefined : Buffer.from(text, 'utf8'));
  }
}
