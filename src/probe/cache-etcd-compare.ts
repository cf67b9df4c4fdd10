// No upstream counterpart: the comparison step of KEP-2340's troubleshooting procedure ("send a
// request that is served from watchcache; send a request setting ResourceVersionMatch=Exact and
// ResourceVersion to the value returned; compare the two results"), item by item, as pages arrive.
// Upstream's own consistencyChecker (cacher/delegator.go, src/engine/cacher/consistency-checker.ts)
// hashes namespace/name/RV only; this compares each item's uid and whole object too. Pure: it is
// fed the pages' items and says what differs. Items are matched by namespace/name, not by order
// (a list served by an index is not in key order), and an item waits for its counterpart only
// until the other side's page brings it: with both lists paged in step, a page's worth is held.

/** Which LIST an item came from: the one the watch cache served, or the Exact one at its RV. */
export type CompareSide = 'cache' | 'exact';

/** One item as the comparison keeps it. */
export interface ComparedItem {
  namespace: string;
  name: string;
  uid: string;
  resourceVersion: string;
}

/** What differs about one object between the two lists. */
export type ItemDifferenceKind =
  /** In the cache's list, not in the Exact one: the cache holds an object etcd had not at that RV. */
  | 'only-in-cache'
  /** In the Exact list, not in the cache's: the cache misses an object. */
  | 'only-in-exact'
  /** Another uid: the object was deleted and created again, and one side has the old one. */
  | 'uid'
  /** Another resourceVersion: one side has an older or newer write of the object. */
  | 'resource-version'
  /** Same uid and resourceVersion, different bytes: one write, two contents. */
  | 'content'
  /** The same namespace/name twice in one list. */
  | 'duplicate';

export interface ItemDifference {
  kind: ItemDifferenceKind;
  /** `namespace/name`, or `name` for a cluster-scoped object. */
  object: string;
  cache?: { uid: string; resourceVersion: string };
  exact?: { uid: string; resourceVersion: string };
  /** 'duplicate': the list it was found twice in. */
  side?: CompareSide;
  /** 'content': the first field paths whose values differ (e.g. `metadata.labels.app`). */
  paths?: string[];
}

export interface ComparisonResult {
  /** Items each list had. */
  cacheItems: number;
  exactItems: number;
  /** Objects found alike on both sides (namespace/name, uid, resourceVersion and bytes). */
  same: number;
  /** The first `maxDifferences` differences, in the order found (the rest are counted). */
  differences: ItemDifference[];
  differencesNotListed: number;
}

/** Differences kept in detail; a broken cache can differ in every item of a large list. */
export const maxDifferences = 100;

/** Field paths named per content difference. */
const maxPaths = 5;

interface Pending {
  item: ComparedItem;
  /** The object as JSON (JSON.stringify of the decoded item: both sides decoded alike). */
  json: string;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** namespace/name, uid and resourceVersion of a list item (missing fields are ""). */
export function comparedItem(item: unknown): ComparedItem {
  const meta = ((item as { metadata?: unknown } | null)?.metadata ?? {}) as Record<string, unknown>;
  return {
    namespace: str(meta.namespace),
    name: str(meta.name),
    uid: str(meta.uid),
    resourceVersion: str(meta.resourceVersion),
  };
}

function objectKey(i: ComparedItem): string {
  return i.namespace ? `${i.namespace}/${i.name}` : i.name;
}

/** The first paths (dotted; array indexes in brackets) at which `a` and `b` differ. */
export function differingPaths(a: unknown, b: unknown, limit = maxPaths): string[] {
  const out: string[] = [];
  const walk = (x: unknown, y: unknown, path: string): void => {
    if (out.length >= limit) return;
    const objX = x !== null && typeof x === 'object';
    const objY = y !== null && typeof y === 'object';
    if (!objX || !objY || Array.isArray(x) !== Array.isArray(y)) {
      if (JSON.stringify(x) !== JSON.stringify(y)) out.push(path || '(the object)');
      return;
    }
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) {
        out.push(`${path} (${x.length} against ${y.length} entries)`);
        return;
      }
      x.forEach((v, i) => walk(v, y[i], `${path}[${i}]`));
      return;
    }
    const rx = x as Record<string, unknown>;
    const ry = y as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(rx), ...Object.keys(ry)])];
    for (const k of keys) walk(rx[k], ry[k], path ? `${path}.${k}` : k);
    // Same keys and values in another order are other bytes: say so rather than nothing.
    if (out.length === 0 && JSON.stringify(rx) !== JSON.stringify(ry))
      out.push(`${path || '(the object)'} (its fields in another order)`);
  };
  walk(a, b, '');
  return out;
}

/**
 * Compares the items of the cache's LIST with those of the Exact LIST, fed page by page from
 * either side in any order; `finish` reports what was left without a counterpart.
 */
export class CacheEtcdComparison {
  private readonly pending: Record<CompareSide, Map<string, Pending>> = {
    cache: new Map(),
    exact: new Map(),
  };
  /** Every object each side has had (to find duplicates). */
  private readonly seen: Record<CompareSide, Set<string>> = { cache: new Set(), exact: new Set() };
  private readonly counts: Record<CompareSide, number> = { cache: 0, exact: 0 };
  private same = 0;
  private readonly differences: ItemDifference[] = [];
  private notListed = 0;

  /** Adds one page of `side`'s items (the decoded `items` of a list page). */
  addPage(side: CompareSide, items: readonly unknown[]): void {
    const other: CompareSide = side === 'cache' ? 'exact' : 'cache';
    for (const raw of items) {
      this.counts[side]++;
      const item = comparedItem(raw);
      const key = objectKey(item);
      if (this.seen[side].has(key)) {
        this.report({ kind: 'duplicate', object: key, side, [side]: versionOf(item) });
        continue;
      }
      this.seen[side].add(key);
      const json = JSON.stringify(raw);
      const match = this.pending[other].get(key);
      if (!match) {
        this.pending[side].set(key, { item, json });
        continue;
      }
      this.pending[other].delete(key);
      const cache = side === 'cache' ? { item, json } : match;
      const exact = side === 'cache' ? match : { item, json };
      this.compare(key, cache, exact);
    }
  }

  /** Items held waiting for the other side (what the comparison costs in memory). */
  held(): number {
    return this.pending.cache.size + this.pending.exact.size;
  }

  /** The result, with every item still unmatched reported as missing on the other side. */
  finish(): ComparisonResult {
    for (const [key, p] of this.pending.cache)
      this.report({ kind: 'only-in-cache', object: key, cache: versionOf(p.item) });
    for (const [key, p] of this.pending.exact)
      this.report({ kind: 'only-in-exact', object: key, exact: versionOf(p.item) });
    this.pending.cache.clear();
    this.pending.exact.clear();
    return {
      cacheItems: this.counts.cache,
      exactItems: this.counts.exact,
      same: this.same,
      differences: [...this.differences],
      differencesNotListed: this.notListed,
    };
  }

  private compare(key: string, cache: Pending, exact: Pending): void {
    const versions = { cache: versionOf(cache.item), exact: versionOf(exact.item) };
    if (cache.item.uid !== exact.item.uid) this.report({ kind: 'uid', object: key, ...versions });
    else if (cache.item.resourceVersion !== exact.item.resourceVersion)
      this.report({ kind: 'resource-version', object: key, ...versions });
    else if (cache.json !== exact.json)
      this.report({
        kind: 'content',
        object: key,
        ...versions,
        paths: differingPaths(JSON.parse(cache.json), JSON.parse(exact.json)),
      });
    else this.same++;
  }

  private report(d: ItemDifference): void {
    if (this.differences.length < maxDifferences) this.differences.push(d);
    else this.notListed++;
  }
}

function versionOf(i: ComparedItem): { uid: string; resourceVersion: string } {
  return { uid: i.uid, resourceVersion: i.resourceVersion };
}

/** One difference in words, e.g. `default/web: only in the cache's list (uid …, resourceVersion 12)`. */
export function differenceText(d: ItemDifference): string {
  const v = (s?: { uid: string; resourceVersion: string }): string =>
    s ? `uid ${s.uid || '""'}, resourceVersion ${s.resourceVersion || '""'}` : '';
  switch (d.kind) {
    case 'only-in-cache':
      return `${d.object}: only in the cache's list (${v(d.cache)}): the watch cache holds an object the Exact list at its resourceVersion has not`;
    case 'only-in-exact':
      return `${d.object}: only in the Exact list (${v(d.exact)}): the watch cache misses it`;
    case 'uid':
      return `${d.object}: another object under the same name (cache ${v(d.cache)}; Exact ${v(d.exact)}): deleted and created again, one side has the old one`;
    case 'resource-version':
      return `${d.object}: another write (cache resourceVersion ${d.cache?.resourceVersion}; Exact resourceVersion ${d.exact?.resourceVersion}): one side is stale`;
    case 'content':
      return `${d.object}: the same resourceVersion ${d.cache?.resourceVersion}, other bytes (${(d.paths ?? []).join(', ')}): one write, two contents`;
    case 'duplicate':
      return `${d.object}: twice in the ${d.side === 'cache' ? "cache's" : 'Exact'} list`;
  }
}
