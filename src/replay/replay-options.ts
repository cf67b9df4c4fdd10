// No upstream counterpart: what a replay of imported requests is asked (the profile and the
// what-ifs) and what it reports, beside the trace it writes. The header's params carry the same,
// so a run read back from its trace says what it was a replay of.
import type { ImportReport } from '../run/import-report';
import { replayCountText, type SeedingShort } from '../run/views/replay-count';

/** How an import is replayed through the engine. */
export interface ReplayOptions {
  profile: '1.36' | '1.37';
  /**
   * What-if: the watch cache's event history ring fixed at this many events. Upstream sizes it
   * dynamically (--watch-cache-sizes only turns a cache off since 1.19): a what-if, not a flag.
   */
  watchCacheSize?: number;
  /** What-if: every client's LIST (chain) followed by its WATCH becomes one WatchList watch. */
  watchList?: boolean;
  /** This replay is a what-if (another profile, cache size or WatchList than the log's cluster). */
  whatIf?: boolean;
  /** Objects per resource seeded before the first request (`{pods: 5000}`); else inferred from the responses. */
  objects?: Record<string, number>;
  seed: number;
  /** The import's analysis (import-report.ts): written right after the header, for the Import tab. */
  report?: ImportReport;
  /** The files the requests came from, as the user named them (recorded in the header). */
  files?: readonly string[];
  signal?: AbortSignal;
  onProgress?: (fraction: number, message: string) => void;
  /** Awaited between steps of virtual time (RunScenarioOptions.yieldToHost). */
  yieldToHost?: () => Promise<void>;
}

/** Where a resource's object count came from. */
export interface SeededResource {
  resource: string;
  objects: number;
  from: 'given' | 'inferred' | 'named';
  /** How it was inferred, in words. */
  text: string;
  /**
   * Per namespace and filtered LIST selector, how many seeded objects match it, beside the count
   * the log's answers gave when they differ (`app=web in default: 300 match`).
   */
  matched?: string[];
}

export interface ReplaySummary {
  /** Imported requests handed to the replay. */
  requests: number;
  /** Re-issued to the engine (ReplayCount.reissued: the one count every face says). */
  replayed: number;
  /** Of them, those whose answer was compared with the log's (ReplayCount.compared). */
  compared: number;
  lists: number;
  watches: number;
  writes: number;
  /** Writes rebuilt from the object the log carries, and those synthesised (the log has no body): their ids. */
  rebuilt: string[];
  synthesised: string[];
  /** Not re-issued, by reason (`get: not replayed`, `failed in the log (409)`). */
  skipped: Record<string, number>;
  /** Requests without a time in the log: kept in their order after the previous timed one. */
  untimed: number;
  seeded: SeededResource[];
  /** Compared requests whose engine answer differs from the log's (each once), and what differed, counted. */
  disagreements: number;
  disagreementsBy: Record<string, number>;
  /** Disagreeing LISTs whose log answer had more objects than the replay seeded (ReplayCount.seedingShort). */
  seedingShort: SeedingShort[];
  /** The log's faults the replay does not model, by status (ReplayCount.notModelled). */
  notModelled: Record<string, number>;
  /** Why the replay could not re-create some of the log's answers, one per request (ReplayCount.notReproduced). */
  notReproduced: string[];
  /**
   * LISTs whose answer agrees but whose logged latency the replay did not take (LoggedAnswer
   * latencyNotReproduced), with the request (ReplayCount.latencyNotReproduced).
   */
  latencyNotReproduced: Array<{ request: string; loggedMs: number; text: string }>;
  /** LIST+WATCH pairs turned into WatchList watches (the watchList what-if). */
  watchListPairs: number;
  /** What the replay took for granted, in words (every face prints these). */
  notes: string[];
  /** A what-if's settings in words (ReplayCount.whatIf); absent for a replay of the log as it was. */
  whatIf?: string;
}

/** The header params of a replay: the files, the profile and the what-ifs. */
export function replayParams(o: ReplayOptions): Record<string, number | string | boolean> {
  const params: Record<string, number | string | boolean> = {
    files: (o.files ?? []).join(', '),
    profile: o.profile,
  };
  if (o.watchCacheSize !== undefined) params.watchCacheSize = o.watchCacheSize;
  if (o.watchList !== undefined) params.watchList = o.watchList;
  if (o.whatIf) params.whatIf = true;
  for (const [resource, n] of Object.entries(o.objects ?? {}).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  ))
    params[`objects.${resource}`] = n;
  return params;
}

/** The what-ifs a run's header names ('' for a baseline replay). */
export function whatIfText(params: Record<string, number | string | boolean>): string {
  const parts: string[] = [];
  if (params.watchCacheSize !== undefined) parts.push(`watchCacheSize=${params.watchCacheSize}`);
  if (params.watchList !== undefined) parts.push(`watchList=${params.watchList}`);
  return parts.join(',');
}

/**
 * A replay's outcome in words (the import's status bar and log line): the count the Replay tab
 * says (replayCountText), then how many imported requests were not re-issued.
 */
export function replaySummaryText(s: ReplaySummary): string {
  const count = replayCountText({
    reissued: s.replayed,
    compared: s.compared,
    disagreements: s.disagreements,
    seedingShort: s.seedingShort,
    ...(Object.keys(s.notModelled).length ? { notModelled: s.notModelled } : {}),
    ...(s.notReproduced.length ? { notReproduced: s.notReproduced } : {}),
    ...(s.latencyNotReproduced.length
      ? { latencyNotReproduced: s.latencyNotReproduced.map((l) => l.loggedMs) }
      : {}),
    ...(s.whatIf ? { whatIf: s.whatIf } : {}),
  });
  const left = s.requests - s.replayed;
  return left > 0 ? `${count} (${left} of ${s.requests} imported not re-issued)` : count;
}
