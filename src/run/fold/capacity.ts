// No upstream counterpart: folds the model's `capacity`: the watch cache's size over time, a point
// per resize with the reason upstream's watch cache had for it (full, and its oldest event younger
// than the eventFreshDuration window, or a quarter from the newest older than it).
import {
  DefaultEventFreshDuration,
  type WatchCacheCapacityChangeEvent,
  type WatchCacheHistoryEvent,
} from '../../engine';
import type { CapacityPoint } from '../run-model';
import { seconds } from './seconds';
import type { SeriesLimit } from './series-limit';

const initialReason = 'the watch cache starts at its lower bound';

export class CapacityFold {
  private readonly points: CapacityPoint[] = [];
  /** The window the watch cache's own events named last (its history events carry it). */
  private eventFreshDurationMs = DefaultEventFreshDuration;

  constructor(private readonly series: SeriesLimit) {}

  /** Any history event of this watch cache: the eventFreshDuration it runs with. */
  heard(e: WatchCacheHistoryEvent): void {
    this.eventFreshDurationMs = e.eventFreshDuration;
  }

  /** A recorder that started late saw the capacity: the first point, if there is none yet. */
  observed(e: WatchCacheHistoryEvent): void {
    if (this.points.length > 0) return;
    this.points.push({
      at: e.at,
      capacity: e.window.capacity,
      change: 'initial',
      reason: 'the capacity when recording started (the watch cache was already running)',
      oldestAgeMs: e.window.oldestEventAgeMs ?? 0,
      eventFreshDurationMs: e.eventFreshDuration,
    });
  }

  resized(e: WatchCacheCapacityChangeEvent): void {
    if (this.points.length === 0) {
      this.points.push({
        at: 0,
        capacity: e.from,
        change: 'initial',
        reason: initialReason,
        oldestAgeMs: 0,
        eventFreshDurationMs: e.eventFreshDuration,
      });
    }
    const grow = e.reason === 'increase';
    const point: CapacityPoint = {
      at: e.at,
      capacity: e.to,
      change: grow ? 'grow' : 'shrink',
      reason: grow
        ? `full and the oldest event (${seconds(e.oldestEventAgeMs)}) is younger than the ${seconds(e.eventFreshDuration)} window`
        : `full and the event a quarter from the newest (${seconds(e.comparedEventAgeMs)}) is older than the ${seconds(e.eventFreshDuration)} window`,
      oldestAgeMs: e.oldestEventAgeMs,
      eventFreshDurationMs: e.eventFreshDuration,
      comparedAgeMs: e.comparedEventAgeMs,
    };
    this.series.push(this.points, point, 'capacity');
  }

  /**
   * The points so far (a new array). A run that never resized shows its initial capacity, read
   * from the run's last `metrics` (the watch_cache_capacity gauge) when it has one.
   */
  finish(metrics: Record<string, number>): CapacityPoint[] {
    const capacity = this.points.slice();
    if (capacity.length === 0) {
      const c = Object.entries(metrics).find(([k]) => k.startsWith('watch_cache_capacity{'));
      if (c)
        capacity.push({
          at: 0,
          capacity: c[1],
          change: 'initial',
          reason: initialReason,
          oldestAgeMs: 0,
          eventFreshDurationMs: this.eventFreshDurationMs,
        });
    }
    return capacity;
  }
}
