// The messages between the extension host and the "List/Watch EventSink" webview (ARCHITECTURE.md
// boundary 5). No upstream counterpart. Imported by both sides; type-only imports keep the engine
// out of the webview bundle. Every message is plain JSON data (structured-cloned by postMessage).
// The run-model types the webview draws are re-exported here: the webview imports this module,
// its own files, src/run/views' shared helpers, the relist rule and src/format, nothing else
// (eslint.config.mjs). On the floors (docs/DEVELOPMENT.md) it is a face: the one the extension
// imports, as the contract between the two.
import type { ReplayCount } from './run/views/replay-count';
import type { ImportReport } from './run/import-report';
import type { ClientReported } from './run/clients-report';
export type {
  ImportedClient,
  ImportedWatch,
  PaginationChain,
  Summary as ImportSummary,
} from './run/import-report';
import type { ContinueTokenExplanation } from './engine';
import type { WatcherPhase } from './run/views/watcher-states';
import type {
  ClientRecord,
  RunComparison,
  RunModel,
  VirtualMs,
  WatchRequestRecord,
  WatcherTrack,
} from './run/run-model';

export type { ClientReported };
export type {
  ClientRecord,
  ContinueTokenExplanation,
  ImportReport,
  RunModel,
  VirtualMs,
  WatchRequestRecord,
  WatcherTrack,
};
export type {
  CapacityPoint,
  HistoryWindowPoint,
  ResourceVersionPoint,
  WatchCacheSeries,
  ClientListChain,
  ClientListCost,
  ClientListRequest,
  ClientRequest,
  ClientWatchEnd,
  ClientWatchRequest,
  ListRecord,
  RunComparison,
  SerializationEventRecord,
  SerializationIdentifierTotals,
  WatcherLogEntry,
  WatcherSample,
  WatcherStateName,
} from './run/run-model';

/**
 * Bumped whenever a message changes shape. The webview announces the version it speaks in `ready`;
 * a host that speaks another one answers `protocol/mismatch` instead of feeding it.
 */
export const protocolVersion = 5;

/** The inspector's tabs, in the order they are shown. */
export const inspectorViews = [
  'watchers',
  'watchCache',
  'serialization',
  'lists',
  'clients',
  'metrics',
  'replay',
  /** Shown only for a run imported from logs (RunModel.imported). */
  'import',
] as const;
export type InspectorView = (typeof inspectorViews)[number];

/**
 * What the webview keeps across hide/show and window reloads (vscode.setState, handed back to the
 * panel serializer). Plain data; the run itself is reloaded by the host from `runId`.
 */
export interface InspectorViewState {
  runId?: string;
  view: InspectorView;
  /** The scrubber's virtual time. */
  at: VirtualMs;
  /** Playback speed (virtual ms per real ms); each run offers its own (timeline-scale.ts), the nearest is taken. */
  speed: number;
  selectedWatcherId?: string;
  selectedListId?: string;
  watcherSearch: string;
  /** '' = every state; otherwise a WatcherStateName, 'closed' or 'notStarted'. */
  watcherStateFilter: string;
  metricsSearch: string;
}

export const defaultViewState: InspectorViewState = {
  view: 'watchers',
  at: 0,
  speed: 10,
  watcherSearch: '',
  watcherStateFilter: '',
  metricsSearch: '',
};

/** Identifies a loaded run in the webview (title and where it came from, for the header). */
export interface RunIdentity {
  id: string;
  title: string;
  /** 'scenario' (run here), 'trace' (read from a file), 'live' (a running local API server's) or 'import' (logs replayed). */
  source: 'scenario' | 'trace' | 'live' | 'import';
  /** The trace file a 'trace' run was read from. */
  file?: string;
  /** The tab that tells the scenario's story, where a new run opens (ScenarioDefinition.storyView). */
  storyView?: InspectorView;
}

/** What the timeline draws without the watchers: the moments to step through and the activity. */
export interface TimelineSummary {
  /** Distinct virtual times something happened, ascending (bounded: see momentsDropped). */
  moments: VirtualMs[];
  /** Things that happened per column of the activity strip (activityColumns of them). */
  activity: number[];
  /** Moments left out (a run with more than maxMoments distinct times keeps an even spread). */
  momentsDropped?: number;
}

/** Columns of the timeline's activity strip. */
export const activityColumns = 240;
/** Moments the panel is sent at most. */
export const maxMoments = 20_000;

/**
 * The run as the panel receives it: everything but the watchers, the watch requests and the
 * clients, which it asks for a page at a time (`watchers/query`, `clients/query`) and one watcher
 * in full (`watcher/detail`). A run of 100,000 watchers costs the panel what one of 1,000 does.
 */
export interface PanelModel extends Omit<RunModel, 'watchers' | 'watchRequests' | 'clients'> {
  watcherCount: number;
  /** Clients (user agent + connection) in the run: the Clients tab asks for them. */
  clientCount: number;
  /** WATCH requests answered with an error (410, 429, 504…): rows of their own in the Watchers tab. */
  failedWatchCount: number;
  timeline: TimelineSummary;
  /** A replayed import's requests, the log's answer beside the engine's (the Replay tab). */
  replay?: ReplayPanel;
}

/** One re-issued request of a replayed import: what the log said, what the engine answered. */
export interface ReplayRow {
  at: VirtualMs;
  kind: 'list' | 'watch';
  client: string;
  request: string;
  /** The log's answer in words (`410 Expired`, `200, 500 items, more`); text from a log, never HTML. */
  logged: string;
  engine: string;
  /** What differs ('status', 'items', 'continue', 'remainingItemCount', 'duration'); empty: they agree. */
  disagrees: string[];
  /**
   * The log's status is a fault or overload the replay does not model (APF's 429, a 5xx), in
   * words (replay-count.ts): neither agreeing nor disagreeing.
   */
  notModelled?: string;
  /**
   * The replay could not re-create the log's answer, and why, in words (`cannot reproduce the
   * log's 410 on the watch at …: the log holds no write …`): neither agreeing nor disagreeing.
   */
  notReproduced?: string;
  /**
   * The answer agrees but the log's latency is not reproduced, in words (`agrees on status and
   * items; the log's latency (3,007 ms, …) is not reproduced: …`, with what it suggests said as
   * an inference): an agreement, never a plain one.
   */
  latencyNotReproduced?: string;
  /** ListRecord.id of a LIST (the Lists tab's row). */
  listId?: string;
}

/** The Replay tab's data: the rows (bounded), the replay's count, and a what-if's comparison. */
export interface ReplayPanel {
  rows: ReplayRow[];
  rowsDropped: number;
  /** Re-issued, compared, disagreeing: the count the import's status bar says too (replay-count.ts). */
  count: ReplayCount;
  comparison?: RunComparison;
}

/** A row's state: a watcher's phase, or a watch request that failed (or was not answered yet). */
export type WatcherRowPhase = WatcherPhase | 'failed';

/** One row of the Watchers tab at the scrubber's time (watcher-at-time.ts's figures). */
export interface WatcherRow {
  /** The watcher's id, or `request-N` for a watch request the server answered with an error. */
  id: string;
  /** True for a watch request answered with an error (no watcher was made). */
  failed: boolean;
  client: string;
  selector: string;
  contentType: string;
  phase: WatcherRowPhase;
  /** The state as the watch's user reads it (watcherPhaseText; upstream's name is `phase`). */
  stateText: string;
  /**
   * The figures at the row's time; each absent when it is not true then (before the watch opened,
   * or in a trace without samples before the watch ended).
   */
  floorRv?: number;
  lastRv?: number;
  received?: number;
  bookmarks?: number;
  bufferFill?: number;
  bufferCapacity: number;
  nextBookmarkSecond?: number;
  /** How it ended by the row's time: the close reason or the error ('' while open or before). */
  outcome: string;
  /**
   * An open watch: when it ends, later in the run. A request sent and not answered yet: when its
   * answer comes. Absent before the watch opened (or the request was sent).
   */
  endsAt?: VirtualMs;
  /** The trace has no samples: the figures are the run's last. */
  endOfRun: boolean;
}

/** How many of a run's watchers were open at a moment, not opened yet, and ended by then. */
export interface WatchersAtTime {
  open: number;
  later: number;
  ended: number;
}

/** Columns the Watchers tab sorts by (on the host, at the scrubber's time). */
export const watcherSortColumns = [
  'id',
  'client',
  'selector',
  'contentType',
  'state',
  'floor',
  'lastRv',
  'received',
  'buffer',
  'nextBookmark',
  'outcome',
] as const;
export type WatcherSortColumn = (typeof watcherSortColumns)[number];

export interface WatcherQuery {
  /** Matched against id, client, selector, content type and outcome ('' = every row). */
  search: string;
  /** '' = every state; a WatcherRowPhase otherwise (at the query's time). */
  state: string;
  sort?: { column: WatcherSortColumn; descending: boolean };
}

/** Rows one `watchers/rows` answer carries at most. */
export const maxWatcherRows = 200;

/** Clients one `clients/rows` answer carries at most (the most eventful first). */
export const maxClientRows = 200;

/** Host -> webview. */
export type ToWebview =
  /** A run to show (its watchers come by `watchers/query`). */
  | {
      type: 'run/loaded';
      protocolVersion: typeof protocolVersion;
      run: RunIdentity;
      model: PanelModel;
    }
  /**
   * The open live run grew (a batch, at most every ~250 ms): the whole panel model as it stands
   * now. The webview keeps its time (or follows the end), its selections and its filters.
   */
  | { type: 'run/update'; runId: string; model: PanelModel }
  /** The open live run is at `at` now and nothing happened since its last update: its end moves. */
  | { type: 'run/now'; runId: string; at: VirtualMs }
  /** No run is open (the panel shows how to get one). */
  | { type: 'run/none'; protocolVersion: typeof protocolVersion }
  /** A long operation (a scenario run, reading a trace) is under way; fraction 1 or `done` ends it. */
  | { type: 'run/progress'; fraction: number; message: string; done: boolean }
  /** Move the scrubber (e.g. from a test, or after restoring state). */
  | { type: 'timeline/seek'; at: VirtualMs }
  /** Select a watcher and show it (e.g. clicked in the Watchers side view). */
  | { type: 'watcher/select'; id: string }
  /** Show a tab. */
  | { type: 'view/show'; view: InspectorView }
  /** The answer to `watchers/query`: rows [from, from + rows.length) of the matching ones at `at`. */
  | {
      type: 'watchers/rows';
      runId: string;
      requestId: number;
      at: VirtualMs;
      /** Rows in the run (watchers and failed watch requests) and how many match the query. */
      total: number;
      matching: number;
      from: number;
      rows: WatcherRow[];
      /** Where the query's `reveal` row stands among the matching ones (-1: it does not match). */
      revealIndex?: number;
      /** The run's watchers at `at`, whatever the query: open, not opened yet, ended. */
      watchersAt: WatchersAtTime;
    }
  /** The answer to `watcher/detail`: the whole track (samples and log), or the failed request. */
  | {
      type: 'watcher/detail';
      runId: string;
      id: string;
      track?: WatcherTrack;
      request?: WatchRequestRecord;
    }
  /**
   * The answer to `clients/query`: the matching clients, the most eventful first (410s, relists,
   * restarts, then requests; by the end of the run), at most maxClientRows of them.
   */
  | {
      type: 'clients/rows';
      runId: string;
      requestId: number;
      total: number;
      matching: number;
      clients: ClientRecord[];
      /**
       * A live run's clients report figures for the clients sent (run/clients-report.ts), by
       * client id: answers by code, bytes, WatchList syncs, and each fault with its recovery.
       */
      reported?: Record<string, ClientReported>;
    }
  /** The answer to `token/decode`: explainContinueToken's result, for the request it answers. */
  | { type: 'token/explained'; requestId: number; explanation: ContinueTokenExplanation }
  /** The answer to `metrics/copy`. */
  | { type: 'metrics/copied'; ok: boolean; message: string }
  /** The view state VS Code restored after a reload (wins over defaults). */
  | { type: 'state/restore'; state: InspectorViewState }
  | { type: 'protocol/mismatch'; hostVersion: number; webviewVersion: number };

/** Webview -> host. */
export type FromWebview =
  | { type: 'ready'; protocolVersion: number }
  | { type: 'timeline/seek'; at: VirtualMs }
  | { type: 'watcher/select'; id: string }
  /** Asks for `count` rows from `from` of the rows matching `query`, as they stood at `at`. */
  | {
      type: 'watchers/query';
      runId: string;
      requestId: number;
      at: VirtualMs;
      query: WatcherQuery;
      from: number;
      count: number;
      /** A row id whose index among the matching rows the answer should say (to scroll to it). */
      reveal?: string;
    }
  /** Asks for one row in full: its track (samples, event log) or its failed request. */
  | { type: 'watcher/detail'; runId: string; id: string }
  /** Asks for the clients whose name or connection contains `search` ('' = every client). */
  | { type: 'clients/query'; runId: string; requestId: number; search: string }
  /**
   * Asks for a token's explanation; `list` names the LIST that returned it (the key prefix is that
   * LIST's), absent for a token of no LIST (the listwatch.keyPrefix setting is assumed).
   */
  | {
      type: 'token/decode';
      requestId: number;
      token: string;
      list?: { runId: string; id: string };
    }
  | { type: 'metrics/copy' }
  /** The webview saved its state (vscode.setState); the host mirrors it for tests and the side views. */
  | { type: 'state/changed'; state: InspectorViewState }
  /** A button in the panel asks for a palette command (Run Scenario…, Open Trace…). */
  | { type: 'command/run'; command: 'runScenario' | 'openTrace' | 'exportMetrics' }
  /** Something went wrong in the webview, or the browser refused something (CSP): reported, never hidden. */
  | { type: 'webview/problem'; kind: 'error' | 'csp'; message: string };

export type ToWebviewType = ToWebview['type'];
export type FromWebviewType = FromWebview['type'];

/** For the `default:` branch of an exhaustive switch: a new message type fails to compile there. */
export function unhandledMessage(message: never): never {
  throw new Error(`unhandled inspector message ${JSON.stringify(message)}`);
}

const fromWebviewTypes: ReadonlySet<string> = new Set<FromWebviewType>([
  'ready',
  'timeline/seek',
  'watcher/select',
  'watchers/query',
  'watcher/detail',
  'clients/query',
  'token/decode',
  'metrics/copy',
  'state/changed',
  'command/run',
  'webview/problem',
]);

/**
 * Whether a value the webview posted has a known `type` (the host checks before its switch: a
 * webview is a browser page and anything may arrive).
 */
export function isFromWebview(value: unknown): value is FromWebview {
  return (
    !!value &&
    typeof value === 'object' &&
    typeof (value as { type?: unknown }).type === 'string' &&
    fromWebviewTypes.has((value as { type: string }).type)
  );
}

/** A view state read back from storage, with anything missing or malformed replaced by defaults. */
export function normalizeViewState(value: unknown): InspectorViewState {
  const v = (value && typeof value === 'object' ? value : {}) as Partial<
    Record<keyof InspectorViewState, unknown>
  >;
  const str = (x: unknown, d: string) => (typeof x === 'string' ? x : d);
  const num = (x: unknown, d: number) => (typeof x === 'number' && Number.isFinite(x) ? x : d);
  const state: InspectorViewState = {
    view: (inspectorViews as readonly string[]).includes(v.view as string)
      ? (v.view as InspectorView)
      : defaultViewState.view,
    at: Math.max(0, num(v.at, 0)),
    speed: num(v.speed, 0) > 0 ? num(v.speed, 0) : defaultViewState.speed,
    watcherSearch: str(v.watcherSearch, ''),
    watcherStateFilter: str(v.watcherStateFilter, ''),
    metricsSearch: str(v.metricsSearch, ''),
  };
  if (typeof v.runId === 'string') state.runId = v.runId;
  if (typeof v.selectedWatcherId === 'string') state.selectedWatcherId = v.selectedWatcherId;
  if (typeof v.selectedListId === 'string') state.selectedListId = v.selectedListId;
  return state;
}
