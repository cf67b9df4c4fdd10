// No upstream counterpart: folds the model's `watchers`: a WatcherTrack per watcher from its
// cache watcher's events (created, state, bookmarks, live, terminated, stopped, closed), its
// registration by the cacher, its client's close, the run's per-instant samples and its final
// figures.
import type {
  BookmarkBucketPopEvent,
  BookmarkScheduleEvent,
  CacheWatcherEvent,
  CacherWatchEvent,
} from '../../engine';
import type { ScenarioInput, WatcherFinal, WatcherSampleGroup } from '../trace/trace-format';
import type { WatcherStateName, WatcherTrack } from '../run-model';
import { foldSampleGroups, forEachId, sampleFrom } from '../watcher-samples';
import { seconds } from './seconds';
import type { PendingWatch } from './watch-requests';
import { TrackBuilder } from './watcher-track';
import { bucketPoppedText, bucketScheduledText } from '../views/bookmark-bucket-text';

type WatcherEvent<T extends CacheWatcherEvent['type']> = Extract<CacheWatcherEvent, { type: T }>;

/** A bookmark sent this close to the watch's deadline counts as its pre-timeout bookmark. */
const preDeadlineWindowMs = 3500;

/** `key: "/pods/ns", labels: "a=b", fields: ""` → `a=b` (labels and fields joined; '' = everything). */
export function selectorFromIdentifier(identifier: string): string {
  const m = /labels: "((?:[^"\\]|\\.)*)", fields: "((?:[^"\\]|\\.)*)"/.exec(identifier);
  if (!m) return '';
  return [m[1], m[2]].filter((s) => s !== '').join(',');
}

export class WatchersFold {
  private readonly tracks = new Map<string, TrackBuilder>();
  /** The trace has per-instant watcher samples (run-sampler.ts): tracks keep their `samples`. */
  private sampled = false;
  /**
   * The trace's `bookmarks/scheduled` events name the watchers they put into each bucket: a
   * watcher's next bookmark comes from them alone (a sample's bucket figure is not read).
   */
  private bucketsFromEvents = false;

  constructor(
    /** Log entries (and bookmark times) kept per watcher. */
    private readonly logLimit: number,
  ) {}

  /** A watcher was created; `watch` is the WATCH request that made it, while it is pending. */
  created(e: WatcherEvent<'watcher/created'>, watch: PendingWatch | undefined): void {
    const id = String(e.watcherId);
    const t = new TrackBuilder(id, e.at, this.logLimit);
    t.track.selector = selectorFromIdentifier(e.identifier);
    t.track.bufferCapacity = e.chanSize;
    t.track.allowWatchBookmarks = e.allowWatchBookmarks;
    t.track.deadline = e.deadline;
    t.track.preDeadlineBookmarks = 0;
    t.track.initialEventsEndBookmarks = 0;
    if (watch) {
      t.track.contentType = watch.contentType;
      t.track.client = watch.record.client;
    }
    this.tracks.set(id, t);
    const deadline = e.deadline === null ? 'none' : `at ${seconds(e.deadline)}`;
    t.log(
      e.at,
      'created',
      `created: buffers of ${e.chanSize}, deadline ${deadline}, bookmarks ${e.allowWatchBookmarks ? 'on' : 'off'}`,
    );
  }

  state(e: WatcherEvent<'watcher/state'>): void {
    const t = this.tracks.get(String(e.watcherId));
    if (!t) return;
    t.track.states.push({ at: e.at, state: e.to as WatcherStateName });
    t.track.bookmarkFloorRv = e.bookmarkAfterResourceVersion;
    sampleFrom(t.track, e.at).floorRv = e.bookmarkAfterResourceVersion;
    const why =
      e.resourceVersion !== undefined
        ? ` (bookmark rv ${e.resourceVersion})`
        : ` (bookmarkAfterResourceVersion ${e.bookmarkAfterResourceVersion})`;
    t.log(e.at, 'state', `${e.from} → ${e.to}${why}`);
  }

  bookmark(e: WatcherEvent<'watcher/bookmark'>): void {
    const t = this.tracks.get(String(e.watcherId));
    if (!t) return;
    if (e.outcome === 'delivered') {
      t.track.bookmarksReceived++;
      sampleFrom(t.track, e.at).bookmarks = t.track.bookmarksReceived;
      t.bookmarkAt(e.at, this.logLimit);
      if (e.initialEventsEnd)
        t.track.initialEventsEndBookmarks = (t.track.initialEventsEndBookmarks ?? 0) + 1;
      // The pre-timeout bookmark is due 2 s before the deadline, bucketed to the second and
      // sent at the next ~1 s tick: it lands in the last 3.5 s.
      const d = t.track.deadline;
      if (d !== undefined && d !== null && e.at >= d - preDeadlineWindowMs && e.at < d)
        t.track.preDeadlineBookmarks = (t.track.preDeadlineBookmarks ?? 0) + 1;
      if (!t.readsRecorded && e.resourceVersion > t.track.lastRvSent)
        t.track.lastRvSent = e.resourceVersion;
      t.log(
        e.at,
        'bookmark',
        `bookmark rv ${e.resourceVersion} sent${e.initialEventsEnd ? ' (initial-events-end)' : ''}`,
      );
    } else if (e.outcome === 'dropped') {
      const reason = e.reason ?? 'unknown';
      t.track.bookmarksDropped[reason] = (t.track.bookmarksDropped[reason] ?? 0) + 1;
      t.log(e.at, 'bookmark-dropped', `bookmark rv ${e.resourceVersion} dropped: ${reason}`);
    } else {
      t.log(e.at, 'bookmark-queued', `bookmark rv ${e.resourceVersion} queued`);
    }
  }

  terminated(e: WatcherEvent<'watcher/terminated'>): void {
    const t = this.tracks.get(String(e.watcherId));
    if (!t) return;
    t.track.terminated = true;
    t.graceful = e.graceful;
    t.terminatedBy = e.cause ?? 'blockedDispatch';
    const graceful = e.graceful ? `, graceful (drains ${e.inputLen} buffered events)` : '';
    t.log(
      e.at,
      'terminated',
      e.cause === 'fault'
        ? `terminated by the terminate-watcher fault${graceful}`
        : `terminated: blocked past the dispatch budget${graceful}`,
    );
  }

  stopped(e: WatcherEvent<'watcher/stopped'>): void {
    const t = this.tracks.get(String(e.watcherId));
    t?.log(
      e.at,
      'stopped',
      `stopped${e.drainInputBuffer ? `, draining ${e.inputLen} buffered events` : ''}`,
    );
  }

  live(e: WatcherEvent<'watcher/live'>): void {
    const t = this.tracks.get(String(e.watcherId));
    if (!t) return;
    // The RV it went live from; a client whose reads are recorded has read it only if it was sent.
    if (!t.readsRecorded && e.resourceVersion > t.track.lastRvSent)
      t.track.lastRvSent = e.resourceVersion;
    t.log(e.at, 'live', `initial events sent (${e.initEvents}), live from rv ${e.resourceVersion}`);
  }

  closed(e: WatcherEvent<'watcher/closed'>): void {
    const t = this.tracks.get(String(e.watcherId));
    if (!t) return;
    t.closedReason = e.reason;
    t.track.closedAt ??= e.at;
    if (!t.hasFinal && !t.readsRecorded) t.track.eventsReceived = e.delivered;
    t.log(
      e.at,
      'closed',
      `closed (${e.reason}) after ${e.delivered} events${e.error ? `: ${e.error}` : ''}`,
    );
  }

  /**
   * Watchers put into a bookmark bucket (at their creation, or re-queued after a bookmark tick
   * popped theirs, as cacher.go's dispatchEvents does for those that still want bookmarks): from
   * then on their next bookmark is that bucket's second.
   */
  scheduled(e: BookmarkScheduleEvent): void {
    for (const b of e.buckets) {
      if (b.watcherIds === undefined || b.bucketTime === undefined) continue;
      this.bucketsFromEvents = true;
      const second = b.bucketTime / 1000;
      for (const id of b.watcherIds) {
        const t = this.tracks.get(String(id));
        if (!t) continue;
        sampleFrom(t.track, e.at).nextBookmarkSecond = second;
        t.log(e.at, 'bookmark-scheduled', bucketScheduledText(b.bucketTime, e.at));
      }
    }
  }

  /** A bookmark tick popped a due bucket: its watchers sit in no bucket until re-queued. */
  popped(e: BookmarkBucketPopEvent): void {
    for (const id of e.watcherIds) {
      const t = this.tracks.get(String(id));
      if (!t) continue;
      sampleFrom(t.track, e.at).nextBookmarkSecond = null;
      t.log(e.at, 'bookmark-popped', bucketPoppedText(e.bucketTime));
    }
  }

  /** The cacher registered a WATCH's watcher (`cacher/watch`, started): its bookmark floor. */
  registered(e: CacherWatchEvent): void {
    if (e.outcome !== 'started' || e.watcherId === undefined) return;
    const t = this.tracks.get(String(e.watcherId));
    if (!t) return;
    t.track.bookmarkFloorRv = e.bookmarkAfterResourceVersion ?? 0;
    sampleFrom(t.track, e.at).floorRv = t.track.bookmarkFloorRv;
    t.log(
      e.at,
      'registered',
      `registered: rv ${JSON.stringify(e.resourceVersion)}${e.sendInitialEvents ? ', sendInitialEvents' : ''}, interval from rv ${e.intervalResourceVersion ?? 0}, bookmark floor ${e.bookmarkAfterResourceVersion ?? 0}`,
    );
  }

  /** A WATCH was answered: a watcher whose client's reads follow one by one (`watch-event`). */
  opened(input: Extract<ScenarioInput, { action: 'watch-opened' }>): void {
    if (input.watcherId === undefined || input.readsRecorded !== true) return;
    const t = this.tracks.get(String(input.watcherId));
    if (t) t.readsRecorded = true;
  }

  /** The client's handler of the watch returned (its `watch-closed` input). */
  clientClosed(at: number, input: Extract<ScenarioInput, { action: 'watch-closed' }>): void {
    if (input.watcherId === undefined) return;
    const t = this.tracks.get(String(input.watcherId));
    if (!t) return;
    t.clientReason = input.reason;
    t.track.closedAt ??= at;
    t.log(
      at,
      'client-closed',
      `client handler returned (${input.reason}) after reading ${input.received} events`,
    );
  }

  /** The run's per-instant figures of the watchers that changed at `at`. */
  samples(at: number, changes: WatcherSampleGroup[]): void {
    this.sampled = true;
    foldSampleGroups(at, changes, (id) => this.tracks.get(id)?.track, !this.bucketsFromEvents);
    // A live run's reads are its tracks' Read and Last RV too (no `final` record follows them).
    for (const g of changes)
      forEachId(g.ids, (id) => {
        const t = this.tracks.get(id);
        const samples = t?.track.samples;
        if (!t?.readsRecorded || !samples?.length) return;
        const s = samples[samples.length - 1];
        t.track.eventsReceived = s.received;
        t.track.lastRvSent = s.lastRv;
        if (g.bookmarksRead !== undefined) lineRead(t.track, at, g);
      });
  }

  /** A watcher's figures at the end of the run. */
  final(w: WatcherFinal): void {
    const t = this.tracks.get(w.id);
    if (!t) return;
    t.hasFinal = true;
    t.track.eventsReceived = w.received;
    if (w.lastRv > t.track.lastRvSent) t.track.lastRvSent = w.lastRv;
    t.track.bufferFill = w.bufferFill;
    t.track.bufferCapacity = w.bufferCapacity;
    if (w.nextBookmarkSecond !== undefined) t.track.nextBookmarkSecond = w.nextBookmarkSecond;
  }

  /** The tracks as they stand, close reasons settled (new objects: see TrackBuilder.finish). */
  finish(): WatcherTrack[] {
    // Without the run's samples or recorded reads, the event-made ones hold bookmarks and floors
    // but no reads.
    return [...this.tracks.values()].map((t) => {
      const w = t.finish();
      if (!this.sampled && !t.readsRecorded) delete w.samples;
      return w;
    });
  }
}

/** Adds a `watchers` record's lines (kinds recorded) to the track's reads at `at`. */
function lineRead(track: WatcherTrack, at: number, g: WatcherSampleGroup): void {
  const reads = (track.lineReads ??= []);
  const bookmarks = g.bookmarksRead ?? 0;
  let r = reads[reads.length - 1];
  if (r?.at !== at) {
    r = { at, events: 0, bookmarks: 0, lastRv: 0 };
    reads.push(r);
  }
  r.events += g.received - bookmarks;
  r.bookmarks += bookmarks;
  r.lastRv = g.lastRv;
  if (g.lastEventRv !== undefined) r.lastEventRv = g.lastEventRv;
}
