// Mirrors k8s.io/apiserver pkg/storage/cacher/cacher.go filterWithAttrsFunc and
// filterWithAttrsAndPrefixFunction (release-1.36), with its ShardedListAndWatch (alpha) check.
import type { FeatureGates } from '../features';
import type { Fields } from '../storage/fields';
import { type GroupResource, groupResourceString } from '../storage/group-resource';
import type { Labels } from '../storage/labels';
import type { Selector as ShardSelector } from '../storage/sharding';
import { hasPathPrefix } from './util';
import type { WatchObject } from './watch';
import type { AttrSet } from './watch-cache-event';

/** filterWithAttrsFunc: does the watcher want an object with this key, labels and fields? */
export type FilterWithAttrsFunc = (
  key: string,
  labels: AttrSet,
  fields: AttrSet,
  object: WatchObject | undefined,
) => boolean;

/** What filterWithAttrsAndPrefixFunction needs from storage.SelectionPredicate. */
export interface AttributesMatcher {
  readonly shardSelector?: ShardSelector;
  matchesSharding(obj: unknown, shardedListAndWatch: boolean): boolean;
  matchesObjectAttributes(labels: Labels, fields: Fields): boolean;
}

/**
 * The key must be under the watched key at a path boundary, the object in the predicate's shard
 * (only with the ShardedListAndWatch gate on and a non-empty ShardSelector) and the labels/fields
 * must match. An object whose shard field cannot be resolved is dropped (utilruntime.HandleError
 * goes to handleError). Upstream also counts an event outside the shard in
 * apiserver_watch_filtered_events_total (RecordWatchFilteredEvent); the engine has no such metric.
 */
export function filterWithAttrsAndPrefixFunction(
  key: string,
  p: AttributesMatcher,
  groupResource: GroupResource,
  gates: Pick<FeatureGates, 'ShardedListAndWatch'>,
  handleError?: (message: string) => void,
): FilterWithAttrsFunc {
  const isSharded =
    gates.ShardedListAndWatch && p.shardSelector !== undefined && !p.shardSelector.empty();
  if (!isSharded) {
    return (objKey, labels, fields) =>
      hasPathPrefix(objKey, key) && p.matchesObjectAttributes(labels, fields);
  }
  return (objKey, labels, fields, obj) => {
    if (!hasPathPrefix(objKey, key)) return false;
    let matches: boolean;
    try {
      matches = p.matchesSharding(obj, true);
    } catch (e) {
      handleError?.(
        `shard matching failed for ${groupResourceString(groupResource)}: ${(e as Error).message}`,
      );
      return false;
    }
    return matches && p.matchesObjectAttributes(labels, fields);
  };
}
