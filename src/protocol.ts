// The messages between the extension host and the "List/Watch Inspector" webview (ARCHITECTURE.md
// boundary 5). No upstream counterpart. Imported by both sides; type-only imports keep the engine
// out of the webview bundle. Every message is plain JSON data (structured-cloned by postMessage).
// The run-model types the webview draws are re-exported here: the webview imports this module,
// its own files and src/inspector's shared helpers, nothing else (eslint.config.mjs).
import type { ContinueTokenExplanation } from './engine/storage/explain-continue';
import type { RunModel, VirtualMs, WatcherLogEntry } from './run/run-model';

export type { ContinueTokenExplanation, RunModel, VirtualMs, WatcherLogEntry };
export type {
  CapacityPoint,
  ListRecord,
  SerializationEventRecord,
  SerializationIdentifierTotals,
  WatcherStateName,
  WatcherTrack,
} from './run/run-model';

/**
 * Bumped whenever a message changes shape. The webview announces the version it speaks in `ready`;
 * a host that speaks another one answers `protocol/mismatch` instead of feeding it.
 */
export const protocolVersion = 1;

/** The inspector's tabs, in the order they are shown. */
export const inspectorViews = [
  'watchers',
  'watchCache',
  'serialization',
  'lists',
  'metrics',
] as const;
export type InspectorView = (typeof inspectorViews)[number];

/** Playback speeds the scrubber offers: virtual ms per real ms. */
export const playbackSpeeds = [1, 5, 10, 50, 100] as const;

/**
 * What the webview keeps across hide/show and window reloads (vscode.setState, handed back to the
 * panel serializer). Plain data; the run itself is reloaded by the host from `runId`.
 */
export interface InspectorViewState {
  runId?: string;
  view: InspectorView;
  /** The scrubber's virtual time. */
  at: VirtualMs;
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
  /** 'scenario' (run here), or 'trace' (read from a file). */
  source: 'scenario' | 'trace';
  /** The trace file a 'trace' run was read from. */
  file?: string;
}

/**
 * The model as the panel receives it: every watcher's `log` left out (its `logDropped` then counts
 * the whole log; the log comes with `watcher/log` when the watcher is shown), and the series the
 * panel does not draw (watch requests, bookmark times) dropped. Logs are most of a big run's
 * model (10,000 watchers: 8 of 15 MB), and the panel shows one watcher's log at a time.
 */
export function panelModel(model: RunModel): RunModel {
  const slim: RunModel = {
    ...model,
    watchers: model.watchers.map((w) => ({
      ...w,
      log: [],
      logDropped: w.log.length + w.logDropped,
      bookmarkTimes: undefined,
    })),
  };
  delete slim.watchRequests;
  return slim;
}

/** Host -> webview. */
export type ToWebview =
  /** A run to show; `model` is panelModel(the run's model). */
  | {
      type: 'run/loaded';
      protocolVersion: typeof protocolVersion;
      run: RunIdentity;
      model: RunModel;
    }
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
  /** The answer to `watcher/log`: one watcher's event log (logDropped: entries the run did not keep). */
  | { type: 'watcher/log'; runId: string; id: string; log: WatcherLogEntry[]; logDropped: number }
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
  /** Asks for a watcher's event log (not part of `run/loaded`). */
  | { type: 'watcher/log'; runId: string; id: string }
  | { type: 'token/decode'; requestId: number; token: string }
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
  'watcher/log',
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
    speed: (playbackSpeeds as readonly number[]).includes(v.speed as number)
      ? (v.speed as number)
      : defaultViewState.speed,
    watcherSearch: str(v.watcherSearch, ''),
    watcherStateFilter: str(v.watcherStateFilter, ''),
    metricsSearch: str(v.metricsSearch, ''),
  };
  if (typeof v.runId === 'string') state.runId = v.runId;
  if (typeof v.selectedWatcherId === 'string') state.selectedWatcherId = v.selectedWatcherId;
  if (typeof v.selectedListId === 'string') state.selectedListId = v.selectedListId;
  return state;
}
