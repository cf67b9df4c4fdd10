// Mirrors k8s.io/apiserver pkg/storage/interfaces.go ListOptions (release-1.36): what a storage GetList/Watch call is asked for.
import { SelectionPredicate } from './selection-predicate';

/** metav1.ResourceVersionMatchExact. */
export const resourceVersionMatchExact = 'Exact';
/** metav1.ResourceVersionMatchNotOlderThan. */
export const resourceVersionMatchNotOlderThan = 'NotOlderThan';

/**
 * metav1.ResourceVersionMatch: '' (legacy semantics), 'Exact' or 'NotOlderThan'. Any other string
 * is representable on purpose: storage rejects it (`unknown ResourceVersionMatch value: X`).
 */
export type ResourceVersionMatch = string;

/** storage.ListOptions. */
export interface ListOptions {
  /** The resourceVersion parameter, verbatim ('' = most recent, '0' = any). */
  resourceVersion: string;
  resourceVersionMatch: ResourceVersionMatch;
  /** Selection, limit, continue token and allowWatchBookmarks. */
  predicate: SelectionPredicate;
  /** Whether the key is a prefix (a collection) rather than a single object. */
  recursive: boolean;
  /** Deliver storage progress-notify bookmarks (internal clients such as the watch cache only). */
  progressNotify?: boolean;
  /** Watch: start with synthetic ADDED events for the current state; undefined = not set. */
  sendInitialEvents?: boolean;
}

/** ListOptions with upstream's zero values for anything not given. */
export function newListOptions(init: Partial<ListOptions> = {}): ListOptions {
  return {
    resourceVersion: init.resourceVersion ?? '',
    resourceVersionMatch: init.resourceVersionMatch ?? '',
    predicate: init.predicate ?? new SelectionPredicate(),
    recursive: init.recursive ?? false,
    progressNotify: init.progressNotify ?? false,
    sendInitialEvents: init.sendInitialEvents,
  };
}
