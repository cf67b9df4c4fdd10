// Mirrors k8s.io/apimachinery pkg/watch/watch.go (watch.Interface, watch.Event, watch.EventType)
// as the cacher hands them out. Deliberate difference: an event's object is a plain object or the
// CachingObject the dispatcher wrapped it in (upstream's runtime.Object covers both).
import type { KubeObject } from '../storage/objects';
import type { CachingObject } from './caching-object';
import type { Channel } from './channel';

/** What a watcher holds and hands out: plain objects, or the CachingObjects the dispatcher wraps. */
export type WatchObject = KubeObject | CachingObject;

/** watch.EventType. ERROR only comes from error watchers (a Status object). */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** watch.Event: what a client reads from the result channel. */
export interface WatchEvent {
  type: WatchEventType;
  object: WatchObject;
}

/** The receive side of a channel (Go's `<-chan T`). */
export type ReceiveChannel<T> = Pick<
  Channel<T>,
  'capacity' | 'len' | 'closed' | 'tryRecv' | 'waitRecv' | 'recv'
>;

/** watch.Interface. */
export interface WatchInterface {
  resultChan(): ReceiveChannel<WatchEvent>;
  stop(): void;
}
