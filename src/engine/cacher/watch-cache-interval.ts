// Mirrors k8s.io/apiserver pkg/storage/cacher/watch_cache_interval.go (release-1.36).
// Deliberate differences: no lock (the engine is single-threaded and Next() is synchronous);
// Next() throws CacheIntervalInvalidatedError where upstream returns an error; the buffer drops
// each reference as it hands the event out (as master does) so aged-out events can be collected.

import type { WatchCacheEvent } from './watch-cache-event';
import type { WatchCacheStore } from './watch-cache-store';

/** How many events an interval copies out of the watch cache at a time (per lock acquisition upstream). */
export const bufferSize = 100;

/** Returns the event at an absolute index of the source (the history ring uses it modulo capacity). */
export type IndexerFunc<T> = (index: number) => WatchCacheEvent<T> | undefined;

/** Whether an absolute index is still held by the source (index >= the ring's startIndex). */
export type IndexValidator = (index: number) => boolean;

/** The interval's source dropped events it had not copied yet: the watch must be closed. */
export class CacheIntervalInvalidatedError extends Error {
  readonly intervalStartIndex: number;

  constructor(intervalStartIndex: number) {
    super(`cache interval invalidated, interval startIndex: ${intervalStartIndex}`);
    this.name = 'CacheIntervalInvalidatedError';
    this.intervalStartIndex = intervalStartIndex;
  }
}

/** watchCacheIntervalBuffer: the events copied out of the source, handed out one by one. */
export class WatchCacheIntervalBuffer<T = unknown> {
  buffer: (WatchCacheEvent<T> | undefined)[];
  startIndex: number;
  endIndex: number;

  constructor(buffer: (WatchCacheEvent<T> | undefined)[] = [], startIndex = 0, endIndex = 0) {
    this.buffer = buffer;
    this.startIndex = startIndex;
    this.endIndex = endIndex;
  }

  /** The next buffered event, or undefined when the buffer is empty. */
  next(): WatchCacheEvent<T> | undefined {
    if (this.isEmpty()) return undefined;
    const next = this.buffer[this.startIndex];
    // Drop the reference: a long-lived watcher must not keep events the cache has aged out.
    this.buffer[this.startIndex] = undefined;
    this.startIndex++;
    return next;
  }

  isFull(): boolean {
    return this.endIndex >= bufferSize;
  }

  isEmpty(): boolean {
    return this.startIndex === this.endIndex;
  }
}

/**
 * watchCacheInterval: a window [startIndex, endIndex) over a source of events (the history ring,
 * or a list of the store for rv=0 / initial events), served by next(). It copies events lazily,
 * bufferSize at a time, so it is valid only while the ring still holds its startIndex; once the
 * ring has overrun it, next() throws and the watcher closes the watch.
 */
export class WatchCacheInterval<T = unknown> {
  /** Absolute index of the next event to copy from the source. */
  startIndex: number;
  /** Absolute end (exclusive) of the interval, fixed at creation. */
  endIndex: number;
  readonly buffer: WatchCacheIntervalBuffer<T>;
  /** The resource version the interval was built from (watchers start at max(their rv, this)). */
  readonly resourceVersion: number;
  /** Sent after every event of the interval (1.32+: the `initial-events-end` bookmark), set by the cacher. */
  initialEventsEndBookmark?: WatchCacheEvent<T>;
  private readonly indexer: IndexerFunc<T>;
  private readonly indexValidator: IndexValidator;

  constructor(
    startIndex: number,
    endIndex: number,
    indexer: IndexerFunc<T>,
    indexValidator: IndexValidator,
    resourceVersion: number,
    buffer: WatchCacheIntervalBuffer<T> = new WatchCacheIntervalBuffer<T>(
      new Array<WatchCacheEvent<T> | undefined>(bufferSize),
    ),
  ) {
    this.startIndex = startIndex;
    this.endIndex = endIndex;
    this.indexer = indexer;
    this.indexValidator = indexValidator;
    this.resourceVersion = resourceVersion;
    this.buffer = buffer;
  }

  /**
   * The next event, or undefined at the end of the interval. Throws CacheIntervalInvalidatedError
   * when events it still has to copy were already dropped from the source.
   */
  next(): WatchCacheEvent<T> | undefined {
    const buffered = this.buffer.next();
    if (buffered) return buffered;
    if (this.startIndex >= this.endIndex) return undefined;
    if (!this.indexValidator(this.startIndex)) {
      throw new CacheIntervalInvalidatedError(this.startIndex);
    }
    this.fillBuffer();
    return this.buffer.next();
  }

  /** Copies up to bufferSize events from the source, stopping early at a missing one. */
  fillBuffer(): void {
    const b = this.buffer;
    b.startIndex = 0;
    b.endIndex = 0;
    while (this.startIndex < this.endIndex && !b.isFull()) {
      const event = this.indexer(this.startIndex);
      if (!event) break;
      b.buffer[b.endIndex] = event;
      b.endIndex++;
      this.startIndex++;
    }
  }
}

/** newCacheInterval. */
export function newCacheInterval<T>(
  startIndex: number,
  endIndex: number,
  indexer: IndexerFunc<T>,
  indexValidator: IndexValidator,
  resourceVersion: number,
): WatchCacheInterval<T> {
  return new WatchCacheInterval(startIndex, endIndex, indexer, indexValidator, resourceVersion);
}

/**
 * newCacheIntervalFromStore: the rv=0 / initial-events case. Every object in the store (or just
 * `key` when the request matches a single object) becomes an ADDED event carrying the interval's
 * resource version (the cache's current RV, not the object's), sorted by key, all buffered at
 * once; startIndex = endIndex = 0 since nothing is left to copy.
 */
export function newCacheIntervalFromStore<T>(
  resourceVersion: number,
  store: Pick<WatchCacheStore<T>, 'getByKey' | 'list'>,
  key: string,
  matchesSingle: boolean,
): WatchCacheInterval<T> {
  let allItems;
  if (matchesSingle) {
    const item = store.getByKey(key);
    allItems = item ? [item] : [];
  } else {
    // Already ordered by key (Go byte order): upstream sorts a hash-ordered List() here.
    allItems = store.list();
  }
  const events: (WatchCacheEvent<T> | undefined)[] = allItems.map((elem) => ({
    type: 'ADDED',
    object: elem.object,
    objLabels: elem.labels,
    objFields: elem.fields,
    key: elem.key,
    resourceVersion,
    recordTime: 0,
  }));
  const buffer = new WatchCacheIntervalBuffer<T>(events, 0, events.length);
  return new WatchCacheInterval<T>(
    0,
    0,
    () => undefined,
    () => true,
    resourceVersion,
    buffer,
  );
}
