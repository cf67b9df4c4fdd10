// No upstream counterpart: the event sink's per-instant tally of high-rate cacher events (one
// serialization/encode event per object, encoder identifier and instant instead of one per
// delivery; bookmark scheduling per bucket instead of per watcher), emitted at the next clock tick.
// Upstream has neither the events nor their aggregation.
import type { Clock, Timer } from '../clock';
import type { EventSink, SerializationEvent } from '../inspect/events';
import type { GroupResource } from '../storage/group-resource';
import type { EncodeReport } from './caching-object';

/**
 * Per-instant aggregation of high-rate engine events (encodes per delivery, bookmark
 * scheduling per watcher): collected, then emitted once at the next clock tick.
 */
export class EventTally {
  /** Watchers scheduled since the last flush, by bucket: its time and their ids. */
  private scheduled = new Map<number, { bucketTime: number; watcherIds: Array<number | string> }>();
  private scheduledAt = 0;
  private serializations = new Map<string, SerializationEvent>();
  /** Counts the flushes: entries handed out before a flush are no longer collected. */
  generation = 0;
  private flushTimer: Timer | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly eventSink: EventSink,
    private readonly groupResource: GroupResource,
  ) {}

  scheduledWatcher(bucketId: number, bucketTime: number, watcherId: number | string): void {
    if (this.scheduled.size === 0) this.scheduledAt = this.clock.now();
    const bucket = this.scheduled.get(bucketId);
    if (bucket) bucket.watcherIds.push(watcherId);
    else this.scheduled.set(bucketId, { bucketTime, watcherIds: [watcherId] });
    this.ensureFlush();
  }

  /** The collected entry of an event's object for an identifier (made on first use). */
  entry(
    key: string,
    resourceVersion: number,
    eventType: SerializationEvent['eventType'],
    identifier: string,
  ): SerializationEvent {
    const k = `${resourceVersion}\u0000${key}\u0000${eventType}\u0000${identifier}`;
    let entry = this.serializations.get(k);
    if (!entry) {
      entry = {
        type: 'serialization/encode',
        at: this.clock.now(),
        groupResource: this.groupResource,
        key,
        resourceVersion,
        eventType,
        identifier,
        encodes: 0,
        hits: 0,
        errors: 0,
        bytes: 0,
      };
      this.serializations.set(k, entry);
    }
    return entry;
  }

  /** Adds one encode or hit to an entry. */
  count(entry: SerializationEvent, e: EncodeReport): void {
    if (e.hit) entry.hits++;
    else {
      entry.encodes++;
      if (e.error !== undefined) entry.errors++;
    }
    if (e.bytes > 0) entry.bytes = e.bytes;
    this.ensureFlush();
  }

  /** Emits what was collected (also called by the composition root before reading events). */
  flush(): void {
    this.flushTimer?.stop();
    this.flushTimer = undefined;
    if (this.scheduled.size > 0) {
      const buckets = [...this.scheduled.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([bucketId, b]) => ({
          bucketId,
          watchers: b.watcherIds.length,
          bucketTime: b.bucketTime,
          watcherIds: b.watcherIds,
        }));
      this.scheduled.clear();
      this.eventSink.emit({
        type: 'bookmarks/scheduled',
        at: this.scheduledAt,
        groupResource: this.groupResource,
        buckets,
      });
    }
    if (this.serializations.size > 0) {
      const entries = [...this.serializations.values()];
      this.serializations.clear();
      this.generation++;
      for (const e of entries) this.eventSink.emit(e);
    }
  }

  private ensureFlush(): void {
    if (!this.flushTimer) this.flushTimer = this.clock.afterFunc(0, () => this.flush());
  }
}

/**
 * The tally entries of one dispatched event, by identifier: the thousands of hits of a fan-out
 * find theirs without building the tally's key. Entries from before a flush are not reused.
 */
export class EventEncodes {
  private generation = -1;
  private id0: string | undefined = undefined;
  private entry0: SerializationEvent | undefined = undefined;
  private id1: string | undefined = undefined;
  private entry1: SerializationEvent | undefined = undefined;

  constructor(
    private readonly tally: EventTally,
    private readonly key: string,
    private readonly resourceVersion: number,
    private readonly eventType: SerializationEvent['eventType'],
  ) {}

  encoded(e: EncodeReport): void {
    const tally = this.tally;
    if (this.generation !== tally.generation) {
      this.generation = tally.generation;
      this.id0 = this.id1 = undefined;
    }
    let entry: SerializationEvent;
    if (e.identifier === this.id0) entry = this.entry0 as SerializationEvent;
    else if (e.identifier === this.id1) entry = this.entry1 as SerializationEvent;
    else {
      entry = tally.entry(this.key, this.resourceVersion, this.eventType, e.identifier);
      this.id1 = this.id0;
      this.entry1 = this.entry0;
      this.id0 = e.identifier;
      this.entry0 = entry;
    }
    tally.count(entry, e);
  }
}
