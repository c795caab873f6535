// Upstream SSE bytes → re-framed SSE, pushed a chunk at a time: each chunk is parsed, its events
// mapped, and every frame they produce comes back as one string or buffer (one socket write,
// ./frame-output.ts). The stream relay (src/gateway/relay/relay-answer.ts) calls it for every chunk the
// provider sends.
import { FrameOutput } from './frame-output.js';
import { frameText, type Frame } from './frames.js';
import { NamedEventReader } from './named-events.js';
import type { SseEvent } from './parser.js';

/** Maps each input to any number of outputs, and gives some more when the input ended normally. */
export interface StreamMapper<In, Out> {
  map(input: In): Out[];
  /**
   * The Reframer's hot event (its `hot` option) with where it lies in the chunk's bytes, for a mapper
   * that reads more of it in place; without this, such an event goes to map() like any other.
   */
  mapHot?(input: In, bytes: Buffer, view: DataView, afterHead: number, dataEnd: number): Out[];
  /**
   * The hot event, before mapHot: written into `output` as bytes straight from the chunk's, true; or
   * false, and it goes to mapHot (or map) as an event. Nothing may be written when it returns false.
   */
  hotBytes?(bytes: Buffer, view: DataView, afterHead: number, dataEnd: number, output: FrameOutput): boolean;
  /** Called once when the input ended normally (not on error): the last outputs. */
  end(): Out[];
}

export class Reframer {
  /** Frames produced so far: lets the caller see when more than the opening frame has gone out. */
  frames = 0;
  private readonly parser: NamedEventReader;
  private readonly output = new FrameOutput();

  /**
   * The events are read by a NamedEventReader (the usual shape in place, anything else by the general
   * parser); `hot` names the event most of the stream is made of, recognised by one compare.
   */
  constructor(
    private readonly mapper: StreamMapper<SseEvent, Frame>,
    options: ConstructorParameters<typeof NamedEventReader>[1] = {},
  ) {
    const map = (ev: SseEvent) => this.append(this.mapper.map(ev));
    const hot = options.hot;
    const hotHeadLength = hot?.dataHead.length ?? 0;
    this.parser = new NamedEventReader(
      {
        named: (bytes, _view, nameStart, nameEnd, dataStart, dataEnd) => map({ event: bytes.toString('utf8', nameStart, nameEnd), data: bytes.toString('utf8', dataStart, dataEnd) }),
        event: map,
        hot: (bytes, view, afterHead, dataEnd) => {
          if (this.mapper.hotBytes?.(bytes, view, afterHead, dataEnd, this.output) === true) {
            this.frames++;
            return;
          }
          const ev = { event: hot!.name, data: bytes.toString('utf8', afterHead - hotHeadLength, dataEnd) };
          this.append(this.mapper.mapHot === undefined ? this.mapper.map(ev) : this.mapper.mapHot(ev, bytes, view, afterHead, dataEnd));
        },
      },
      options,
    );
  }

  /**
   * The frames this chunk completed ('' for none). Throws when the bytes cannot be parsed (an oversized
   * event). `earlierSent`: what earlier calls gave back has left the process; their buffer may be reused.
   */
  push(chunk: Buffer, earlierSent = false): string | Buffer {
    this.output.expect(chunk.length, earlierSent);
    this.parser.push(chunk);
    return this.output.take();
  }

  /** The upstream ended normally: the last frames. */
  end(): string | Buffer {
    this.parser.end();
    this.append(this.mapper.end());
    return this.output.take();
  }

  /** The upstream failed: the frames the caller has the mapper end with (its error frames, or none). */
  close(frames: Frame[]): string | Buffer {
    this.append(frames);
    return this.output.take();
  }

  private append(frames: Frame[]): void {
    for (let i = 0; i < frames.length; i++) this.output.addText(frameText(frames[i]!));
    this.frames += frames.length;
  }
}
