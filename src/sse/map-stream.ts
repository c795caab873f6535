// Objects → objects through a mapper that may emit any number of outputs per input, and some more
// at the end (a stream translator's closing frames). Object mode on both sides.

import { Transform, type TransformCallback } from 'node:stream';

export interface StreamMapper<In, Out> {
  map(input: In): Out[];
  /** Called once when the input ended normally (not on error): the last outputs. */
  end(): Out[];
}

export class MapStream<In, Out> extends Transform {
  constructor(private readonly mapper: StreamMapper<In, Out>) {
    super({ objectMode: true });
  }

  override _transform(input: In, _enc: BufferEncoding, done: TransformCallback): void {
    this.emitAll(() => this.mapper.map(input), done);
  }

  override _flush(done: TransformCallback): void {
    this.emitAll(() => this.mapper.end(), done);
  }

  private emitAll(produce: () => Out[], done: TransformCallback): void {
    let outputs: Out[];
    try {
      outputs = produce();
    } catch (err) {
      return done(err as Error);
    }
    for (let i = 0; i < outputs.length; i++) this.push(outputs[i]);
    done();
  }
}
