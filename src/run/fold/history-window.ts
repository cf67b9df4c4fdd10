// No upstream counterpart: folds the model's `historyWindow`: the oldest resourceVersion a watch
// can start from in the watch cache's history (getIntervalLocked's bound), the events it holds and
// the age of the oldest, a point wherever it moved or filled (the ring filling, then sliding when
// full, a resize) and at each jump (expire-history, a list, the state a late recorder observed) with what it dropped.
import type { WatchCacheHistoryEvent, WatchCacheWindow } from '../../engine';
import type { HistoryWindowPoint } from '../run-model';
import type { SeriesLimit } from './series-limit';

export class HistoryWindowFold {
  private readonly points: HistoryWindowPoint[] = [];

  constructor(private readonly series: SeriesLimit) {}

  /** The window as an event was dispatched: a point when it moved or filled (one per instant). */
  dispatched(at: number, w: WatchCacheWindow): void {
    const last = this.points[this.points.length - 1];
    if (
      last &&
      last.oldestRv === w.oldestResourceVersion &&
      last.capacity === w.capacity &&
      last.size === w.size
    )
      return;
    if (last && last.at === at && last.change === undefined) {
      this.points[this.points.length - 1] = { at, ...windowFigures(w) };
      return;
    }
    this.point({ at, ...windowFigures(w) });
  }

  /** The window jumped (or was observed): always a point, with what it dropped. */
  jumped(e: WatchCacheHistoryEvent): void {
    this.point({ at: e.at, ...windowFigures(e.window), change: e.reason, dropped: e.dropped });
  }

  /** The points so far (copies). */
  finish(): HistoryWindowPoint[] {
    return this.points.map((p) => ({ ...p }));
  }

  private point(p: HistoryWindowPoint): void {
    const pts = this.points;
    pts.push(p);
    if (pts.length <= this.series.limit) return;
    // Halve the sliding points' resolution; the jumps and the last point always stay.
    const kept = pts.filter(
      (q, i) => q.change !== undefined || i % 2 === 1 || i === pts.length - 1,
    );
    const truncated = this.series.truncated;
    truncated.historyWindow = (truncated.historyWindow ?? 0) + pts.length - kept.length;
    pts.length = 0;
    pts.push(...kept);
  }
}

function windowFigures(w: WatchCacheWindow): Omit<HistoryWindowPoint, 'at'> {
  return {
    oldestRv: w.oldestResourceVersion,
    size: w.size,
    capacity: w.capacity,
    ...(w.oldestEventAgeMs !== undefined ? { oldestAgeMs: w.oldestEventAgeMs } : {}),
  };
}
