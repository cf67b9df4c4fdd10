// No upstream counterpart: the replay flags of `listwatch import` (the command itself is
// import-command.ts): `--trace out.jsonl` replays the imported requests through the engine and
// writes the run's trace, `--profile` picks the semantics, `--what-if k=v,…` replays them again
// under other parameters (written beside the trace as `<trace>.what-if.jsonl`), `--compare`
// prints the two runs side by side.
import { compareRuns, comparedFigures, type RunComparison } from '../run/compare-runs';
import type { ImportedRequest } from '../run/imported-request';
import { replayToModel, type TraceLine } from '../replay/replay-import';
import { checkReplaySpan } from '../replay/replay-span';
import {
  replaySummaryText,
  type ReplayOptions,
  type ReplaySummary,
} from '../replay/replay-options';
import { formatCount, plural } from '../format/count-text';
import { TraceWriter } from '../run/trace/trace-writer';
import type { OptionSpec } from './args';
import { type CliIo, UsageError } from './command';
import { renderTable } from './run-report';
import { FileLineSink } from './scenario-command';

/** The options import-command.ts adds to its own for the replay. */
export const importReplayOptionSpecs: OptionSpec[] = [
  { name: 'trace', value: true },
  { name: 'profile', value: true },
  { name: 'what-if', value: true },
  { name: 'compare', value: false },
  { name: 'seed', value: true },
  { name: 'objects', value: true },
];

/** The help lines of those options. */
export const importReplayHelp = [
  '  --trace FILE         replay the requests through the engine in virtual time and write the',
  "                       run's trace (open it in VS Code with List/Watch: Open Trace…)",
  '  --objects R=N,…      objects per resource seeded before the first request (default: inferred',
  "                       from the log's LIST answers)",
  '  --what-if K=V,…      replay again with profile=1.37, watchCacheSize=N, watchList=true',
  '                       (its trace: FILE.what-if.jsonl)',
  '  --compare            print the replay and the what-if side by side',
  "  --seed N             the replay's seed (default 1)",
].join('\n');

export interface ImportReplayFlags {
  trace?: string;
  baseline: Omit<ReplayOptions, 'files'>;
  whatIf?: Omit<ReplayOptions, 'files'>;
  compare: boolean;
}

function profileOf(v: string, flag: string): '1.36' | '1.37' {
  if (v !== '1.36' && v !== '1.37')
    throw new UsageError(`${flag} expects 1.36 or 1.37, got ${JSON.stringify(v)}`);
  return v;
}

function pairs(text: string, flag: string): Array<[string, string]> {
  return text.split(',').map((p) => {
    const eq = p.indexOf('=');
    if (eq <= 0) throw new UsageError(`${flag} expects key=value pairs, got ${JSON.stringify(p)}`);
    return [p.slice(0, eq).trim(), p.slice(eq + 1).trim()];
  });
}

function wholeNumber(v: string, what: string): number {
  if (!/^\d+$/.test(v))
    throw new UsageError(`${what} expects a whole number, got ${JSON.stringify(v)}`);
  return Number(v);
}

/** The replay flags given, or undefined when none asks for a replay. */
export function parseImportReplayFlags(
  options: ReadonlyMap<string, string | true>,
): ImportReplayFlags | undefined {
  const text = (k: string): string | undefined => {
    const v = options.get(k);
    return typeof v === 'string' ? v : undefined;
  };
  const trace = text('trace');
  const whatIfText = text('what-if');
  const compare = options.has('compare');
  if (trace === undefined && whatIfText === undefined && !compare) {
    // --profile is the import's own too (how requests would be served), so it needs no replay.
    for (const k of ['seed', 'objects'])
      if (options.has(k)) throw new UsageError(`--${k} needs --trace, --what-if or --compare`);
    return undefined;
  }
  const seedText = text('seed');
  const seed = seedText === undefined ? 1 : wholeNumber(seedText, '--seed');
  if (seed > 0xffffffff) throw new UsageError(`--seed expects a whole number from 0 to 4294967295`);
  const objectsText = text('objects');
  const objects = objectsText
    ? Object.fromEntries(
        pairs(objectsText, '--objects').map(([k, v]) => [k, wholeNumber(v, `--objects ${k}`)]),
      )
    : undefined;
  const baseline: ImportReplayFlags['baseline'] = {
    profile: profileOf(text('profile') ?? '1.36', '--profile'),
    seed,
    ...(objects ? { objects } : {}),
  };
  let whatIf: ImportReplayFlags['whatIf'];
  if (whatIfText !== undefined) {
    whatIf = { ...baseline, whatIf: true };
    for (const [k, v] of pairs(whatIfText, '--what-if')) {
      if (k === 'profile') whatIf.profile = profileOf(v, '--what-if profile');
      else if (k === 'watchCacheSize') {
        const n = wholeNumber(v, '--what-if watchCacheSize');
        if (n < 1) throw new UsageError('--what-if watchCacheSize expects at least 1');
        whatIf.watchCacheSize = n;
      } else if (k === 'watchList') {
        if (v !== 'true' && v !== 'false')
          throw new UsageError(
            `--what-if watchList expects true or false, got ${JSON.stringify(v)}`,
          );
        whatIf.watchList = v === 'true';
      } else
        throw new UsageError(
          `--what-if: unknown parameter ${JSON.stringify(k)}; expected profile, watchCacheSize or watchList`,
        );
    }
  }
  if (compare && !whatIf) throw new UsageError('--compare needs --what-if (what to compare with)');
  return { trace, baseline, whatIf, compare };
}

/** The what-if's trace file beside the baseline's: `out.jsonl` -> `out.what-if.jsonl`. */
export function whatIfTracePath(trace: string): string {
  return trace.endsWith('.jsonl')
    ? `${trace.slice(0, -6)}.what-if.jsonl`
    : `${trace}.what-if.jsonl`;
}

async function replayTo(
  requests: readonly ImportedRequest[],
  options: ReplayOptions,
  path: string | undefined,
) {
  let sink: FileLineSink | undefined;
  if (path !== undefined) {
    try {
      sink = new FileLineSink(path);
    } catch (e) {
      throw new UsageError(
        `--trace: cannot write ${JSON.stringify(path)}: ${(e as Error).message}`,
      );
    }
  }
  const writer = sink ? new TraceWriter(sink.line) : undefined;
  try {
    return await replayToModel(requests, options, (line: TraceLine) => {
      if (!writer) return;
      if ('format' in line) writer.header(line);
      else writer.record(line);
    });
  } finally {
    sink?.close();
  }
}

/** LISTs whose latency the replay did not reproduce, said one a line, at most. */
const maxLatencyLines = 3;

/** A replay's summary, as lines a person reads. */
export function replaySummaryLines(label: string, s: ReplaySummary): string[] {
  // The count in replay-count.ts's one wording (the status bar, the Replay tab say the same).
  const out = [
    `Replay (${label}): ${replaySummaryText(s)}`,
    `  by verb: ${plural(s.lists, 'LIST')}, ${plural(s.watches, 'WATCH', { many: 'WATCHes' })}, ${plural(s.writes, 'write')} (${formatCount(s.rebuilt.length)} rebuilt from the log, ${formatCount(s.synthesised.length)} synthesised)`,
  ];
  if (Object.keys(s.disagreementsBy).length)
    out.push(
      `  what differs: ${Object.entries(s.disagreementsBy)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}`,
    );
  // A few of them: each has its row in the Replay tab (and the trace).
  for (const l of s.latencyNotReproduced.slice(0, maxLatencyLines))
    out.push(`  latency not reproduced: ${l.request}: ${l.text}`);
  if (s.latencyNotReproduced.length > maxLatencyLines)
    out.push(`    … and ${formatCount(s.latencyNotReproduced.length - maxLatencyLines)} more`);
  for (const r of s.seeded) {
    out.push(`  seeded ${r.resource}: ${r.text}`);
    for (const m of r.matched ?? []) out.push(`    ${m}`);
  }
  for (const [reason, n] of Object.entries(s.skipped)) out.push(`  not replayed: ${n} × ${reason}`);
  for (const n of s.notes) out.push(`  note: ${n}`);
  return out;
}

/** The comparison as a table: per client, each figure either run has, baseline beside what-if. */
export function comparisonLines(c: RunComparison, width = 100): string[] {
  const rows: Array<Array<string | number>> = [];
  for (const row of [...c.clients, c.total]) {
    for (const f of comparedFigures) {
      const a = row.a[f.key];
      const b = row.b[f.key];
      if (a === 0 && b === 0) continue;
      const change = b - a;
      rows.push([
        row.client,
        f.title,
        a,
        b,
        change === 0 ? '=' : change > 0 ? `+${change}` : `${change}`,
      ]);
    }
  }
  return renderTable(
    {
      title: `Baseline (${c.a}) vs what-if (${c.b})`,
      columns: ['client', 'figure', 'baseline', 'what-if', 'change'],
      rows,
    },
    width,
  );
}

/** Runs the replay (and the what-if) the flags ask for and prints what they found. */
export async function runImportReplay(
  requests: readonly ImportedRequest[],
  files: readonly string[],
  flags: ImportReplayFlags,
  io: CliIo,
): Promise<{ baseline: ReplaySummary; whatIf?: ReplaySummary }> {
  // Before the trace file is created: a refused replay leaves none behind.
  checkReplaySpan(requests);
  const base = await replayTo(requests, { ...flags.baseline, files }, flags.trace);
  io.out(replaySummaryLines(flags.baseline.profile, base.summary).join('\n') + '\n');
  if (flags.trace) io.out(`  trace: ${flags.trace}\n`);
  if (!flags.whatIf) return { baseline: base.summary };
  const whatIfPath = flags.trace ? whatIfTracePath(flags.trace) : undefined;
  const other = await replayTo(requests, { ...flags.whatIf, files }, whatIfPath);
  const label = compareRuns(base.model, other.model);
  io.out(replaySummaryLines(`what-if ${label.b}`, other.summary).join('\n') + '\n');
  if (whatIfPath) io.out(`  trace: ${whatIfPath}\n`);
  if (flags.compare) io.out(comparisonLines(label).join('\n') + '\n');
  return { baseline: base.summary, whatIf: other.summary };
}
