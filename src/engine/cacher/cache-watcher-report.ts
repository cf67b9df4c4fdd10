// No upstream counterpart but the two metrics: what a cacheWatcher (cache-watcher.ts) reports of
// itself. Upstream logs at most; here a watcher keeps counters a test or a face can read, emits
// typed inspector events (appended to inspect/events.ts InspectorEvent), and feeds
// apiserver_terminated_watchers_total and apiserver_init_events_total.
import type { GroupResource } from '../storage/group-resource';

/** The names of cache_watcher.go's states, for reports and inspector events, indexed by state. */
export const cacheWatcherStateNames = [
  'WaitingForBookmark',
  'BookmarkReceived',
  'BookmarkSent',
] as const;
export type CacheWatcherStateName = (typeof cacheWatcherStateNames)[number];

/** Why a bookmark did not reach the client. */
export type BookmarkDropReason =
  /** nonblockingAdd: RV below bookmarkAfterResourceVersion (keeps a waiting watcher's buffer clean). */
  | 'belowBookmarkAfterResourceVersion'
  /** nonblockingAdd: the input buffer was full (bookmarks never block or terminate a watcher). */
  | 'inputFull'
  /** The watcher was stopped (input closed, or done closed before the send). */
  | 'watcherStopped'
  /** process: RV not newer than what the watcher already sent (and not the awaited one). */
  | 'notNewer'
  /** The initial-events-end annotation could not be set (the object has no metadata). */
  | 'annotateFailed';

export const bookmarkDropReasons: readonly BookmarkDropReason[] = [
  'belowBookmarkAfterResourceVersion',
  'inputFull',
  'watcherStopped',
  'notNewer',
  'annotateFailed',
];

/** Why processInterval ended (and closed the result channel). */
export type CacheWatcherCloseReason =
  /** The input channel was closed and drained: the watcher was stopped. */
  | 'inputClosed'
  /** The request context ended (the watch's timeout). */
  | 'contextDone'
  /** The interval was overrun by the history ring: closed silently, no ERROR event. */
  | 'intervalInvalidated';

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

/** Typed inspector events of a watcher (members of inspect/events.ts InspectorEvent). */
export type CacheWatcherInspectorEvent =
  | {
      type: 'watcher/created';
      at: number;
      watcherId: number | string;
      groupResource: GroupResource;
      identifier: string;
      chanSize: number;
      /** null: no deadline (Go's zero time). */
      deadline: number | null;
      allowWatchBookmarks: boolean;
    }
  | {
      type: 'watcher/state';
      at: number;
      watcherId: number | string;
      from: CacheWatcherStateName;
      to: CacheWatcherStateName;
      bookmarkAfterResourceVersion: number;
      /** RV of the bookmark that caused the change (absent for setBookmarkAfterResourceVersion). */
      resourceVersion?: number;
    }
  | {
      type: 'watcher/bookmark';
      at: number;
      watcherId: number | string;
      resourceVersion: number;
      /** queued: into the input buffer; delivered: into the result channel; dropped: see reason. */
      outcome: 'queued' | 'delivered' | 'dropped';
      reason?: BookmarkDropReason;
      /** Carries the k8s.io/initial-events-end annotation (only for `delivered`). */
      initialEventsEnd?: boolean;
    }
  | {
      type: 'watcher/terminated';
      at: number;
      watcherId: number | string;
      groupResource: GroupResource;
      /** Graceful: the awaited bookmark is buffered, so the input is drained before closing. */
      graceful: boolean;
      inputLen: number;
      resultLen: number;
    }
  | {
      type: 'watcher/stopped';
      at: number;
      watcherId: number | string;
      drainInputBuffer: boolean;
      inputLen: number;
    }
  | {
      type: 'watcher/live';
      at: number;
      watcherId: number | string;
      initEvents: number;
      resourceVersion: number;
    }
  | {
      type: 'watcher/closed';
      at: number;
      watcherId: number | string;
      reason: CacheWatcherCloseReason;
      delivered: number;
      error?: string;
    };

export interface CacheWatcherInspector {
  readonly listening?: boolean;
  emit(event: CacheWatcherInspectorEvent): void;
}

/** The two cacher metrics a watcher feeds (label values = the group-resource). */
export interface CacheWatcherMetrics {
  /** apiserver_terminated_watchers_total{group,resource}.Inc() */
  terminatedWatchersInc(groupResource: GroupResource): void;
  /** apiserver_init_events_total{group,resource}.Add(n) */
  initEventsAdd(groupResource: GroupResource, n: number): void;
}
