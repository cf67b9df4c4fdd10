// No upstream counterpart: the import's reader. Files are streamed (fs.createReadStream, lines cut
// on bytes), each file's format is detected from its first non-empty lines (LineFormat.sniff) or
// forced, its parser turns lines into request fragments, and the fragments of every file are
// merged by line time into one timeline (a k-way merge of the files read at once) and folded into
// requests (RequestMerger). Every line no parser accepts is a RejectedLine, counted and sampled.
// A klog file's timestamps carry no year: without --year it is read in the year that puts it
// nearest the first date of a file whose times carry theirs (nearest-year.ts), else in its
// modification year; its lines wait at the first year-less one until every file has been opened.
import { createReadStream, promises as fsp } from 'fs';
import { visibleText } from '../format/visible-text';
import type {
  ImportAssumptions,
  ImportFormat,
  ImportedRequest,
  RejectedLine,
} from '../run/imported-request';
import { knownLineFormats } from './line-formats';
import {
  isRejected,
  type LineContext,
  type LineFormat,
  type LineParser,
  type ParseResult,
  type RequestFields,
  type RequestFragment,
} from './line-parser';
import { LineSplitter } from './line-splitter';
import { RequestMerger, type MergeStats } from './request-merger';
import { formatByteLimit } from '../format/byte-size-text';
import { nearestYear } from './nearest-year';

/** A file to import; `name` is how the user named it (messages and SourcePosition.file use it). */
export interface ImportFile {
  path: string;
  name?: string;
}

export interface ImportOptions {
  /**
   * The year klog timestamps (no year) are read in; default: the year nearest the first date of
   * a file in the import whose times carry their year (an audit log), else each file's
   * modification year.
   */
  year?: number;
  /** Read every file as this format instead of detecting it. */
  format?: ImportFormat;
  /** The formats detection chooses from, in order of preference; default knownLineFormats. */
  formats?: readonly LineFormat[];
  signal?: AbortSignal;
  /**
   * Called once with 0 before reading, then after every chunk; the total is known from stat,
   * undefined when an input has no size (a FIFO, a character device such as /dev/zero).
   */
  onProgress?(bytesRead: number, totalBytes: number | undefined): void;
  /**
   * Log time a completed request waits for more lines (default defaultMergeWindowMs): another
   * file's, or a client log's response body after its status line. A single audit log has none
   * to wait for (nothing follows ResponseComplete or Panic), so it is read without one.
   */
  mergeWindowMs?: number;
  /** Requests held at once, open or waiting (default defaultMaxPending). */
  maxPending?: number;
  /** Longest line read (default defaultMaxLineBytes); a longer one is rejected, not held. */
  maxLineBytes?: number;
}

/** Where the import's output goes, as it is read: requests in completion order, rejected lines. */
export interface ImportSink {
  request(r: ImportedRequest): void;
  reject(r: RejectedLine): void;
  /**
   * A watch's first line was read and the watch is still open (it is emitted when it ends): the
   * relist rule's "no WATCH received between" must see it before the LISTs that complete first.
   */
  watchOpened?(fields: RequestFields): void;
}

export interface ImportFileResult {
  /** As the user named it. */
  file: string;
  /** undefined: no format recognised the file (every line rejected) or it could not be read. */
  format: ImportFormat | undefined;
  bytes: number;
  lines: number;
  /** Requests with a source in this file (a request joined across files counts in each). */
  records: number;
  /** Of those, the requests joined to another file's records (by audit ID, or time, verb and URL). */
  joined: number;
  rejected: number;
  /** Lines of the format that complete no request by themselves (blank, about no request, or inside a block). */
  skipped: number;
}

export interface ImportResult {
  /** Requests emitted. */
  records: number;
  lines: number;
  skipped: number;
  rejected: number;
  /** The files' sizes added up (stat before reading). */
  bytes: number;
  files: ImportFileResult[];
  assumptions: ImportAssumptions;
  /** The first maxRejectedSamples rejects. */
  rejectedSamples: RejectedLine[];
  merge: MergeStats;
}

/**
 * Long enough for a kubectl -v=8 response line and the audit ID of a watch's last line to meet
 * their audit event, short enough that an hour of log time does not stay in memory.
 */
export const defaultMergeWindowMs = 60_000;
/** About 100 MB of held requests at worst; an apiserver has far fewer in flight. */
export const defaultMaxPending = 200_000;
/**
 * A RequestResponse audit event of a large LIST can be tens of MB (upstream truncates at 100 KB
 * only with --audit-log-truncate-enabled); 64 MiB keeps one line, its string and its parse tree
 * within a few hundred MB.
 */
export const defaultMaxLineBytes = 64 * 1024 * 1024;

/**
 * A file whose first line has no end within maxLineBytes is no log of lines (a binary file,
 * /dev/zero, a stream that never sends a newline): it is refused, with the file and the byte it
 * reached, instead of being read (and counted as one overlong line) forever.
 */
export class NoLineEndError extends Error {}
export const maxRejectedSamples = 100;
/** Non-empty lines detection reads, and lines it looks at in all before giving up. */
const sniffLines = 20;
const sniffMaxLines = 1000;
/** Characters of a rejected line shown (RejectedLine.text). */
const rejectTextChars = 200;

const formatNames: Record<ImportFormat, string> = {
  audit: 'audit.k8s.io/v1 Event JSON lines',
  kubectl: 'kubectl -v=6..9 output',
  'client-go': 'client-go reflector or round-tripper lines',
  httplog: 'kube-apiserver httplog "HTTP" lines',
};

/** A line's start as a RejectedLine shows it. */
export function rejectText(line: string): string {
  return visibleText(line.slice(0, rejectTextChars)).slice(0, rejectTextChars);
}

export async function importFiles(
  files: readonly ImportFile[],
  options: ImportOptions,
  sink: ImportSink,
): Promise<ImportResult> {
  const formats = options.formats ?? knownLineFormats;
  let forced: LineFormat | undefined;
  if (options.format !== undefined) {
    forced = formats.find((f) => f.format === options.format);
    if (!forced) throw new Error(`no importer for format ${options.format}`);
  }
  const rejectedSamples: RejectedLine[] = [];
  const result: ImportResult = {
    records: 0,
    lines: 0,
    skipped: 0,
    rejected: 0,
    bytes: 0,
    files: [],
    assumptions: { timeZone: 'UTC' },
    rejectedSamples,
    merge: { maxPending: 0, closedEarly: 0, evicted: 0, late: 0 },
  };
  const reject = (r: RejectedLine, stats: ImportFileResult | undefined): void => {
    result.rejected++;
    if (stats) stats.rejected++;
    if (rejectedSamples.length < maxRejectedSamples) rejectedSamples.push(r);
    sink.reject(r);
  };

  const sources: FileSource[] = [];
  let sizeUnknown = false;
  const byName = new Map<string, ImportFileResult>();
  for (const f of files) {
    const name = f.name ?? f.path;
    const stats: ImportFileResult = {
      file: name,
      format: undefined,
      bytes: 0,
      lines: 0,
      records: 0,
      joined: 0,
      rejected: 0,
      skipped: 0,
    };
    result.files.push(stats);
    if (!byName.has(name)) byName.set(name, stats);
    let st;
    try {
      st = await fsp.stat(f.path);
    } catch (e) {
      reject(
        { file: name, line: 0, reason: `cannot read ${name}: ${errorText(e)}`, text: '' },
        stats,
      );
      continue;
    }
    stats.bytes = st.size;
    result.bytes += st.size;
    if (!st.isFile()) sizeUnknown = true;
    const mtimeYear = new Date(st.mtimeMs).getUTCFullYear();
    sources.push(new FileSource(f.path, name, mtimeYear, stats, formats, forced, options, reject));
  }

  const merger = new RequestMerger({
    mergeWindowMs: options.mergeWindowMs ?? defaultMergeWindowMs,
    maxPending: options.maxPending ?? defaultMaxPending,
    emit: (r) => {
      result.records++;
      const files = new Set(r.sources.map((src) => src.file));
      for (const file of files) {
        const stats = byName.get(file);
        if (!stats) continue;
        stats.records++;
        if (files.size > 1) stats.joined++;
      }
      sink.request(r);
    },
    opened: (fields) => sink.watchOpened?.(fields),
  });

  const progress: Progress = {
    read: 0,
    total: sizeUnknown ? undefined : result.bytes,
    report: options.onProgress,
  };
  progress.report?.(0, progress.total);
  try {
    await Promise.all(sources.map((s) => s.fill(progress)));
    // Every file has its format now, and the files that wait for a year their first year-less line.
    if (chooseYears(sources)) await Promise.all(sources.map((s) => s.fill(progress)));
    if (
      sources.length === 1 &&
      result.files.every((f) => f.format === 'audit' || f.format === undefined)
    )
      merger.setMergeWindow(0);
    // A client log beside an audit log: their records of one request may share no audit ID.
    const formats = new Set(result.files.map((f) => f.format));
    merger.setTimeJoin(
      formats.has('audit') && (formats.has('kubectl') || formats.has('client-go')),
    );
    for (;;) {
      // The file with the earliest next line, and the next-earliest line of the others: the
      // first file's lines go in until they pass it.
      let best: FileSource | undefined;
      let next = Infinity;
      for (const s of sources) {
        if (!s.has()) continue;
        const at = s.headTime();
        if (!best || at < best.headTime()) {
          if (best) next = Math.min(next, best.headTime());
          best = s;
        } else next = Math.min(next, at);
      }
      if (!best) break;
      do merger.add(best.take());
      while (best.has() && best.headTime() <= next);
      if (!best.has()) await best.fill(progress);
    }
  } finally {
    for (const s of sources) s.close();
  }
  merger.finish();

  for (const s of result.files) {
    result.lines += s.lines;
    result.skipped += s.skipped;
  }
  result.merge = merger.stats;
  const year = yearAssumption(sources, options.year);
  if (year) result.assumptions.year = year;
  return result;
}

/**
 * Gives every file waiting for a year its year: the one nearest the earliest first date of the
 * files whose times carry their year, else its modification year. False when none waits.
 */
function chooseYears(sources: readonly FileSource[]): boolean {
  const waiting = sources.filter((s) => s.awaitingYear);
  if (waiting.length === 0) return false;
  let reference: { time: number; file: string } | undefined;
  for (const s of sources) {
    if (s.awaitingYear || !s.has()) continue;
    const time = s.headTime();
    if (Number.isFinite(time) && (!reference || time < reference.time))
      reference = { time, file: s.fileName };
  }
  for (const s of waiting) {
    const year = reference ? nearestYear((y) => s.firstYearlessTime(y), reference.time) : undefined;
    if (reference && year !== undefined) s.setYear(year, `${reference.file}'s dates`);
    else s.setYear(s.mtimeYear, `the modification time of ${s.fileName}`);
  }
  return true;
}

/** The year the files with year-less times were read in, and why (ImportAssumptions.year). */
function yearAssumption(
  sources: readonly FileSource[],
  forced: number | undefined,
): ImportAssumptions['year'] {
  if (forced !== undefined)
    return sources.some((s) => s.fileFormat !== undefined && s.fileFormat !== 'audit')
      ? { value: forced, from: '--year' }
      : undefined;
  const read = sources.filter((s) => s.yearFrom !== undefined);
  if (read.length === 0) return undefined;
  const first = read[0];
  if (read.every((s) => s.year === first.year && s.yearFrom === first.yearFrom))
    return { value: first.year, from: first.yearFrom as string };
  // Files read in different years, or for different reasons: each says its own.
  return {
    value: first.year,
    from: read.map((s) => `${s.fileName}: ${s.year} from ${s.yearFrom}`).join('; '),
  };
}

interface Progress {
  read: number;
  total: number | undefined;
  report?(bytesRead: number, totalBytes: number | undefined): void;
}

/** One file being read: its lines through detection and its parser into a queue of fragments. */
class FileSource {
  private readonly stream: ReturnType<typeof createReadStream>;
  private readonly chunks: AsyncIterator<Buffer>;
  private readonly splitter: LineSplitter;
  private parser: LineParser | undefined;
  private parserFormat: LineFormat | undefined;
  private format: ImportFormat | undefined;
  /** Lines held while the format is not known yet. */
  private sniffing: Array<{ text: string; line: number }> | undefined = [];
  private sniffNonEmpty = 0;
  /** Fragments queued at [head, size). */
  private readonly queue: Array<RequestFragment | undefined> = [];
  private head = 0;
  private size = 0;
  private lastTime = -Infinity;
  private ended = false;
  /** This file's bytes read so far. */
  private bytesRead = 0;
  /** The year its klog times are read in; undefined until --year or chooseYears says. */
  private chosenYear: number | undefined;
  /** Why chosenYear (ImportAssumptions.year.from); undefined with --year or no year-less line. */
  yearFrom: string | undefined;
  /** Lines held from the first year-less one (its text first) until setYear. */
  private yearHeld: Array<{ text: string; line: number }> | undefined;
  private parserEnded = false;

  constructor(
    path: string,
    private readonly name: string,
    readonly mtimeYear: number,
    private readonly stats: ImportFileResult,
    private readonly formats: readonly LineFormat[],
    forced: LineFormat | undefined,
    private readonly options: ImportOptions,
    private readonly reject: (r: RejectedLine, stats: ImportFileResult) => void,
  ) {
    this.stream = createReadStream(path, { highWaterMark: 1 << 20 });
    this.chunks = this.stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    this.splitter = new LineSplitter(
      {
        line: (text, line) => this.onLine(text, line),
        bad: (line, reason, preview) =>
          this.reject(
            { file: this.name, line, format: this.format, reason, text: rejectText(preview) },
            this.stats,
          ),
      },
      options.maxLineBytes ?? defaultMaxLineBytes,
    );
    this.chosenYear = options.year;
    if (forced) this.choose(forced);
  }

  get fileName(): string {
    return this.name;
  }

  get fileFormat(): ImportFormat | undefined {
    return this.format;
  }

  /** The year its year-less times were read in (its modification year until one is chosen). */
  get year(): number {
    return this.chosenYear ?? this.mtimeYear;
  }

  /** Its lines wait at the first year-less one for setYear. */
  get awaitingYear(): boolean {
    return this.yearHeld !== undefined;
  }

  /** Its first year-less line's time read in `year` (undefined: not a date of that year). */
  firstYearlessTime(year: number): number | undefined {
    const first = this.yearHeld?.[0];
    return first ? this.parserFormat?.yearlessTime?.(first.text, year) : undefined;
  }

  /** Reads the held lines, and those that follow, in `year`. */
  setYear(year: number, from: string): void {
    this.chosenYear = year;
    this.yearFrom = from;
    const held = this.yearHeld ?? [];
    this.yearHeld = undefined;
    for (const l of held) this.feed(l.text, l.line);
    if (this.ended) this.endParser();
  }

  /**
   * Whether a fragment is queued, cutting lines of the chunk in hand until one is: lines are read
   * one at a time (and merged at once), not a chunk's worth at a time, so that each line's
   * objects are still in the CPU's caches when the merger takes them. The merge order is that of
   * reading whole chunks: a file's turn still ends only where its chunk does.
   */
  has(): boolean {
    while (this.head === this.size) if (this.awaitingYear || !this.splitter.next()) return false;
    return true;
  }

  headTime(): number {
    return (this.queue[this.head] as RequestFragment).time ?? -Infinity;
  }

  take(): RequestFragment {
    const f = this.queue[this.head];
    this.queue[this.head++] = undefined;
    // Emptied: its slots are used again from the start.
    if (this.head === this.size) this.head = this.size = 0;
    return f as RequestFragment;
  }

  /** Reads chunks until a fragment is queued or the file ends. */
  async fill(progress: Progress): Promise<void> {
    while (!this.has() && !this.ended && !this.awaitingYear) {
      const signal = this.options.signal;
      if (signal?.aborted) throw signal.reason ?? new Error('import cancelled');
      let next: IteratorResult<Buffer>;
      try {
        next = await this.chunks.next();
      } catch (e) {
        this.reject(
          {
            file: this.name,
            line: this.splitter.lines,
            format: this.format,
            reason: `cannot read ${this.name}: ${errorText(e)}`,
            text: '',
          },
          this.stats,
        );
        this.finishFile();
        continue;
      }
      if (next.done) {
        this.finishFile();
        continue;
      }
      progress.read += next.value.length;
      this.bytesRead += next.value.length;
      progress.report?.(progress.read, progress.total);
      this.splitter.push(next.value);
      if (!this.has()) this.refuseWithoutLineEnd();
    }
  }

  /** NoLineEndError when the first line is still open past the longest line read. */
  private refuseWithoutLineEnd(): void {
    const max = this.options.maxLineBytes ?? defaultMaxLineBytes;
    if (this.splitter.lines > 0 || this.splitter.openLineBytes <= max) return;
    this.splitter.abandon();
    this.ended = true;
    this.close();
    throw new NoLineEndError(
      `${this.name}: no line end in its first ${formatByteLimit(max)} (line 1 still open at byte ${this.bytesRead}): not a log of lines; the longest line the import reads is ${formatByteLimit(max)}`,
    );
  }

  close(): void {
    this.stream.destroy();
  }

  private finishFile(): void {
    this.ended = true;
    this.splitter.end();
    this.stats.lines = this.splitter.lines;
    if (this.sniffing) this.detect();
    this.endParser();
  }

  /** The parser's last results, once no line waits for a year. */
  private endParser(): void {
    if (!this.parser || this.parserEnded || this.awaitingYear) return;
    this.parserEnded = true;
    this.queueResults(this.parser.end(this.ctx(this.splitter.lines)), undefined, 0);
  }

  private ctx(line: number): LineContext {
    return { file: this.name, line, year: this.year };
  }

  private onLine(text: string, line: number): void {
    if (this.sniffing) {
      this.sniffing.push({ text, line });
      if (text.trim() !== '') this.sniffNonEmpty++;
      if (this.sniffNonEmpty >= sniffLines || this.sniffing.length >= sniffMaxLines) this.detect();
      return;
    }
    this.feed(text, line);
  }

  private feed(text: string, line: number): void {
    if (!this.parser) {
      if (text.trim() === '') {
        this.stats.skipped++;
        return;
      }
      this.reject(
        {
          file: this.name,
          line,
          reason: `not a log format the import reads (expected ${Object.values(formatNames).join(', ')})`,
          text: rejectText(text),
        },
        this.stats,
      );
      return;
    }
    if (this.yearHeld) {
      this.yearHeld.push({ text, line });
      return;
    }
    // The first line whose time needs a year (read in a leap year, so that 0229 is one) waits.
    if (
      this.chosenYear === undefined &&
      this.parserFormat?.yearlessTime?.(text, 2000) !== undefined
    ) {
      this.yearHeld = [{ text, line }];
      return;
    }
    this.queueResults(this.parser.push(text, this.ctx(line)), text, line);
  }

  /** A parser's answer for `text` (undefined: the file's end) at `line`. */
  private queueResults(results: ParseResult[], text: string | undefined, line: number): void {
    if (results.length === 0) {
      if (text !== undefined) this.stats.skipped++;
      return;
    }
    for (const r of results) {
      if (isRejected(r)) {
        const at = r.line ?? (text === undefined ? this.splitter.lines : line);
        this.reject(
          {
            file: this.name,
            line: at,
            format: this.format,
            reason: r.reject,
            text: at === line && text !== undefined ? rejectText(text) : '',
          },
          this.stats,
        );
        continue;
      }
      // A line without a time takes its file's last one: it stays in place in the timeline.
      if (r.time === undefined) {
        if (this.lastTime !== -Infinity) r.time = this.lastTime;
      } else if (r.time > this.lastTime) this.lastTime = r.time;
      this.queue[this.size++] = r;
    }
  }

  /** Chooses the format most of the first non-empty lines fit, then reads the held lines. */
  private detect(): void {
    const held = this.sniffing ?? [];
    this.sniffing = undefined;
    if (!this.parser) {
      let best: LineFormat | undefined;
      let bestVotes = 0;
      for (const f of this.formats) {
        let votes = 0;
        for (const l of held) if (l.text.trim() !== '' && f.sniff(l.text)) votes++;
        if (votes > bestVotes) {
          best = f;
          bestVotes = votes;
        }
      }
      if (best) this.choose(best);
    }
    for (const l of held) this.feed(l.text, l.line);
  }

  private choose(f: LineFormat): void {
    this.sniffing = undefined;
    this.parserFormat = f;
    this.format = f.format;
    this.stats.format = f.format;
    this.parser = f.create();
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
