// No upstream counterpart: folds the model's `watchCache`: whether the run started a watch cache
// (its cacher's reflector was heard from, or a recorder that started late observed it), when it
// first became ready, and which resource's watch cache the Watch cache tab follows (a live server
// has one per resource; a scenario has one).
import type { CacherReadyEvent, GroupResource } from '../../engine';
import type { RunModel } from '../run-model';

type WatchCache = NonNullable<RunModel['watchCache']>;

/** `pods`, or `widgets.example.com`: how kubectl names a resource. */
export function groupResourceName(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}

/** The run header's param naming the resource whose watch cache the tab follows (live runs). */
export const watchCacheResourceParam = 'watchCacheResource';

export class WatchCacheFold {
  private readonly watchCache: WatchCache = { started: false };
  private readonly others = new Set<string>();

  /** `resource`: the one to follow (the run's header names it); otherwise the first heard from. */
  constructor(resource?: string) {
    if (resource !== undefined) this.watchCache.resource = resource;
  }

  /** Whether `gr`'s watch cache is the one followed (the first one heard from becomes it). */
  follows(gr: GroupResource): boolean {
    const name = groupResourceName(gr);
    this.watchCache.resource ??= name;
    if (name === this.watchCache.resource) return true;
    this.others.add(name);
    return false;
  }

  /** The cacher's reflector reported (any phase): the watch cache started. */
  reflector(at: number): void {
    if (!this.watchCache.started) {
      this.watchCache.started = true;
      this.watchCache.startedAt = at;
    }
  }

  /**
   * A recorder that started listening after the cache started saw it running (and maybe ready):
   * started, but when is not known, so no start or ready time is claimed.
   */
  observed(): void {
    this.watchCache.started = true;
  }

  ready(e: CacherReadyEvent): void {
    if (e.state === 'ready') this.watchCache.readyAt ??= e.at;
  }

  /** The state so far (a copy). */
  finish(): WatchCache {
    return {
      ...this.watchCache,
      ...(this.others.size ? { otherResources: [...this.others].sort() } : {}),
    };
  }
}
