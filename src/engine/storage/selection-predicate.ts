// Mirrors k8s.io/apiserver pkg/storage/selection_predicate.go (release-1.36): which objects a list/watch selects, its limit and continue token.
// `from` also does what the HTTP layer does with the query (pkg/endpoints/handlers/get.go): parse
// the label selector, then the field selector, then convert its field labels for the resource;
// each failure is a 400 with upstream's message. ShardSelector (ShardedListAndWatch, 1.36 alpha) is
// set only by a caller that builds the predicate itself: `from` parses no shardSelector.
import { newBadRequest } from './errors';
import { convertFieldLabel, getAttrs, type ObjectAttributes } from './field-labels';
import * as fields from './fields';
import * as labels from './labels';
import type { KubeObject } from './objects';
import type * as sharding from './sharding';

export { getAttrs } from './field-labels';

/** storage.AttrFunc: the labels and fields of an object; may throw for a wrong object type. */
export type AttrFunc = (obj: KubeObject) => ObjectAttributes;

/** An index lookup a predicate allows (storage.MatchValue). */
export interface MatchValue {
  indexName: string;
  value: string;
}

/** storage.LabelIndex: `l:<label>`. */
export function labelIndex(label: string): string {
  return 'l:' + label;
}

/** storage.FieldIndex: `f:<field>`. */
export function fieldIndex(field: string): string {
  return 'f:' + field;
}

export interface SelectionPredicateInit {
  label?: labels.Selector;
  field?: fields.Selector;
  getAttrs?: AttrFunc;
  indexLabels?: string[];
  indexFields?: string[];
  limit?: number;
  continue?: string;
  allowWatchBookmarks?: boolean;
  shardSelector?: sharding.Selector;
}

/** The query side of a list/watch, as strings (what `from` parses). */
export interface SelectionQuery {
  label?: string;
  field?: string;
  limit?: number;
  continue?: string;
  allowWatchBookmarks?: boolean;
}

export class SelectionPredicate {
  label: labels.Selector;
  field: fields.Selector;
  getAttrs: AttrFunc;
  indexLabels: string[];
  indexFields: string[];
  /** The client's page size; 0 (or less) means no limit. */
  limit: number;
  continue: string;
  allowWatchBookmarks: boolean;
  /** The parsed shard selector for filtering objects by hash range. */
  shardSelector: sharding.Selector | undefined;

  constructor(init: SelectionPredicateInit = {}) {
    this.label = init.label ?? labels.everything();
    this.field = init.field ?? fields.everything();
    this.getAttrs = init.getAttrs ?? ((obj) => getAttrs(obj, 'pods'));
    this.indexLabels = init.indexLabels ?? [];
    this.indexFields = init.indexFields ?? [];
    this.limit = init.limit ?? 0;
    this.continue = init.continue ?? '';
    this.allowWatchBookmarks = init.allowWatchBookmarks ?? false;
    this.shardSelector = init.shardSelector;
  }

  /**
   * Parses the selector strings for a resource (default 'pods', whose predicate indexes
   * spec.nodeName as upstream's MatchPod). Throws a 400 StatusError for a bad selector or an
   * unsupported field label, e.g. `field label not supported: foo`.
   */
  static from(q: SelectionQuery, resource = 'pods'): SelectionPredicate {
    let label: labels.Selector;
    let field: fields.Selector;
    try {
      label = labels.parse(q.label ?? '');
    } catch (e) {
      throw newBadRequest((e as Error).message);
    }
    try {
      field = fields.parseSelector(q.field ?? '');
    } catch (e) {
      throw newBadRequest((e as Error).message);
    }
    try {
      field = field.transform((l, v) => convertFieldLabel(resource, l, v));
    } catch (e) {
      throw newBadRequest((e as Error).message);
    }
    return new SelectionPredicate({
      label,
      field,
      getAttrs: (obj) => getAttrs(obj, resource),
      indexFields: resource === 'pods' ? ['spec.nodeName'] : [],
      limit: q.limit ?? 0,
      continue: q.continue ?? '',
      allowWatchBookmarks: q.allowWatchBookmarks ?? false,
    });
  }

  /** Whether the object's labels and fields match; throws what getAttrs throws. */
  matches(obj: KubeObject): boolean {
    if (this.empty()) return true;
    const attrs = this.getAttrs(obj);
    return this.label.matches(attrs.labels) && this.field.matches(attrs.fields);
  }

  /**
   * MatchesSharding: with the ShardedListAndWatch gate on and a non-empty ShardSelector, whether
   * the object's hashed field is in one of its ranges; throws what the selector throws. The gate
   * is passed in because the engine has no process-wide feature gate.
   */
  matchesSharding(obj: unknown, shardedListAndWatch: boolean): boolean {
    if (!shardedListAndWatch) return true;
    if (this.shardSelector !== undefined && !this.shardSelector.empty()) {
      return this.shardSelector.matches(obj);
    }
    return true;
  }

  matchesObjectAttributes(l: labels.Labels, f: fields.Fields): boolean {
    if (this.label.empty() && this.field.empty()) return true;
    return this.label.matches(l) && this.field.matches(f);
  }

  /** The namespace the field selector pins (metadata.namespace=…), unless continuing. */
  matchesSingleNamespace(): string | undefined {
    if (this.continue.length > 0) return undefined;
    return this.field.requiresExactMatch('metadata.namespace');
  }

  /** The name the field selector pins (metadata.name=…), unless continuing. */
  matchesSingle(): string | undefined {
    if (this.continue.length > 0) return undefined;
    return this.field.requiresExactMatch('metadata.name');
  }

  /** True when the predicate filters nothing (then remainingItemCount can be reported). */
  empty(): boolean {
    return this.label.empty() && this.field.empty();
  }

  /**
   * The (index, value) pairs usable to narrow the candidates; requestNamespace stands in for the
   * namespace of the request context (e.g. /api/v1/namespaces/default/pods).
   */
  matcherIndex(requestNamespace = ''): MatchValue[] {
    const result: MatchValue[] = [];
    for (const f of this.indexFields) {
      const v = this.field.requiresExactMatch(f);
      if (v !== undefined) result.push({ indexName: fieldIndex(f), value: v });
      else if (f === 'metadata.namespace' && requestNamespace.length > 0) {
        result.push({ indexName: fieldIndex(f), value: requestNamespace });
      }
    }
    for (const l of this.indexLabels) {
      const v = this.label.requiresExactMatch(l);
      if (v !== undefined) result.push({ indexName: labelIndex(l), value: v });
    }
    return result;
  }
}
