// No upstream counterpart (upstream deep-copies a bookmark for every watcher it reaches): one copy
// of a dispatched heartbeat bookmark for every watcher that sends it unannotated (clients treat
// what they receive as read-only, as they do the CachingObject every watcher of an event shares).
// One per cacher, given to its watchers with its fast paths; a new bookmark gets a new copy.
import type { KubeObject } from '../storage/objects';
import { deepCopyJSON } from './caching-object';
import type { WatchEvent, WatchObject } from './watch';
import type { WatchCacheEvent } from './watch-cache-event';

export class HeartbeatCopy {
  private event: WatchCacheEvent<WatchObject> | undefined = undefined;
  private watchEvent: WatchEvent | undefined = undefined;

  /** The BOOKMARK watch event of `event`, whose object is plain: made by the first to ask. */
  of(event: WatchCacheEvent<WatchObject>): WatchEvent {
    if (this.event !== event || this.watchEvent === undefined) {
      this.event = event;
      this.watchEvent = { type: 'BOOKMARK', object: deepCopyJSON(event.object as KubeObject) };
    }
    return this.watchEvent;
  }
}
