// What a run model can say about an etcd write reaching a watcher, for the export's flow arrows.
// No upstream counterpart. The model keeps etcd's revision where it moved (resourceVersions: the
// scenario's writes are aggregated per virtual instant, so one step may hold many revisions) and,
// per watcher, what the client had read where that changed (samples, aggregated per instant too).
// A read that took events and no bookmark ends at the event with the sample's lastRv: that
// revision's write is what it delivered. Bookmarks carry no write (their RV may be another
// resource's), and the other events of a batch are not named by the model: no arrow is drawn for
// what is not known.
import type {
  ResourceVersionPoint,
  RunModel,
  VirtualMs,
  WatcherLineRead,
  WatcherTrack,
} from '../run/run-model';

/** A step of etcd's revision: the writes that made revisions firstRv..lastRv. */
export interface EtcdWriteStep {
  at: VirtualMs;
  firstRv: number;
  lastRv: number;
  /** When the model thinned its RV points, the writes happened somewhere in [since, at]. */
  since?: VirtualMs;
}

/** A moment the watcher's client read something: events, bookmarks or both. */
export interface WatcherRead {
  at: VirtualMs;
  events: number;
  bookmarks: number;
  lastRv: number;
  /** Absent where the run did not record it (a live run records reads, not buffers). */
  bufferFill?: number;
  /** Index into the write steps of the write whose event this read ended with. */
  write?: number;
  /** The RV of that event (the write the arrow comes from). */
  writeRv?: number;
}

/** etcd's revision steps, oldest first (a step per recorded rise of etcdRv). */
export function etcdWriteSteps(model: RunModel): EtcdWriteStep[] {
  const thinned = (model.truncated?.resourceVersions ?? 0) > 0;
  const steps: EtcdWriteStep[] = [];
  let rv = 0;
  let prev: ResourceVersionPoint | undefined;
  for (const p of model.resourceVersions) {
    if (p.etcdRv > rv) {
      const step: EtcdWriteStep = { at: p.at, firstRv: rv + 1, lastRv: p.etcdRv };
      if (thinned && prev) step.since = prev.at;
      steps.push(step);
      rv = p.etcdRv;
    }
    prev = p;
  }
  return steps;
}

/** The step that wrote revision `rv` at or before `at` (-1: none). */
export function writeStepOf(steps: readonly EtcdWriteStep[], rv: number, at: VirtualMs): number {
  let lo = 0;
  let hi = steps.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = steps[mid];
    if (rv < s.firstRv) hi = mid - 1;
    else if (rv > s.lastRv) lo = mid + 1;
    else return s.at <= at ? mid : -1;
  }
  return -1;
}

/**
 * The watcher's reads: what its client read, line kinds and RVs, where the run recorded them (live
 * runs); else from its samples (none in traces recorded before samples existed).
 */
export function watcherReads(track: WatcherTrack, steps: readonly EtcdWriteStep[]): WatcherRead[] {
  if (track.lineReads) return recordedReads(track.lineReads, steps);
  const reads: WatcherRead[] = [];
  let received = 0;
  let bookmarks = 0;
  for (const s of track.samples ?? []) {
    const read = s.received - received;
    // A bookmark is counted when it is sent (into the result channel), a line when the client
    // takes it: only a sample where the client's count grew is a read, and the bookmarks sent
    // since the last read are at most the lines it took.
    if (read <= 0) continue;
    const marks = Math.min(read, Math.max(0, s.bookmarks - bookmarks));
    received = s.received;
    bookmarks += marks;
    const r: WatcherRead = {
      at: s.at,
      events: read - marks,
      bookmarks: marks,
      lastRv: s.lastRv,
      bufferFill: s.bufferFill,
    };
    if (r.events > 0 && r.bookmarks === 0 && s.lastRv > 0) {
      const w = writeStepOf(steps, s.lastRv, s.at);
      if (w >= 0) {
        r.write = w;
        r.writeRv = s.lastRv;
      }
    }
    reads.push(r);
  }
  return reads;
}

/**
 * Reads as the client made them, each line's kind recorded: the arrow comes only from the write of
 * the last event line it read (a bookmark's RV names no write).
 */
function recordedReads(
  lineReads: readonly WatcherLineRead[],
  steps: readonly EtcdWriteStep[],
): WatcherRead[] {
  return lineReads.map((l) => {
    const r: WatcherRead = {
      at: l.at,
      events: l.events,
      bookmarks: l.bookmarks,
      lastRv: l.lastRv,
    };
    if (l.lastEventRv !== undefined) {
      const w = writeStepOf(steps, l.lastEventRv, l.at);
      if (w >= 0) {
        r.write = w;
        r.writeRv = l.lastEventRv;
      }
    }
    return r;
  });
}
