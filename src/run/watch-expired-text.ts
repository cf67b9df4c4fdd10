// No upstream counterpart: the two texts upstream gives a watch's 410 Expired, as a client logs
// them: the watch cache's (cacher/watch_cache.go getAllEventsSinceLocked: `too old resource
// version: 5 (7)`) and the etcd3 store's, for a resource served without a watch cache (events) or a
// compacted etcd watch (etcd3/errors.go interpretWatchError: `The resourceVersion for the provided
// watch is too old.`). The import and the replay read them here, once.

/** Either upstream text of a watch's 410 Expired. */
export const watchExpiredText =
  /too old resource version|The resourceVersion for the provided watch is too old/;
