// No upstream counterpart: folds the model's `resourceVersions`: the watch cache's RV and etcd's
// revision over time, a point per instant either grew at, at half the resolution each time the
// series outgrows its cap.
import type { ResourceVersionPoint } from '../run-model';
import type { SeriesLimit } from './series-limit';

export class ResourceVersionsFold {
  private readonly points: ResourceVersionPoint[] = [];
  private cacheRv = 0;
  private etcdRv = 0;

  constructor(private readonly series: SeriesLimit) {}

  /** The watch cache is at `rv` (etcd is at least there too). */
  cache(at: number, rv: number): void {
    if (!(rv > this.cacheRv)) return;
    this.cacheRv = rv;
    if (this.etcdRv < rv) this.etcdRv = rv;
    this.point(at);
  }

  /** etcd is at revision `rv`. */
  etcd(at: number, rv: number): void {
    if (!(rv > this.etcdRv)) return;
    this.etcdRv = rv;
    this.point(at);
  }

  /** The points so far (copies: the last one may still change). */
  finish(): ResourceVersionPoint[] {
    return this.points.map((p) => ({ ...p }));
  }

  private point(at: number): void {
    const pts = this.points;
    const last = pts[pts.length - 1];
    if (last && last.at >= at) {
      last.cacheRv = this.cacheRv;
      last.etcdRv = this.etcdRv;
      return;
    }
    pts.push({ at, cacheRv: this.cacheRv, etcdRv: this.etcdRv });
    if (pts.length > this.series.limit) {
      // Halve the resolution: keep every other point (always the last).
      const kept = pts.filter((_, i) => i % 2 === 1 || i === pts.length - 1);
      const truncated = this.series.truncated;
      truncated.resourceVersions = (truncated.resourceVersions ?? 0) + pts.length - kept.length;
      pts.length = 0;
      pts.push(...kept);
    }
  }
}
