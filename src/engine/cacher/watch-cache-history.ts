// Mirrors k8s.io/apiserver pkg/storage/cacher/watch_cache.go (release-1.36): the event history
// ring, its resize rule, capacityUpperBound and the "too old" rule. Master moved this code, with
// the same logic, into watch_cache_history.go; the shape here follows that file.
// Deliberate differences: times and durations are virtual ms; resizes are also reported to an
// event hook.

import type { WatchCacheCapacityChangeEvent } from '../inspect/events';
import type { GroupResource } from '../storage/group-resource';
import { newResourceExpired } from '../storage/errors';
import { defaultBookmarkFrequency } from './bookmark-buckets';
import type { CacherMetrics } from './metrics';
import type { WatchCacheEvent } from './watch-cache-event';
import { newCacheInterval, type WatchCacheInterval } from './watch-cache-interval';

/** A default value for the event cache capacity's lower bound (upstream: "TODO: figure out to what value we can decrease it"). */
export const defaultLowerBoundCapacity = 100;

/** The default upper bound: should be able to keep the required history. */
export const defaultUpperBoundCapacity = 100 * 1024;

/**
 * cacher.go DefaultEventFreshDuration (ms): the minimum history the cache keeps, a bookmark period
 * plus 15s, so that a watcher that got its last bookmark can resume from the cache's history.
 */
export const DefaultEventFreshDuration = defaultBookmarkFrequency + 15_000;

const maxInt32 = 2147483647;

/** Go's time.Duration.Seconds() for a duration given in ms (whole seconds plus the fraction). */
function seconds(ms: number): number {
  const whole = Math.trunc(ms / 1000);
  return whole + (ms - whole * 1000) / 1000;
}

/**
 * capacityUpperBound: the largest capacity the ring may grow to. For windows longer than the
 * default, the default bound scales with the window ratio rounded up to a power of two (the ring
 * only ever doubles), capped so that it fits an int32.
 */
export function capacityUpperBound(eventFreshDuration: number): number {
  if (eventFreshDuration <= DefaultEventFreshDuration) return defaultUpperBoundCapacity;
  let exponent = Math.ceil(
    Math.log2(seconds(eventFreshDuration) / seconds(DefaultEventFreshDuration)),
  );
  // Go divides the untyped constants as integers: MaxInt32/102400 = 20971, log2 = 14.36 -> 14.
  const maxExponent = Math.floor(Math.log2(Math.trunc(maxInt32 / defaultUpperBoundCapacity)));
  if (exponent > maxExponent) exponent = maxExponent;
  return defaultUpperBoundCapacity * 2 ** exponent;
}

export interface WatchCacheHistoryConfig {
  groupResource: GroupResource;
  /** ms; the minimum history to keep (Config.EventsHistoryWindow, >= DefaultEventFreshDuration in a real cacher). */
  eventFreshDuration: number;
  metrics?: CacherMetrics;
  onCapacityChange?: (event: WatchCacheCapacityChangeEvent) => void;
}

/**
 * watchCacheHistory: a sliding window of the latest events, a cyclic buffer whose contents are
 * the absolute indexes [startIndex, endIndex) stored at index % capacity. startIndex and endIndex
 * only grow, so an interval can tell when the ring has overrun it. The capacity doubles when the
 * ring is full of fresh events and halves when even its newest quarter is stale.
 */
export class WatchCacheHistory<T = unknown> {
  /** Maximum size of the history window (the ring's length). */
  capacity = defaultLowerBoundCapacity;
  /** Upper bound of the capacity, since the ring has a dynamic size. */
  upperBoundCapacity: number;
  /** Lower bound of the capacity. */
  lowerBoundCapacity = defaultLowerBoundCapacity;
  cache: (WatchCacheEvent<T> | undefined)[] = new Array<WatchCacheEvent<T> | undefined>(
    defaultLowerBoundCapacity,
  );
  startIndex = 0;
  endIndex = 0;
  /** Whether any event was pushed out of the ring since the last relist (Replace). */
  removedEventSinceRelist = false;
  /** The minimum history the ring keeps (ms). */
  readonly eventFreshDuration: number;
  readonly groupResource: GroupResource;
  private readonly metrics?: CacherMetrics;
  private readonly onCapacityChange?: (event: WatchCacheCapacityChangeEvent) => void;

  constructor(config: WatchCacheHistoryConfig) {
    this.groupResource = config.groupResource;
    this.eventFreshDuration = config.eventFreshDuration;
    this.upperBoundCapacity = capacityUpperBound(config.eventFreshDuration);
    this.onCapacityChange = config.onCapacityChange;
    if (config.metrics) {
      this.metrics = config.metrics;
      this.metrics.watchCacheCapacity.set(
        { group: this.groupResource.group, resource: this.groupResource.resource },
        this.capacity,
      );
    }
  }

  /** Appends an event, first resizing if needed, then dropping the oldest when full. */
  updateCache(event: WatchCacheEvent<T>): void {
    this.resizeCacheLocked(event.recordTime);
    if (this.isCacheFullLocked()) {
      this.startIndex++;
      this.removedEventSinceRelist = true;
    }
    this.cache[this.endIndex % this.capacity] = event;
    this.endIndex++;
  }

  /**
   * resizeCacheLocked: doubles the capacity (up to the upper bound) when the ring is full and all
   * its events are younger than eventFreshDuration; halves it (down to the lower bound) when it is
   * full and even the newest quarter is older, which keeps the ring from flapping.
   */
  resizeCacheLocked(eventTime: number): void {
    if (!this.isCacheFullLocked()) return;
    const oldestAge =
      eventTime - (this.cache[this.startIndex % this.capacity] as WatchCacheEvent<T>).recordTime;
    if (oldestAge < this.eventFreshDuration) {
      const capacity = Math.min(this.capacity * 2, this.upperBoundCapacity);
      if (capacity > this.capacity)
        this.resizeAndReport(capacity, eventTime, 'increase', oldestAge, oldestAge);
      return;
    }
    // Integer division, as Go's capacity/4.
    const quarter = Math.trunc(this.capacity / 4);
    const quarterAge =
      eventTime -
      (this.cache[(this.endIndex - quarter) % this.capacity] as WatchCacheEvent<T>).recordTime;
    if (quarterAge > this.eventFreshDuration) {
      const capacity = Math.max(Math.trunc(this.capacity / 2), this.lowerBoundCapacity);
      if (capacity < this.capacity)
        this.resizeAndReport(capacity, eventTime, 'decrease', oldestAge, quarterAge);
    }
  }

  isCacheFullLocked(): boolean {
    return this.endIndex === this.startIndex + this.capacity;
  }

  /** doCacheResizeLocked: copies the ring into one of the new size; shrinking drops the oldest events. */
  doCacheResizeLocked(capacity: number): void {
    const newCache = new Array<WatchCacheEvent<T> | undefined>(capacity);
    if (capacity < this.capacity) this.startIndex = this.endIndex - capacity;
    for (let i = this.startIndex; i < this.endIndex; i++) {
      newCache[i % capacity] = this.cache[i % this.capacity];
    }
    this.cache = newCache;
    this.metrics?.recordsWatchCacheCapacityChange(this.groupResource, this.capacity, capacity);
    this.capacity = capacity;
  }

  private resizeAndReport(
    capacity: number,
    eventTime: number,
    reason: 'increase' | 'decrease',
    oldestAge: number,
    comparedAge: number,
  ): void {
    const from = this.capacity;
    this.doCacheResizeLocked(capacity);
    this.onCapacityChange?.({
      type: 'watchcache/capacity',
      at: eventTime,
      groupResource: this.groupResource,
      from,
      to: capacity,
      reason,
      oldestEventAgeMs: oldestAge,
      comparedEventAgeMs: comparedAge,
      eventFreshDuration: this.eventFreshDuration,
    });
  }

  /** isIndexValidLocked: whether an absolute index is still in the ring (the intervals' validator). */
  isIndexValidLocked(index: number): boolean {
    return index >= this.startIndex;
  }

  /** resetLocked (Replace/relist): empties the ring; startIndex never decreases, so old intervals become invalid. */
  resetLocked(): void {
    this.startIndex = this.endIndex;
    this.removedEventSinceRelist = false;
    this.cache.fill(undefined);
  }

  /** Number of events held. */
  get size(): number {
    return this.endIndex - this.startIndex;
  }

  /** The resource version of the oldest buffered event (the ring must not be empty). */
  oldestResourceVersionLocked(): number {
    return (this.cache[this.startIndex % this.capacity] as WatchCacheEvent<T>).resourceVersion;
  }

  /** The buffered events, oldest first (for tests and the event sink). */
  events(): WatchCacheEvent<T>[] {
    const out: WatchCacheEvent<T>[] = [];
    for (let i = this.startIndex; i < this.endIndex; i++)
      out.push(this.cache[i % this.capacity] as WatchCacheEvent<T>);
    return out;
  }

  /**
   * getIntervalLocked: the events after `resourceVersion`. The oldest deliverable event is the one
   * after the last list while nothing has been pushed out since, else the oldest buffered one; a
   * request older than that is 410 `too old resource version: rv (oldest-1)`.
   */
  getIntervalLocked(resourceVersion: number, listResourceVersion: number): WatchCacheInterval<T> {
    const size = this.endIndex - this.startIndex;
    let oldest: number;
    if (listResourceVersion > 0 && !this.removedEventSinceRelist) {
      oldest = listResourceVersion + 1;
    } else if (size > 0) {
      oldest = this.oldestResourceVersionLocked();
    } else {
      throw new Error("watch cache isn't correctly initialized");
    }
    // uint64 arithmetic: an oldest RV of 0 (only seen in tests) wraps oldest-1 to 2^64-1.
    if (oldest === 0) {
      throw newResourceExpired(
        `too old resource version: ${resourceVersion} (18446744073709551615)`,
      );
    }
    if (resourceVersion < oldest - 1) {
      throw newResourceExpired(`too old resource version: ${resourceVersion} (${oldest - 1})`);
    }
    // Binary search for the first buffered event with RV > resourceVersion (sort.Search).
    let lo = 0;
    let hi = size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (
        (this.cache[(this.startIndex + mid) % this.capacity] as WatchCacheEvent<T>)
          .resourceVersion > resourceVersion
      )
        hi = mid;
      else lo = mid + 1;
    }
    return newCacheInterval<T>(
      this.startIndex + lo,
      this.endIndex,
      (i) => this.cache[i % this.capacity],
      (i) => this.isIndexValidLocked(i),
      resourceVersion,
    );
  }
}
