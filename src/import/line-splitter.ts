// No upstream counterpart: a file's bytes cut into lines for the importers, on bytes (a chunk may
// end inside a UTF-8 sequence or a CRLF), with CRLF, a last line without a newline, lines that
// are not UTF-8 and lines longer than a cap each handled at their position instead of crashing.
import { isUtf8 } from 'buffer';

/** What the splitter hands on: a line's text and 1-based number, or why a line was not read. */
export interface SplitLineSink {
  line(text: string, line: number): void;
  /** `preview` is the line's start, decoded leniently, for the message. */
  bad(line: number, reason: string, preview: string): void;
}

/** Bytes of a line's start kept for the message about an overlong line. */
const previewBytes = 1024;

export class LineSplitter {
  private lineNo = 0;
  /** The current line's bytes from earlier chunks (joined once its newline comes). */
  private parts: Buffer[] = [];
  private partBytes = 0;
  /** The current line passed the cap: its bytes are counted, not kept. */
  private overlong = false;
  /** The chunk being cut, from `at`. */
  private chunk: Buffer | undefined;
  private at = 0;

  constructor(
    private readonly sink: SplitLineSink,
    private readonly maxLineBytes: number,
  ) {}

  /** Lines started so far (the last may still be open). */
  get lines(): number {
    return this.lineNo;
  }

  /**
   * Takes the next chunk; its lines are cut one at a time by next(), so that each line is read
   * while its bytes and what its parser made of them are still in the CPU's caches. The chunk
   * before must be used up (next() returned false).
   */
  push(chunk: Buffer): void {
    this.chunk = chunk;
    this.at = 0;
  }

  /**
   * Cuts the chunk's next line and hands it on; false when the chunk has no newline left (its
   * tail is kept for the next chunk).
   */
  next(): boolean {
    const chunk = this.chunk;
    if (chunk === undefined) return false;
    const start = this.at;
    const nl = chunk.indexOf(10, start);
    if (nl < 0) {
      if (start < chunk.length) this.append(chunk.subarray(start));
      this.chunk = undefined;
      return false;
    }
    this.at = nl + 1;
    if (this.partBytes === 0 && !this.overlong) {
      if (nl - start > this.maxLineBytes) this.overlongLine(chunk.subarray(start, nl), nl - start);
      else this.emit(chunk, start, nl);
    } else {
      this.append(chunk.subarray(start, nl));
      this.flushParts();
    }
    return true;
  }

  /** Bytes of the line still open (no line end yet), kept or only counted. */
  get openLineBytes(): number {
    return this.partBytes;
  }

  /** Drops the open line and the chunk in hand: the reader stops here, and end() says nothing. */
  abandon(): void {
    this.parts = [];
    this.partBytes = 0;
    this.overlong = false;
    this.chunk = undefined;
  }

  /** The file ended (the last chunk used up): a last line without a newline is a line too. */
  end(): void {
    if (this.partBytes > 0 || this.overlong) this.flushParts();
  }

  private append(b: Buffer): void {
    if (this.overlong) {
      this.partBytes += b.length;
      return;
    }
    this.parts.push(b);
    this.partBytes += b.length;
    if (this.partBytes > this.maxLineBytes) {
      // Keep the start for the message only: the rest of the line is skipped, not held.
      const head = Buffer.concat(this.parts).subarray(0, previewBytes);
      this.parts = [Buffer.from(head)];
      this.overlong = true;
    }
  }

  private flushParts(): void {
    if (this.overlong) {
      const total = this.partBytes;
      const head = this.parts[0] ?? Buffer.alloc(0);
      this.parts = [];
      this.partBytes = 0;
      this.overlong = false;
      this.overlongLine(head, total);
      return;
    }
    const joined = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts);
    this.parts = [];
    this.partBytes = 0;
    this.emit(joined, 0, joined.length);
  }

  private overlongLine(head: Buffer, bytes: number): void {
    const line = ++this.lineNo;
    this.sink.bad(
      line,
      `line is longer than ${this.maxLineBytes} bytes (${bytes} bytes); not read`,
      head.subarray(0, previewBytes).toString('utf8'),
    );
  }

  private emit(buf: Buffer, start: number, end: number): void {
    const line = ++this.lineNo;
    if (end > start && buf[end - 1] === 13) end--;
    const text = buf.toString('utf8', start, end);
    // U+FFFD is rare in logs: only then is it worth asking whether the bytes were UTF-8.
    if (text.includes('\ufffd') && !isUtf8(buf.subarray(start, end))) {
      const at = firstInvalidUtf8(buf.subarray(start, end));
      this.sink.bad(line, `line is not valid UTF-8 (byte ${at + 1} of the line)`, text);
      return;
    }
    this.sink.line(text, line);
  }
}

/** The 0-based offset of the first byte that does not start or continue a valid UTF-8 sequence. */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    const n =
      c < 0x80
        ? 1
        : c >= 0xc2 && c < 0xe0
          ? 2
          : c >= 0xe0 && c < 0xf0
            ? 3
            : c >= 0xf0 && c < 0xf5
              ? 4
              : 0;
    if (n === 0 || i + n > b.length) return i;
    if (n > 1 && !isUtf8(b.subarray(i, i + n))) return i;
    i += n;
  }
  return b.length;
}
