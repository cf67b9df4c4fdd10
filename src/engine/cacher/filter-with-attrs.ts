// Mirrors k8s.io/apiserver pkg/storage/cacher/cacher.go filterWithAttrsFunc and
// filterWithAttrsAndPrefixFunction (release-1.36). ShardedListAndWatch (alpha) is not modelled.
import type { Fields } from '../storage/fields';
import type { Labels } from '../storage/labels';
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
  matchesObjectAttributes(labels: Labels, fields: Fields): boolean;
}

/** The key must be under the watched key at a path boundary and the labels/fields must match. */
export function filterWithAttrsAndPrefixFunction(
  key: string,
  p: AttributesMatcher,
): FilterWithAttrsFunc {
  return (objKey, labels, fields) =>
    hasPathPrefix(objKey, key) && p.matchesObjectAttributes(labels, fields);
}
