// No upstream counterpart but the two metrics: what a cacheWatcher (cache-watcher.ts) reports of
// itself. Upstream logs at most; here a watcher keeps counters a test or a face can read, emits
// typed engine events (their types are in inspect/events.ts), and feeds
// apiserver_terminated_watchers_total and apiserver_init_events_total.
import type {
  BookmarkDropReason,
  CacheWatcherCloseReason,
  CacheWatcherEvent,
  CacheWatcherStateName,
  WatcherTerminationCause,
} from '../inspect/events';
import type { RequestContext } from '../request/request-context';
import type { GroupResource } from '../storage/group-resource';

export type {
  BookmarkDropReason,
  CacheWatcherCloseReason,
  CacheWatcherEvent,
  CacheWatcherStateName,
  WatcherTerminationCause,
};

/** The names of cache_watcher.go's states, for reports and engine events, indexed by state. */
export const cacheWatcherStateNames = [
  'WaitingForBookmark',
  'BookmarkReceived',
  'BookmarkSent',
] as const satisfies readonly CacheWatcherStateName[];

export const bookmarkDropReasons: readonly BookmarkDropReason[] = [
  'belowBookmarkAfterResourceVersion',
  'inputFull',
  'watcherStopped',
  'notNewer',
  'annotateFailed',
];

/** Per-watcher counters. */
export interface CacheWatcherCounts {
  /** Events accepted into the input buffer (nonblockingAdd or add). */
  queued: number;
  /** Events put into the result channel, bookmarks included. */
  delivered: number;
  /** Events the filter rejected (convertToWatchEvent returned nothing). */
  filtered: number;
  /** Non-bookmark input events at or below the RV already sent (process's RV rule). */
  skippedOld: number;
  /** Events dropped because done was closed before they could be sent. */
  droppedStopped: number;
  /** Events served from the interval (apiserver_init_events_total). */
  initEvents: number;
  bookmarksDelivered: number;
  bookmarksDropped: Record<BookmarkDropReason, number>;
  /** 1 once add() terminated the watcher (apiserver_terminated_watchers_total). */
  terminated: number;
}

/**
 * One registered watcher as a face shows it (the server's debug state), read at the moment asked:
 * who asked for it, its bookmark state by upstream's name, the RV last sent, its two buffers.
 */
export interface CacheWatcherReport {
  id: number | string;
  /** The watch request that created the watcher, if the cacher was given it. */
  request: RequestContext | undefined;
  identifier: string;
  state: CacheWatcherStateName;
  /** processInterval's resourceVersion: the RV of the last event or bookmark sent. */
  lastResourceVersion: number;
  input: { len: number; cap: number };
  result: { len: number; cap: number };
  allowWatchBookmarks: boolean;
}

export interface CacheWatcherEventSink {
  readonly listening?: boolean;
  emit(event: CacheWatcherEvent): void;
}

/** The two cacher metrics a watcher feeds (label values = the group-resource). */
export interface CacheWatcherMetrics {
  /** apiserver_terminated_watchers_total{group,resource}.Inc() */
  terminatedWatchersInc(groupResource: GroupResource): void;
  /** apiserver_init_events_total{group,resource}.Add(n) */
  initEventsAdd(groupResource: GroupResource, n: number): void;
}
