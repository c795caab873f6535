// What one provider chunk re-frames to, gathered for one socket write: frames made as text (most of
// them) and hot frames put together from bytes (a prefix made once, the provider's piece copied as it
// came, a suffix), in the order they were made. While only text comes, the text is what the chunk
// gives (one string, written as before); once bytes come, everything goes into one buffer, so a
// stream of deltas makes no string at all: nothing to allocate, join, flatten or encode per event.
// A hot frame's closing bytes are held back until something else is added: when the next thing is the
// same frame opening again (the next delta), its close and open go in as one copy made once, so a run
// of deltas costs one constant copy per delta instead of two (issue 35).
// The buffer a chunk's frames went out in is kept and written over for a later chunk when the caller
// says everything it wrote before has left the process (expect()'s `earlierSent`): a new buffer per
// chunk was external memory, and V8 answers 32 MiB of new external memory in the young generation with a
// scavenge of its own, early, which on the chat paths was most of their scavenges (issue 35).

/** A hot frame's constant bytes: what opens it, what closes it, and the close followed by the open. */
export interface FrameBytes {
  readonly open: Uint8Array;
  readonly close: Uint8Array;
  readonly closeThenOpen: Uint8Array;
}

export function frameBytes(open: string, close: string): FrameBytes {
  return { open: Buffer.from(open), close: Buffer.from(close), closeThenOpen: Buffer.from(close + open) };
}

/** A buffer larger than this is not kept for the next chunk (a stream holds at most this much idle). */
const KEEP_AT_MOST = 64 * 1024;

/** Below this many bytes a copy is a loop (Buffer#copy's call costs more than a short piece). */
const SHORT_COPY = 64;
/**
 * TypedArray#set, called as a function: as a method of the buffer, V8 looked it up with a generic load
 * per call (the buffer field is typed Buffer | null), a third of the frame's cost in callgrind counts.
 */
const setBytes = Uint8Array.prototype.set;

export class FrameOutput {
  private text = '';
  private out: Buffer | null = null;
  private length = 0;
  /** The buffer the last take() handed out a view of: written over only when `reuse` allows. */
  private kept: Buffer | null = null;
  /** Set by expect(): what `kept` held has left the process, so the next buffer may be `kept`. */
  private reuse = false;
  /** The frame whose close is held back (see above), or null. */
  private closing: FrameBytes | null = null;

  /** `sizeHint`: the bytes expected before the next take() (the buffer grows past it when needed). */
  constructor(private sizeHint = 4096) {}

  /**
   * The next take() is for a chunk of about this many bytes in. `earlierSent`: every view an earlier
   * take() handed out has been written and has left the process (nothing holds its bytes any more),
   * so this chunk's frames may go into the same buffer. Without it they go into a new one.
   */
  expect(bytesIn: number, earlierSent = false): void {
    this.sizeHint = bytesIn * 2 + 512;
    this.reuse = earlierSent;
  }

  addText(text: string): void {
    if (this.closing !== null) this.endFrame();
    if (this.out === null) this.text += text;
    else this.writeText(text);
  }

  /** Opens a hot frame: its open bytes, or its close and open as one when the last thing added closed it. */
  openFrame(frame: FrameBytes): void {
    if (this.closing === frame) {
      this.closing = null;
      this.put(frame.closeThenOpen);
      return;
    }
    if (this.closing !== null) this.endFrame();
    this.put(frame.open);
  }

  /** Closes the frame openFrame opened (its close goes in with whatever is added next). */
  closeFrame(frame: FrameBytes): void {
    this.closing = frame;
  }

  /** A constant part of a frame, as bytes. */
  addBytes(bytes: Uint8Array): void {
    if (this.closing !== null) this.endFrame();
    this.put(bytes);
  }

  private put(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    setBytes.call(this.out!, bytes, this.length);
    this.length += bytes.length;
  }

  /** source[start, end), copied. */
  addRange(source: Buffer, start: number, end: number): void {
    if (this.closing !== null) this.endFrame();
    const n = end - start;
    this.ensure(n);
    const out = this.out!;
    if (n < SHORT_COPY) {
      let at = this.length;
      for (let i = start; i < end; i++) out[at++] = source[i]!;
    } else {
      source.copy(out, this.length, start, end);
    }
    this.length += n;
  }

  /** A non-negative integer's decimal digits (an event's sequence number). */
  addDecimal(n: number): void {
    if (this.closing !== null) this.endFrame();
    let digits = 1;
    for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    this.ensure(digits);
    const out = this.out!;
    let at = this.length + digits;
    this.length = at;
    let rest = n;
    do {
      out[--at] = 0x30 + (rest % 10);
      rest = Math.floor(rest / 10);
    } while (rest > 0);
  }

  /** Everything added since the last take ('' for nothing). */
  take(): string | Buffer {
    if (this.closing !== null) this.endFrame();
    this.reuse = false;
    const out = this.out;
    if (out === null) {
      const text = this.text;
      this.text = '';
      return text;
    }
    const taken = out.subarray(0, this.length);
    this.out = null;
    this.length = 0;
    this.kept = out.length <= KEEP_AT_MOST ? out : null;
    return taken;
  }

  private endFrame(): void {
    const frame = this.closing!;
    this.closing = null;
    this.put(frame.close);
  }

  /** Room for `n` more bytes; the text gathered so far goes in first. */
  private ensure(n: number): void {
    if (this.out === null) {
      const text = this.text;
      this.text = '';
      const size = Math.max(this.sizeHint, n + Buffer.byteLength(text) * 2);
      const kept = this.kept;
      this.out = this.reuse && kept !== null && kept.length >= size ? kept : Buffer.allocUnsafe(size);
      if (text !== '') this.writeText(text);
    }
    if (this.length + n > this.out.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.out.length * 2, this.length + n));
      this.out.copy(bigger, 0, 0, this.length);
      this.out = bigger;
    }
  }

  private writeText(text: string): void {
    const n = Buffer.byteLength(text);
    this.ensure(n);
    this.length += this.out!.write(text, this.length);
  }
}
