// Mirrors k8s.io/apiserver pkg/storage/feature/feature_support_checker.go (master, 1.37-pre):
// Supports and MarkUnsupported. Deliberate differences: one checker per store (or shared by
// passing it in) instead of a process-wide global, time from the injected Clock, and no
// RequestWatchProgress probing here (CheckClient): the engine cannot dial etcd, so the cacher's
// config says what etcd supports. The version rule CheckClient applies is here
// (versionSupportsRequestWatchProgress); the server applies it to a real etcd's members.
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

/**
 * endpointSupportsRequestWatchProgress (release-1.36): whether an etcd member of this version
 * sends progress notifications a consistent read can trust. etcd-io/etcd#15220 (fixed in 3.4.25,
 * 3.5.8) and #17507 (fixed in 3.4.31, 3.5.13): below 3.4.31 and on 3.5.0–3.5.12 it is not
 * supported; an unparsable version is assumed not to support it.
 */
export function versionSupportsRequestWatchProgress(version: string): boolean {
  const v = parseSemantic(version);
  if (!v) return false;
  const less = (a: number[], b: number[]): boolean => {
    for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i];
    return false;
  };
  if (less(v, [3, 4, 31])) return false;
  if (!less(v, [3, 5, 0]) && less(v, [3, 5, 13])) return false;
  return true;
}

/** version.ParseSemantic's major.minor.patch (a pre-release or build suffix is allowed). */
export function parseSemantic(version: string): number[] | undefined {
  const m =
    /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.exec(
      version.trim(),
    );
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/**
 * What CheckClient settles on for a client's members: supported only once every member was checked
 * and each supports it (one that does not turns it off; none checked leaves it off).
 */
export function membersSupportRequestWatchProgress(versions: readonly string[]): boolean {
  return versions.length > 0 && versions.every(versionSupportsRequestWatchProgress);
}
