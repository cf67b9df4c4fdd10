// No upstream counterpart (upstream's dispatchEvent offers every event to every watcher, one by
// one): a run of watchers, consecutive in dispatch order, that all take events in place, only
// counting (in-place-delivery.ts), with one filter. For such watchers an event changes nothing but
// counters, the same for each: the run counts once for all of them and every member reads its
// share when anyone looks. WatcherRuns cuts a watchers map's entries into runs where it can.
import type { CacheWatcher } from './cache-watcher';
import { CachingObject } from './caching-object';
import type { InPlaceDelivery, RunCounts } from './in-place-delivery';
import type { DispatchEntry, EntryGrouping, WatcherRegistration } from './indexed-watchers';
import type { ObjectEncoder } from './object-encoders';
import type { WatchEvent, WatchObject } from './watch';
import type { WatchCacheEvent } from './watch-cache-event';

/** What a run needs from a member (InPlaceDelivery implements it). */
export interface RunMember extends DispatchEntry {
  /** Resource version the member's task skips events at or below (constant while it is live). */
  readonly runTaskResourceVersion: number;
  /** The encoder of the member's client, if it encodes. */
  readonly runEncoder: ObjectEncoder | undefined;
  /** The member's convertToWatchEvent (the same answer for every member: one pure filter). */
  convertToWatchEvent(event: WatchCacheEvent<WatchObject>): WatchEvent | undefined;
  /** Takes its share of the run's counts from here on. */
  joinRun(run: RunCounts, encoderIndex: number): void;
}

/** Runs shorter than this are dispatched watcher by watcher: not worth a run. */
export const minRunLength = 4;

export class WatcherRun<M extends RunMember = RunMember> implements RunCounts, DispatchEntry {
  readonly members: readonly M[];
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

  constructor(members: readonly M[]) {
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

  /** DispatchEntry: the event for every member at once, or else to each member in turn. */
  nonblockingAdd(event: WatchCacheEvent<WatchObject>, blocked: CacheWatcher[]): void {
    if (this.dispatch(event)) return;
    for (const m of this.members) m.nonblockingAdd(event, blocked);
  }

  /**
   * A non-bookmark event for every member at once. False when it cannot be: the run is no longer
   * valid, a member would skip the event (its start RV is not older), each member needs its own
   * copy (no CachingObject), or an event sink wants to hear of every encode.
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
      this.bytes[e] += object.cacheEncodeFor(encoder).length;
      const more = this.membersPerEncoder[e] - 1;
      if (more > 0) object.addHits(encoder.identifier, more);
    }
    this.delivered++;
    this.lastResourceVersion = event.resourceVersion;
    return true;
  }
}

/** Cuts one watchers map's registrations into entries, with runs where enough watchers can make one. */
export class WatcherRuns implements EntryGrouping {
  private runs: WatcherRun<InPlaceDelivery>[] = [];

  entries(registrations: readonly WatcherRegistration[]): DispatchEntry[] {
    for (const run of this.runs) for (const m of run.members) m.leaveRun();
    const entries: DispatchEntry[] = [];
    const runs: WatcherRun<InPlaceDelivery>[] = [];
    let members: InPlaceDelivery[] = [];
    const flush = (): void => {
      if (members.length >= minRunLength) {
        const run = new WatcherRun(members);
        runs.push(run);
        entries.push(run);
      } else for (const m of members) entries.push(m);
      members = [];
    };
    for (const r of registrations) {
      const m = r.inPlace;
      if (m === undefined || !m.runEligible()) {
        flush();
        // A watcher's fast path is its entry: a delivery in place touches nothing else of it.
        entries.push(m ?? r);
        continue;
      }
      if (members.length > 0 && members[0].conversion !== m.conversion) flush();
      members.push(m);
    }
    flush();
    this.runs = runs;
    return entries;
  }
}
