// No upstream counterpart: replays a trace. The header names the scenario, its parameters and
// seed; the run is repeated on a fresh virtual clock and every line it produces is compared with
// the recorded one. A deterministic engine reproduces the trace byte for byte; the first line that
// differs is reported.
import { runScenario } from './runner';
import { notRerunReason } from '../run/recorded-run-summary';
import {
  TraceFormatError,
  traceVersion,
  validateHeader,
  type TraceHeader,
} from '../run/trace/trace-format';
import { TraceWriter } from '../run/trace/trace-writer';

export interface ReplayOptions {
  signal?: AbortSignal;
  onProgress?: (fraction: number, message: string) => void;
}

export interface ReplayDifference {
  /** 1-based line number in the recorded trace. */
  line: number;
  /** The recorded line ('' when the recording ended first). */
  recorded: string;
  /** What the replay produced there ('' when the replay ended first). */
  replayed: string;
}

export interface ReplayResult {
  header: TraceHeader;
  reproduced: boolean;
  /** Lines that matched before the first difference (all of them when reproduced). */
  matchingLines: number;
  recordedLines: number;
  replayedLines: number;
  firstDifference?: ReplayDifference;
}

/** Cuts a line for a message: the start and the part around `at`. */
export function excerpt(line: string, at = 0, width = 160): string {
  if (line.length <= width) return line;
  const from = Math.max(0, Math.min(at - Math.floor(width / 2), line.length - width));
  return `${from > 0 ? '…' : ''}${line.slice(from, from + width)}${from + width < line.length ? '…' : ''}`;
}

/** The first index where two strings differ (the shorter length when one is a prefix). */
export function firstDiffIndex(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return i;
  return n;
}

/**
 * Re-runs the trace's scenario and compares line by line. Throws a TraceFormatError for a trace
 * without a valid header, and an Error for a header the scenarios cannot run (unknown name or
 * parameter).
 */
export async function replayTrace(
  lines: AsyncIterable<string> | Iterable<string>,
  opts: ReplayOptions = {},
): Promise<ReplayResult> {
  const source = (lines as Partial<AsyncIterable<string>>)[Symbol.asyncIterator]
    ? (lines as AsyncIterable<string>)
    : (async function* () {
        yield* lines as Iterable<string>;
      })();
  const it = source[Symbol.asyncIterator]();
  let lineNo = 0;
  let headerLine: string | undefined;
  for (;;) {
    const r = await it.next();
    if (r.done) break;
    lineNo++;
    const text = r.value.endsWith('\r') ? r.value.slice(0, -1) : r.value;
    if (text.trim() === '') continue;
    headerLine = text;
    break;
  }
  if (headerLine === undefined)
    throw new TraceFormatError(
      Math.max(1, lineNo),
      `empty trace: expected a header line {"format":"listwatch-trace","version":${traceVersion},…}`,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(headerLine);
  } catch (e) {
    throw new TraceFormatError(
      lineNo,
      `expected the trace header (a JSON object), got invalid JSON (${(e as Error).message})`,
    );
  }
  const header = validateHeader(parsed, lineNo);
  const notRerun = notRerunReason(header.scenario);
  if (notRerun !== undefined)
    throw new Error(`scenario ${JSON.stringify(header.scenario)} is not re-run: ${notRerun}`);

  const replayed: string[] = [];
  const writer = new TraceWriter((l) => replayed.push(l));
  await runScenario(header.scenario, header.params, {
    seed: header.seed,
    trace: writer,
    signal: opts.signal,
    onProgress: opts.onProgress,
  });

  const result: ReplayResult = {
    header,
    reproduced: true,
    matchingLines: 0,
    recordedLines: lineNo,
    replayedLines: replayed.length,
  };
  const differ = (line: number, recorded: string, mine: string): void => {
    if (!result.reproduced) return;
    result.reproduced = false;
    result.firstDifference = { line, recorded, replayed: mine };
  };
  // A header with the same content written differently (another writer) still replays.
  const sameHeader =
    replayed[0] === headerLine ||
    JSON.stringify(validateHeader(JSON.parse(replayed[0]), 1)) === JSON.stringify(header);
  if (sameHeader) result.matchingLines++;
  else differ(lineNo, headerLine, replayed[0]);
  let i = 1;
  for (;;) {
    const r = await it.next();
    if (r.done) break;
    lineNo++;
    const text = r.value.endsWith('\r') ? r.value.slice(0, -1) : r.value;
    if (text === '') continue;
    const mine = replayed[i++];
    if (mine === text) {
      if (result.reproduced) result.matchingLines++;
    } else differ(lineNo, text, mine ?? '');
  }
  result.recordedLines = lineNo;
  if (i < replayed.length) differ(lineNo + 1, '', replayed[i]);
  return result;
}
