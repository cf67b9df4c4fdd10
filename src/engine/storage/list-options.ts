// Mirrors k8s.io/apiserver pkg/storage/interfaces.go ListOptions (release-1.36): what a storage
// GetList/Watch call is asked for; plus the library form (selectors as strings) the engine's callers
// may pass instead, parsed once here for the delegator and the etcd3 store alike.
import { newBadRequest } from './errors';
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

/** The selection part of the library-friendly list options (selectors as strings). */
export interface ListPredicateInput {
  label?: string;
  field?: string;
  limit?: number;
  continue?: string;
}

/**
 * Library-friendly list options. `recursive` defaults to true (a LIST of everything under the
 * key); pass `recursive: false` to read the single object stored at the key. Explicit values win.
 */
export interface GetListOptions {
  resourceVersion?: string;
  resourceVersionMatch?: string;
  recursive?: boolean;
  predicate?: ListPredicateInput;
}

/**
 * Storage ListOptions from either form: storage ListOptions (a SelectionPredicate) as they are, or
 * the library form with selector strings (parsed like the HTTP layer: 400 on a bad selector).
 * `recursive` defaults to true in the library form.
 */
export function toStorageListOptions(
  input: ListOptions | GetListOptions | undefined,
  resource: string,
): ListOptions {
  const o = (input ?? {}) as Partial<ListOptions> & GetListOptions;
  if (o.predicate instanceof SelectionPredicate) {
    return newListOptions({ ...(o as Partial<ListOptions>), recursive: o.recursive ?? true });
  }
  const p = (o.predicate ?? {}) as ListPredicateInput & { allowWatchBookmarks?: boolean };
  if (p.limit !== undefined && !Number.isSafeInteger(p.limit)) {
    throw newBadRequest(
      `invalid limit: predicate.limit must be an integer, got ${String(p.limit)}`,
    );
  }
  for (const f of ['label', 'field', 'continue'] as const) {
    if (p[f] !== undefined && typeof p[f] !== 'string')
      throw newBadRequest(`invalid predicate.${f}: expected a string, got ${typeof p[f]}`);
  }
  if (o.resourceVersion !== undefined && typeof o.resourceVersion !== 'string') {
    throw newBadRequest(
      `invalid resourceVersion: expected a string, got ${typeof o.resourceVersion}`,
    );
  }
  const predicate = SelectionPredicate.from(
    {
      label: p.label,
      field: p.field,
      limit: p.limit,
      continue: p.continue,
      allowWatchBookmarks: p.allowWatchBookmarks,
    },
    resource,
  );
  return newListOptions({
    resourceVersion: o.resourceVersion ?? '',
    resourceVersionMatch: o.resourceVersionMatch ?? '',
    recursive: o.recursive ?? true,
    predicate,
  });
}
