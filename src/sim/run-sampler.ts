// No upstream counterpart: what a scenario run records so that every figure the faces show can be
// read at any moment of virtual time, not only at the end. At the end of each virtual instant
// (FakeClock.onInstantEnd) it notes every watcher whose client-side figures changed there (events
// and bookmarks read, newest RV, input buffer fill, bookmark bucket) as one `watchers` record, and
// at the last instant of each virtual second it scrapes the metrics that changed (a `scrape`
// record), as Prometheus would. Watchers with the same change at an instant share one entry, their
// ids as ranges, so 100,000 watchers that each read a bookmark cost one line.
import { type OpenedWatch, type Resource, changedSamples } from '../engine';
import type { TraceRecord, WatcherSampleGroup } from '../run/trace/trace-format';

/** What the sampler reads of a client's watch (scenario-run.ts ClientWatch). */
export interface ClientWatch {
  opened: OpenedWatch | undefined;
  resource: Resource;
}

/** Record types that can change any watcher's figures at their instant. */
const watcherEventTypes = new Set([
  'cacher/dispatch',
  'cacher/bookmark-tick',
  'cacher/terminate-all',
  'bookmarks/scheduled',
  'bookmarks/bucket-popped',
]);
/** Of those, the ones that move watchers between bookmark buckets. */
const bucketEventTypes = new Set([
  'bookmarks/scheduled',
  'bookmarks/bucket-popped',
  'cacher/bookmark-tick',
  'cacher/terminate-all',
  'watcher/created',
  'watcher/closed',
  'watcher/stopped',
]);

interface Last {
  received: number;
  lastRv: number;
  bufferFill: number;
  next: number | null;
}

/** Watcher ids (ascending) as single ids and inclusive [first, last] ranges. */
export function idRanges(ids: number[]): Array<number | [number, number]> {
  const out: Array<number | [number, number]> = [];
  let i = 0;
  while (i < ids.length) {
    let j = i;
    while (j + 1 < ids.length && ids[j + 1] === ids[j] + 1) j++;
    out.push(j === i ? ids[i] : [ids[i], ids[j]]);
    i = j + 1;
  }
  return out;
}

export class RunSampler {
  private readonly last = new Map<ClientWatch, Last>();
  /** Something at this instant may have changed every watcher. */
  private allDirty = false;
  private bucketsDirty = true;
  /** Something was recorded since the last scrape. */
  private activity = false;
  private lastScrape: Record<string, number> = {};
  private bucketOf = new Map<Resource, Map<number, number>>();
  /** Clients that read on their own timers (slow or stalled): their figures may move at any instant. */
  private own: ClientWatch[] = [];
  /** How many of `watches` were sorted into `own` (watches only grow; a read-rate change resorts all). */
  private sorted = 0;

  constructor(
    private readonly watches: readonly ClientWatch[],
    private readonly resources: readonly Resource[],
    private readonly emit: (r: TraceRecord) => void,
  ) {}

  /** Every record of the run passes here first: it says what the instant touched. */
  note(r: TraceRecord): void {
    this.activity = true;
    if (r.kind === 'event') {
      const type = r.event.type;
      if (watcherEventTypes.has(type) || type.startsWith('watcher/')) this.allDirty = true;
      if (bucketEventTypes.has(type)) this.bucketsDirty = true;
    } else if (r.kind === 'input') {
      if (r.action === 'watch-opened' || r.action === 'watch-closed' || r.action === 'read-rate')
        this.allDirty = true;
      if (r.action === 'read-rate') {
        this.own = [];
        this.sorted = 0;
      }
    }
  }

  /** The instant `at` is over; `next` is when time goes on (the scrape boundary test). */
  instantEnded(at: number, next: number): void {
    this.sampleWatchers(at);
    if (this.activity && Math.floor(next / 1000) > Math.floor(at / 1000)) {
      this.scrape(at);
      this.activity = false;
    }
  }

  /** The run's last instant (no time follows it): its watcher figures and a last scrape. */
  finish(at: number): void {
    this.allDirty = true;
    this.bucketsDirty = true;
    this.sampleWatchers(at);
    if (this.activity) this.scrape(at);
    this.activity = false;
  }

  private sampleWatchers(at: number): void {
    const all = this.allDirty;
    this.allDirty = false;
    if (this.bucketsDirty) {
      this.bucketsDirty = false;
      this.bucketOf = new Map();
    }
    for (; this.sorted < this.watches.length; this.sorted++) {
      const w = this.watches[this.sorted];
      if (w.opened && w.opened.client.readRate.kind !== 'fast') this.own.push(w);
    }
    const groups = new Map<string, { ids: number[]; group: Omit<WatcherSampleGroup, 'ids'> }>();
    for (const w of all ? this.watches : this.own) {
      const o = w.opened;
      if (!o || o.watcherId === undefined) continue;
      const id = Number(o.watcherId);
      const watcher = o.watcher as { input?: { len(): number } };
      const now: Last = {
        received: o.client.received,
        lastRv: o.client.lastResourceVersion,
        bufferFill: watcher.input ? watcher.input.len() : 0,
        next: o.client.closed ? null : (this.buckets(w.resource).get(id) ?? null),
      };
      const before = this.last.get(w) ?? { received: 0, lastRv: 0, bufferFill: 0, next: null };
      if (
        this.last.has(w) &&
        now.received === before.received &&
        now.lastRv === before.lastRv &&
        now.bufferFill === before.bufferFill &&
        now.next === before.next
      )
        continue;
      this.last.set(w, now);
      const group = {
        received: now.received - before.received,
        lastRv: now.lastRv,
        bufferFill: now.bufferFill,
        nextBookmarkSecond: now.next,
      };
      const key = `${group.received}|${group.lastRv}|${group.bufferFill}|${group.nextBookmarkSecond}`;
      let g = groups.get(key);
      if (!g) {
        g = { ids: [], group };
        groups.set(key, g);
      }
      g.ids.push(id);
    }
    if (groups.size === 0) return;
    const changes: WatcherSampleGroup[] = [...groups.values()].map((g) => ({
      ids: idRanges(g.ids.sort((a, b) => a - b)),
      ...g.group,
    }));
    this.emit({ kind: 'metrics', scope: 'watchers', at, changes });
  }

  /** The virtual second each watcher's bookmark bucket stands for, by watcher id. */
  private buckets(resource: Resource): Map<number, number> {
    let byId = this.bucketOf.get(resource);
    if (byId) return byId;
    byId = new Map();
    const b = resource.cacher.bookmarkWatchers;
    for (const [bucketId, ws] of b.watchersBuckets)
      for (const cw of ws)
        if (!cw.stopped) byId.set(Number(cw.id), (b.createTime + bucketId * 1000) / 1000);
    this.bucketOf.set(resource, byId);
    return byId;
  }

  private scrape(at: number): void {
    const now: Record<string, number> = {};
    const seen = new Set<unknown>();
    for (const r of this.resources) {
      if (seen.has(r.metrics)) continue;
      seen.add(r.metrics);
      Object.assign(now, r.metrics.samples());
    }
    const changed = changedSamples(this.lastScrape, now);
    this.lastScrape = now;
    if (changed) this.emit({ kind: 'metrics', scope: 'scrape', at, samples: changed });
  }
}
