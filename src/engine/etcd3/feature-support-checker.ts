// Mirrors k8s.io/apiserver pkg/storage/feature/feature_support_checker.go (master, 1.37-pre): the
// RangeStream part. Deliberate differences: one checker per store (or shared by passing it in)
// instead of a process-wide global, time from the injected Clock, and no RequestWatchProgress
// version probing (the simulated etcd says what it supports).
import type { Clock } from '../clock';

/** How long RangeStream stays marked unsupported before Supports reports it supported again. */
export const rangeStreamRecheckInterval = 10 * 60 * 1000;

export type StorageFeature = 'RangeStream';

export class FeatureSupportChecker {
  // Zero (never marked) means supported: RangeStream's default is true.
  private rangeStreamUnsupportedAt: number | undefined;
  private readonly clock: Clock;

  constructor(clock: Clock) {
    this.clock = clock;
  }

  /** Whether the etcd backend is believed to support `feature` right now. */
  supports(feature: StorageFeature): boolean {
    switch (feature) {
      case 'RangeStream':
        if (this.rangeStreamUnsupportedAt === undefined) return true;
        return this.clock.now() - this.rangeStreamUnsupportedAt >= rangeStreamRecheckInterval;
    }
  }

  /** Records that etcd answered Unimplemented; the feature is re-probed after the recheck interval. */
  markUnsupported(feature: StorageFeature): void {
    switch (feature) {
      case 'RangeStream':
        this.rangeStreamUnsupportedAt = this.clock.now();
        return;
    }
  }

  /** Virtual ms at which a feature marked unsupported will be probed again (undefined: supported). */
  recheckAt(feature: StorageFeature): number | undefined {
    switch (feature) {
      case 'RangeStream':
        return this.rangeStreamUnsupportedAt === undefined
          ? undefined
          : this.rangeStreamUnsupportedAt + rangeStreamRecheckInterval;
    }
  }
}
