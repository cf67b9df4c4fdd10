// Mirrors k8s.io/apiserver pkg/storage/cacher/cacher.go watchersMap and indexedWatchers
// (release-1.36): the registered watchers by namespace/name scope and by trigger value.
// Deliberate differences: Go ranges over a watchersMap in random order, a new one each time; here
// each watcher draws a position at registration from a seeded stream and a map keeps its watchers
// in that order: any order upstream can take, the same for every dispatch (so that watchers that
// take events alike stay neighbours and runs can form), and the same for a seed. A map is an
// array with holes where watchers left, closed up when they are more than half of it; watchers
// added since the last dispatch are merged in by position when it is next read. A watcher's place
// in it is a WatcherRegistration, which also holds what upstream's forgetWatcher closure captures
// (the watcher's number, scope or trigger value). For
// dispatch a map hands out entries (DispatchEntry): its registrations, or, when the cacher gives
// it an EntryGrouping (its fast paths: watcher-run.ts), runs of them that take an event as one.
import type { SeededRandom } from '../rand';
import type { CacheWatcher, WatcherOwner } from './cache-watcher';
import type { InPlaceDelivery } from './in-place-delivery';
import type { WatchObject } from './watch';
import type { WatchCacheEvent } from './watch-cache-event';

/** The namespace/name scope a watcher is indexed under (cacher.go namespacedName). */
export interface WatchScope {
  namespace: string;
  name: string;
}

/** One entry of the dispatch buffer: a watcher, or a run of watchers taking events as one. */
export interface DispatchEntry {
  /**
   * nonblockingAdd of a non-bookmark event for each watcher of the entry; the watchers that could
   * not take it are appended to `blocked`.
   */
  nonblockingAdd(event: WatchCacheEvent<WatchObject>, blocked: CacheWatcher[]): void;
}

/** Makes one map's dispatch entries from its registrations (in their order). */
export interface EntryGrouping {
  entries(registrations: readonly WatcherRegistration[]): DispatchEntry[];
}

/**
 * The dispatch buffer being filled: written by index over the previous contents, so that its
 * backing store is reused (`length = 0` would free it and 10k watchers would regrow it per event).
 * `watchers` counts the watchers of all the entries.
 */
export interface WatcherCollector {
  buf: DispatchEntry[];
  n: number;
  watchers: number;
}

/** What a registration's forget does: the cacher's forgetWatcher. */
export type ForgetRegistered = (r: WatcherRegistration, drainWatcher: boolean) => void;

/** A registered watcher: its place in the index, and (as its owner) its forget. */
export class WatcherRegistration implements DispatchEntry, WatcherOwner {
  /** Its position in its map's array (-1: not registered). */
  slot = -1;

  constructor(
    readonly watcher: CacheWatcher,
    /** The cacher's watcherIdx when it was registered (upstream's map key). */
    readonly number: number,
    /** Its place in the map's order, drawn at registration. */
    readonly position: number,
    /** The map it is in: its trigger value, or its scope's key. */
    readonly key: string,
    readonly byValue: boolean,
    /** Its fast path, when the cacher gave it one. */
    readonly inPlace: InPlaceDelivery | undefined,
    private readonly forget: ForgetRegistered,
  ) {}

  nonblockingAdd(event: WatchCacheEvent<WatchObject>, blocked: CacheWatcher[]): void {
    if (!this.watcher.nonblockingAdd(event)) blocked.push(this.watcher);
  }

  /** WatcherOwner. */
  forgetWatcher(_w: CacheWatcher, drainWatcher: boolean): void {
    this.forget(this, drainWatcher);
  }
}

/** Position order; the number breaks a tie. */
function byPosition(a: WatcherRegistration, b: WatcherRegistration): number {
  return a.position - b.position || a.number - b.number;
}

/** watchersMap: the watchers of one scope or trigger value, in the order of their positions. */
export class WatchersMap {
  /** In position order, with holes. */
  private regs: (WatcherRegistration | undefined)[] = [];
  /** Added since the last merge, in no order. */
  private added: WatcherRegistration[] = [];
  size = 0;
  /** The dispatch entries, made again after a change (undefined). */
  private entries: DispatchEntry[] | undefined = undefined;

  constructor(
    /** Its key in its index (its registrations share this string: one per map, not per watch). */
    readonly key: string,
    private readonly grouping: EntryGrouping | undefined,
  ) {}

  addWatcher(r: WatcherRegistration): void {
    this.added.push(r);
    if (r.inPlace !== undefined) r.inPlace.runHost = this;
    this.size++;
    this.entries = undefined;
  }

  /** False when `r` is not here (already deleted). */
  deleteWatcher(r: WatcherRegistration): boolean {
    if (this.added.length > 0) this.merge();
    const i = r.slot;
    if (this.regs[i] !== r) return false;
    this.regs[i] = undefined;
    r.slot = -1;
    if (r.inPlace !== undefined) {
      r.inPlace.runHost = undefined;
      // Its run no longer speaks for it, but it stays a member until the runs are remade: a
      // watcher forgotten during a dispatch still gets that dispatch's event, one by one.
      r.inPlace.invalidateRun();
    }
    this.size--;
    this.entries = undefined;
    if (this.regs.length > 32 && this.size * 2 < this.regs.length) this.compact();
    return true;
  }

  /** A watcher's in-place state changed: the entries are made again before the next dispatch. */
  runsChanged(): void {
    this.entries = undefined;
  }

  /** Appends the entries to the collector, in the map's order. */
  collectInto(c: WatcherCollector): void {
    if (this.added.length > 0) this.merge();
    let entries = this.entries;
    if (entries === undefined) {
      const live = this.registrations();
      entries = this.entries = this.grouping !== undefined ? this.grouping.entries(live) : live;
    }
    const buf = c.buf;
    let n = c.n;
    for (let i = 0; i < entries.length; i++) buf[n++] = entries[i];
    c.n = n;
    c.watchers += this.size;
  }

  /** The registrations, in the map's order. */
  registrations(): WatcherRegistration[] {
    if (this.added.length > 0) this.merge();
    const out: WatcherRegistration[] = [];
    for (const r of this.regs) if (r !== undefined) out.push(r);
    return out;
  }

  /** Merges the added registrations into the array by position (closing up its holes). */
  private merge(): void {
    const added = this.added.sort(byPosition);
    this.added = [];
    const old = this.regs;
    const regs: WatcherRegistration[] = [];
    let a = 0;
    for (const r of old) {
      if (r === undefined) continue;
      while (a < added.length && byPosition(added[a], r) < 0) regs.push(added[a++]);
      regs.push(r);
    }
    while (a < added.length) regs.push(added[a++]);
    for (let i = 0; i < regs.length; i++) regs[i].slot = i;
    this.regs = regs;
  }

  private compact(): void {
    let j = 0;
    for (const r of this.regs) {
      if (r === undefined) continue;
      r.slot = j;
      this.regs[j++] = r;
    }
    this.regs.length = j;
  }
}

function scopeKey(namespace: string, name: string): string {
  return `${namespace}\u0000${name}`;
}

/**
 * indexedWatchers: watchers by (namespace, name) scope, and, for watches selecting on the indexed
 * trigger field, by its value; an event only goes to the watchers its scope and trigger values name.
 */
export class IndexedWatchers {
  allWatchers = new Map<string, WatchersMap>();
  valueWatchers = new Map<string, WatchersMap>();

  constructor(
    private readonly forget: ForgetRegistered,
    /** Draws each watcher's position in its map (Go's random map order, seeded). */
    private readonly order: SeededRandom,
    /** A grouping per map (the cacher's fast paths), if any. */
    private readonly newGrouping: (() => EntryGrouping) | undefined = undefined,
  ) {}

  /** Adds `w` under its trigger value or its scope; the registration is the watcher's owner. */
  addWatcher(
    w: CacheWatcher,
    number: number,
    scope: WatchScope,
    value: string,
    supported: boolean,
    inPlace: InPlaceDelivery | undefined,
  ): WatcherRegistration {
    const m = supported ? this.valueWatchers : this.allWatchers;
    const key = supported ? value : scopeKey(scope.namespace, scope.name);
    let ws = m.get(key);
    if (ws === undefined) {
      ws = new WatchersMap(key, this.newGrouping?.());
      m.set(key, ws);
    }
    const r = new WatcherRegistration(
      w,
      number,
      this.order.float64(),
      ws.key,
      supported,
      inPlace,
      this.forget,
    );
    ws.addWatcher(r);
    return r;
  }

  deleteWatcher(r: WatcherRegistration): void {
    const m = r.byValue ? this.valueWatchers : this.allWatchers;
    const ws = m.get(r.key);
    if (ws === undefined) return;
    ws.deleteWatcher(r);
    if (ws.size === 0) m.delete(r.key);
  }

  /** Removes every watcher and hands each to `done`; returns how many there were. */
  terminateAll(done: (w: CacheWatcher) => void): number {
    let n = 0;
    for (const m of [this.allWatchers, this.valueWatchers]) {
      for (const ws of m.values()) {
        for (const r of ws.registrations()) {
          n++;
          ws.deleteWatcher(r);
          done(r.watcher);
        }
      }
    }
    this.allWatchers = new Map();
    this.valueWatchers = new Map();
    return n;
  }

  /** Every registered watcher, scoped ones first, each map in its order. */
  watchers(): CacheWatcher[] {
    const out: CacheWatcher[] = [];
    for (const m of [this.allWatchers, this.valueWatchers])
      for (const ws of m.values()) for (const r of ws.registrations()) out.push(r.watcher);
    return out;
  }

  /** Number of registered watchers. */
  get size(): number {
    let n = 0;
    for (const m of [this.allWatchers, this.valueWatchers])
      for (const ws of m.values()) n += ws.size;
    return n;
  }

  /** Adds the watchers of a scope to the collector. */
  collectScopedWatchers(namespace: string, name: string, c: WatcherCollector): void {
    this.allWatchers.get(scopeKey(namespace, name))?.collectInto(c);
  }

  /** Adds the watchers of one trigger value (or, with undefined, of every value) to the collector. */
  collectValueWatchers(value: string | undefined, c: WatcherCollector): void {
    if (value !== undefined) this.valueWatchers.get(value)?.collectInto(c);
    else for (const ws of this.valueWatchers.values()) ws.collectInto(c);
  }
}
