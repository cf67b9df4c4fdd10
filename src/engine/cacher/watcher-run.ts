// No upstream counterpart (upstream's dispatchEvent offers every event to every watcher, one by
// one): a run of watchers, consecutive in dispatch order, that all take events in place with
// counts only (CacheWatcher.addToParkedTask with a DirectWriter that needs nothing but counting)
// and share one pure filter. For such watchers an event changes nothing but counters, the same for
// each: the run counts once for all of them and every member reads its share when anyone looks.
import { CachingObject } from './caching-object';
import type { ObjectEncoder } from './object-encoders';
import type { WatchCacheEvent } from './watch-cache-event';
import type { WatchEvent, WatchObject } from './cache-watcher';

/** What a run needs from a member (CacheWatcher implements it). */
export interface RunMember {
  /** Resource version the member's task skips events at or below (constant while it is live). */
  readonly runTaskResourceVersion: number;
  /** The encoder of the member's client, if it encodes. */
  readonly runEncoder: ObjectEncoder | undefined;
  /** The member's convertToWatchEvent (the same answer for every member: one pure filter). */
  convertToWatchEvent(event: WatchCacheEvent<WatchObject>): WatchEvent | undefined;
  /** Takes its share of the run's counts from here on (RunMember.leaveRun hands them back). */
  joinRun(run: WatcherRun, encoderIndex: number): void;
}

/** Runs shorter than this are dispatched watcher by watcher: not worth a run. */
export const minRunLength = 4;

export class WatcherRun {
  readonly members: readonly RunMember[];
  /** The members' encoders, distinct, in the order they first appear (the order encodes happen in). */
  readonly encoders: ObjectEncoder[] = [];
  /** Members per encoder. */
  readonly membersPerEncoder: number[] = [];
  /** No member skips an event newer than this. */
  readonly maxTaskResourceVersion: number;
  /** Events every member got (queued and delivered), and filtered out (queued and filtered). */
  delivered = 0;
  filtered = 0;
  /** The resourceVersion of the last event delivered. */
  lastResourceVersion = 0;
  /** Bytes every member of an encoder got, by encoder index. */
  readonly bytes: number[] = [];
  /**
   * False once a member's state changed (its client un-parked, its task woke, it was removed): the
   * members then take events one by one until the index entry makes its runs again.
   */
  valid = true;

  constructor(members: readonly RunMember[]) {
    this.members = members;
    let maxRV = 0;
    for (const m of members) {
      if (m.runTaskResourceVersion > maxRV) maxRV = m.runTaskResourceVersion;
      const encoder = m.runEncoder;
      let e = -1;
      if (encoder !== undefined) {
        e = this.encoders.indexOf(encoder);
        if (e < 0) {
          e = this.encoders.length;
          this.encoders.push(encoder);
          this.membersPerEncoder.push(0);
          this.bytes.push(0);
        }
        this.membersPerEncoder[e]++;
      }
      m.joinRun(this, e);
    }
    this.maxTaskResourceVersion = maxRV;
  }

  /**
   * A non-bookmark event for every member at once. False when it cannot be: the run is no longer
   * valid, a member would skip the event (its start RV is not older), each member needs its own
   * copy (no CachingObject), or an inspector wants to hear of every encode; then the caller offers
   * the event to the members one by one (their own in-place path).
   */
  dispatch(event: WatchCacheEvent<WatchObject>): boolean {
    if (!this.valid || !(event.resourceVersion > this.maxTaskResourceVersion)) return false;
    const watchEvent = this.members[0].convertToWatchEvent(event);
    if (watchEvent === undefined) {
      this.filtered++;
      return true;
    }
    const object = watchEvent.object;
    if (!(object instanceof CachingObject) || !object.quiet) return false;
    // As the members would, in order: the first of each encoder encodes (or hits), the rest hit.
    // (The engine's encoders cannot fail on objects that came from etcd, so no member is left
    // half-served by an encode error.)
    for (let e = 0; e < this.encoders.length; e++) {
      const encoder = this.encoders[e];
      this.bytes[e] += object.encodedLengthFor(encoder);
      const more = this.membersPerEncoder[e] - 1;
      if (more > 0) object.addHits(encoder.identifier, more);
    }
    this.delivered++;
    this.lastResourceVersion = event.resourceVersion;
    return true;
  }
}
