// Mirrors k8s.io/apiserver pkg/storage/cacher/watch_cache.go `watchCacheEvent` (release-1.36).
// Deliberate differences: RecordTime is virtual milliseconds from the injected Clock, and the
// resource version is a JS number (an etcd revision, exact up to 2^53).

/** The watch event types (k8s.io/apimachinery pkg/watch `EventType`) a watch cache handles. */
export type WatchCacheEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';

/** labels.Set / fields.Set: the attributes a selection predicate matches against. */
export type AttrSet = Readonly<Record<string, string>>;

/**
 * A single watch event as the watch cache keeps it. Besides a plain watch.Event it carries the
 * previous value of the object (and its attributes), so that the watchers can turn a MODIFIED
 * event into ADDED/DELETED for their own selector.
 */
export interface WatchCacheEvent<T = unknown> {
  type: WatchCacheEventType;
  /**
   * The object. `undefined` only for the storage BOOKMARK events `updateResourceVersion` hands to
   * the event handler (upstream's nil Object): the cacher counts those and never dispatches them.
   */
  object: T | undefined;
  objLabels: AttrSet;
  objFields: AttrSet;
  prevObject?: T;
  prevObjLabels?: AttrSet;
  prevObjFields?: AttrSet;
  /** The storage key, e.g. `/pods/ns/name`. */
  key: string;
  resourceVersion: number;
  /** Virtual ms (Clock.now()) when the cache processed the event; 0 where upstream leaves it zero. */
  recordTime: number;
}
