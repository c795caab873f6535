// Frame objects → SSE bytes, as a Transform (writable side in object mode).

import { Transform, type TransformCallback } from 'node:stream';
import { frameText, type Frame } from './frames.js';

export class SseSerializeStream extends Transform {
  constructor() {
    super({ writableObjectMode: true });
  }

  override _transform(frame: Frame, _enc: BufferEncoding, done: TransformCallback): void {
    done(null, Buffer.from(frameText(frame), 'utf8'));
  }
}
