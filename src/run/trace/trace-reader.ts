// No upstream counterpart: reads a listwatch trace (trace-format.ts) as it streams in. A broken
// header stops the read with an error naming line 1; a broken record line is rejected, counted and
// sampled (never silently dropped), and reading goes on. A trace cut short (its writer killed, a
// copy interrupted) is told apart from a damaged one, naming the line where it stops.
import { visibleText } from '../../format/visible-text';
import {
  TraceFormatError,
  describeValue,
  traceVersion,
  validateHeader,
  validateRecord,
  type TraceHeader,
  type TraceRecord,
} from './trace-format';

/** The longest line a trace may have (the largest real lines, bucket pops of 100k watchers, are < 1 MiB). */
export const defaultMaxLineLength = 4 * 1024 * 1024;

export interface TraceReadOptions {
  /** Called every 10,000 lines and at the end with the number of lines read. */
  onProgress?(linesRead: number): void;
  signal?: AbortSignal;
  /** How many rejected lines keep their reason (default 5). */
  maxRejectedSamples?: number;
  /** Lines longer than this are rejected (default 4 MiB). */
  maxLineLength?: number;
}

export interface TraceReadStats {
  linesRead: number;
  /** Empty lines (skipped, not records). */
  blankLines: number;
  rejected: number;
  /** The first few reasons, each starting with its line number. */
  rejectedSamples: string[];
  /**
   * Why the trace looks truncated, naming the line (set once it is read to the end): its last
   * line is cut off mid-JSON, or it ends without the final metrics record a finished run writes.
   */
  truncated?: string;
}

/** A record with the line it came from. */
export interface TraceLine {
  line: number;
  record: TraceRecord;
}

/** Thrown when the signal aborts a read. */
export class TraceReadAbortedError extends Error {
  constructor(line: number) {
    super(`trace reading cancelled at line ${line}`);
    this.name = 'AbortError';
  }
}

/**
 * A streaming reader: `header()` reads and checks line 1; iterating yields the valid records after
 * it, in order. `stats` counts lines and rejections as it goes.
 */
export class TraceReader implements AsyncIterable<TraceLine> {
  readonly stats: TraceReadStats = {
    linesRead: 0,
    blankLines: 0,
    rejected: 0,
    rejectedSamples: [],
  };
  private readonly it: AsyncIterator<string>;
  private readonly opts: TraceReadOptions;
  private readonly maxSamples: number;
  private readonly maxLineLength: number;
  private headerValue: TraceHeader | undefined;
  private headerPromise: Promise<TraceHeader> | undefined;
  /** The last line with text, and whether it failed to parse as JSON. */
  private lastText = { line: 0, notJson: false };
  private sawFinalMetrics = false;

  constructor(lines: AsyncIterable<string> | Iterable<string>, opts: TraceReadOptions = {}) {
    const asyncSource = (lines as Partial<AsyncIterable<string>>)[Symbol.asyncIterator];
    const syncSource = (lines as Partial<Iterable<string>>)[Symbol.iterator];
    if (typeof asyncSource === 'function') this.it = asyncSource.call(lines);
    else if (typeof syncSource === 'function') {
      const sync: Iterator<string> = syncSource.call(lines);
      this.it = { next: async () => sync.next() };
    } else throw new TypeError('readTrace: lines must be an (async) iterable of strings');
    this.opts = opts;
    this.maxSamples = opts.maxRejectedSamples ?? 5;
    this.maxLineLength = opts.maxLineLength ?? defaultMaxLineLength;
  }

  /** Reads line 1 (once) and checks it: a wrong format or version is a TraceFormatError for line 1. */
  header(): Promise<TraceHeader> {
    this.headerPromise ??= this.readHeader();
    return this.headerPromise;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<TraceLine> {
    await this.header();
    for (;;) {
      const raw = await this.nextLine();
      if (raw === undefined) break;
      if (raw === null) continue;
      const n = this.stats.linesRead;
      const text = this.clean(raw);
      if (text === undefined) continue;
      this.lastText = { line: n, notJson: false };
      if (text.length > this.maxLineLength) {
        this.reject(
          n,
          `${text.length} characters, longer than the ${this.maxLineLength} a trace line may have`,
        );
        continue;
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (e) {
        this.reject(n, `not JSON (${(e as Error).message}): ${describeValue(text)}`);
        this.lastText.notJson = true;
        continue;
      }
      const r = validateRecord(value);
      if (typeof r === 'string') {
        this.reject(n, r);
        continue;
      }
      if (r.kind === 'metrics' && r.scope === 'resource') this.sawFinalMetrics = true;
      yield { line: n, record: r };
    }
    const truncated = this.truncation();
    if (truncated) this.stats.truncated = truncated;
    this.opts.onProgress?.(this.stats.linesRead);
  }

  private truncation(): string | undefined {
    const { line, notJson } = this.lastText;
    if (notJson) return `line ${line}, the last, is cut off mid-JSON`;
    // A probe's trace (src/probe) has a metrics record only when it scraped /metrics: no final
    // engine metrics to miss.
    if (!this.sawFinalMetrics && this.headerValue?.scenario !== 'probe') {
      const last = Math.max(line, 1);
      return `it ends at line ${last} without the final metrics record a finished run writes`;
    }
    return undefined;
  }

  private async readHeader(): Promise<TraceHeader> {
    for (;;) {
      const raw = await this.nextLine();
      if (raw === undefined) {
        throw new TraceFormatError(
          Math.max(1, this.stats.linesRead),
          `empty trace: expected a header line {"format":"listwatch-trace","version":${traceVersion},…}`,
        );
      }
      const n = this.stats.linesRead;
      if (raw === null)
        throw new TraceFormatError(n, 'expected the trace header, got a line that is not text');
      const text = this.clean(raw);
      if (text === undefined) continue;
      if (text.length > this.maxLineLength) {
        throw new TraceFormatError(
          n,
          `expected the trace header, got a line of ${text.length} characters`,
        );
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (e) {
        throw new TraceFormatError(
          n,
          `expected the trace header (a JSON object), got invalid JSON (${(e as Error).message}): ${describeValue(text)}`,
        );
      }
      this.headerValue = validateHeader(value, n);
      return this.headerValue;
    }
  }

  /** The next line; undefined at the end; null for a non-text line (already rejected). */
  private async nextLine(): Promise<string | null | undefined> {
    if (this.opts.signal?.aborted) throw new TraceReadAbortedError(this.stats.linesRead);
    const r = await this.it.next();
    if (r.done) return undefined;
    this.stats.linesRead++;
    if (this.stats.linesRead % 10000 === 0) this.opts.onProgress?.(this.stats.linesRead);
    if (typeof r.value !== 'string') {
      this.reject(this.stats.linesRead, `expected a line of text, got ${typeof r.value}`);
      return null;
    }
    return r.value;
  }

  /** Strips a trailing \r (CRLF files); undefined for an empty line. */
  private clean(raw: string): string | undefined {
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text.trim() === '') {
      this.stats.blankLines++;
      return undefined;
    }
    return text;
  }

  private reject(line: number, reason: string): void {
    this.stats.rejected++;
    if (this.stats.rejectedSamples.length < this.maxSamples)
      this.stats.rejectedSamples.push(`line ${line}: ${visibleText(reason)}`);
  }
}

/** Starts reading a trace (nothing is read until `header()` or iteration). */
export function readTrace(
  lines: AsyncIterable<string> | Iterable<string>,
  opts?: TraceReadOptions,
): TraceReader {
  return new TraceReader(lines, opts);
}

/** Splits a whole text into lines (for traces already in memory). */
export function traceLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}
