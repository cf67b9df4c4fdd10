// Mirrors k8s.io/apiserver pkg/storage/feature/feature_support_checker.go (master, 1.37-pre):
// Supports and MarkUnsupported. Deliberate differences: one checker per store (or shared by
// passing it in) instead of a process-wide global, time from the injected Clock, and no
// RequestWatchProgress version probing (CheckClient): the simulated etcd says what it supports
// through the cacher's config, so here RequestWatchProgress keeps upstream's unprobed answer.
import type { Clock } from '../clock';

/** How long RangeStream stays marked unsupported before Supports reports it supported again. */
export const rangeStreamRecheckInterval = 10 * 60 * 1000;

/** storage.Feature: the etcd capabilities the checker knows (any other name is unsupported). */
export type StorageFeature = 'RequestWatchProgress' | 'RangeStream';

export class FeatureSupportChecker {
  // Undefined (never marked) means supported: RangeStream's default is true.
  private rangeStreamUnsupportedAt: number | undefined;
  private readonly clock: Clock;

  constructor(clock: Clock) {
    this.clock = clock;
  }

  /** Whether the etcd backend is believed to support `feature` right now. */
  supports(feature: StorageFeature): boolean {
    switch (feature) {
      case 'RequestWatchProgress':
        // Unknown until CheckClient has probed every endpoint, which is never here.
        return false;
      case 'RangeStream':
        if (this.rangeStreamUnsupportedAt === undefined) return true;
        return this.clock.now() - this.rangeStreamUnsupportedAt >= rangeStreamRecheckInterval;
      default:
        // Upstream also reports `feature "…" is not implemented` through runtime.HandleError.
        return false;
    }
  }

  /** Records that etcd answered Unimplemented; RangeStream is re-probed after the recheck interval. */
  markUnsupported(feature: StorageFeature): void {
    if (feature === 'RangeStream') this.rangeStreamUnsupportedAt = this.clock.now();
  }

  /** Virtual ms at which RangeStream, marked unsupported, is probed again (undefined: not marked). */
  recheckAt(feature: StorageFeature): number | undefined {
    return feature !== 'RangeStream' || this.rangeStreamUnsupportedAt === undefined
      ? undefined
      : this.rangeStreamUnsupportedAt + rangeStreamRecheckInterval;
  }
}
