// No upstream counterpart: the contract between a log format's parser and the import's reader and
// merger. A parser turns lines into request fragments (or rejects them, with what was expected);
// the merger folds the fragments of one request (same audit ID, or same join key) into one
// ImportedRequest, across the stages of an audit event and across files.
import type { ImportFormat, ImportedRequest, SourcePosition } from '../run/imported-request';

/** Where a line is, and what the reader assumes for timestamps without a year. */
export interface LineContext {
  file: string;
  /** 1-based. */
  line: number;
  /** The year klog timestamps (`I0312 10:15:07.146378`) are read in (UTC). */
  year: number;
}

/** The fields one fragment sets; the merger keeps the first value of each, except where noted. */
export type RequestFields = Partial<Omit<ImportedRequest, 'id' | 'sources'>>;

/** What one line (or one multi-line block) says about one request. */
export interface RequestFragment {
  source: SourcePosition;
  /** The line's own time (epoch ms): files are merged into one timeline by it. */
  time?: number;
  /**
   * Joins fragments that carry no audit ID (a kubectl request line and its response line): unique
   * within the file, e.g. `pid 17122 #3`.
   */
  key?: string;
  /**
   * The client process the line belongs to (kubectl's or a controller's pid within its file): a
   * fragment with `attach: 'last-watch'` joins that stream's latest watch.
   */
  stream?: string;
  /**
   * A line about a request it does not name: client-go's `watch of *v1.Pod ended with: …` joins
   * the latest watch of the same stream and resource (fields.objectRef.resource). With none
   * held, it is a watch of its own that began before the file (verb watch, startInFile false).
   */
  attach?: 'last-watch';
  /** This fragment ends the request: its response, ResponseComplete or Panic was read. */
  complete: boolean;
  fields: RequestFields;
}

/** A line that breaks its format; `reason` says what was expected. */
export interface RejectedFragment {
  reject: string;
  /** The line it is about, when not the line just pushed (a block left open, rejected at its start). */
  line?: number;
}

/** A parser's answer for a line: fragments it completed, a reject, or nothing (a line of the format about no request: counted as skipped). */
export type ParseResult = RequestFragment | RejectedFragment;

export function isRejected(r: ParseResult): r is RejectedFragment {
  return 'reject' in r;
}

/** One file's parser: stateful, because kubectl -v=8 prints a request's headers over several lines. */
export interface LineParser {
  readonly format: ImportFormat;
  /** Feeds one line (without its newline); returns what the line completed (often nothing yet). */
  push(text: string, ctx: LineContext): ParseResult[];
  /** The file ended: a block left open is rejected, at the line it began. */
  end(ctx: LineContext): ParseResult[];
}

/** A format the reader can detect and parse. */
export interface LineFormat {
  readonly format: ImportFormat;
  /** True when this line is of the format (detection reads a file's first non-empty lines). */
  sniff(text: string): boolean;
  create(): LineParser;
  /**
   * The time of a line whose timestamp carries no year (klog's `I0312 10:15:07`), read in `year`;
   * undefined for a line with no time or one that carries its year. Absent: every time of the
   * format carries its year (audit events).
   */
  yearlessTime?(text: string, year: number): number | undefined;
}
