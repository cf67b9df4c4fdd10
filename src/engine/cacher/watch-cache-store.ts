// Mirrors k8s.io/apiserver pkg/storage/cacher/store/store.go + store_btree.go (release-1.36).
// Deliberate differences: the ordered store is a persistent (path-copying) AVL tree instead of
// the copy-on-write B-tree of degree 16: both give O(1) Clone and O(log n) updates, which is all
// snapshots need. The snapshotter is a sorted ring of (RV, snapshot) instead of a B-tree (the
// cyclic buffer upstream's TODO asks for): adds only grow the newest RV, removals only drop the oldest.
// Keys compare in Go's byte order (UTF-8), not JS UTF-16 order.

import { compareStrings as compareKeys } from '../storage/go-strings';
import type { AttrSet } from './watch-cache-event';

/**
 * store.Element: the object plus what is costly to recompute for every list and watcher (its key,
 * labels and fields).
 */
export interface StoreElement<T = unknown> {
  key: string;
  object: T;
  labels: AttrSet;
  fields: AttrSet;
}

/** cache.IndexFunc, applied to the element's object (store.ElementIndexFunc). */
export type IndexFunc<T = unknown> = (object: T) => string[];

/** cache.Indexers: index name (e.g. `f:spec.nodeName`, `l:app`) -> function. */
export type Indexers<T = unknown> = Readonly<Record<string, IndexFunc<T>>>;

/** store.OrderedLister: what a snapshot serves. */
export interface OrderedLister<T = unknown> {
  /** Elements whose key starts with `prefix` (plain string prefix), from `continueKey` (inclusive) on, by key. */
  listPrefix(prefix: string, continueKey: string): StoreElement<T>[];
  count(prefix: string, continueKey: string): number;
  clone(): OrderedLister<T>;
}

// ---- persistent AVL tree keyed by element key ----

interface TreeNode<T> {
  readonly elem: StoreElement<T>;
  readonly left: TreeNode<T> | null;
  readonly right: TreeNode<T> | null;
  readonly height: number;
  readonly size: number;
}

function height<T>(n: TreeNode<T> | null): number {
  return n ? n.height : 0;
}

function size<T>(n: TreeNode<T> | null): number {
  return n ? n.size : 0;
}

function node<T>(
  elem: StoreElement<T>,
  left: TreeNode<T> | null,
  right: TreeNode<T> | null,
): TreeNode<T> {
  return {
    elem,
    left,
    right,
    height: 1 + Math.max(height(left), height(right)),
    size: 1 + size(left) + size(right),
  };
}

function balance<T>(
  elem: StoreElement<T>,
  l: TreeNode<T> | null,
  r: TreeNode<T> | null,
): TreeNode<T> {
  const hl = height(l);
  const hr = height(r);
  if (hl > hr + 1) {
    const ll = l as TreeNode<T>;
    if (height(ll.left) >= height(ll.right)) return node(ll.elem, ll.left, node(elem, ll.right, r));
    const lr = ll.right as TreeNode<T>;
    return node(lr.elem, node(ll.elem, ll.left, lr.left), node(elem, lr.right, r));
  }
  if (hr > hl + 1) {
    const rr = r as TreeNode<T>;
    if (height(rr.right) >= height(rr.left)) return node(rr.elem, node(elem, l, rr.left), rr.right);
    const rl = rr.left as TreeNode<T>;
    return node(rl.elem, node(elem, l, rl.left), node(rr.elem, rl.right, rr.right));
  }
  return node(elem, l, r);
}

/** Returns the new root; `out.old` receives the replaced element (ReplaceOrInsert). */
function insert<T>(
  n: TreeNode<T> | null,
  elem: StoreElement<T>,
  out: { old?: StoreElement<T> },
): TreeNode<T> {
  if (!n) return node(elem, null, null);
  const c = compareKeys(elem.key, n.elem.key);
  if (c === 0) {
    out.old = n.elem;
    return { ...n, elem };
  }
  if (c < 0) return balance(n.elem, insert(n.left, elem, out), n.right);
  return balance(n.elem, n.left, insert(n.right, elem, out));
}

function removeMin<T>(n: TreeNode<T>, out: { min?: StoreElement<T> }): TreeNode<T> | null {
  if (!n.left) {
    out.min = n.elem;
    return n.right;
  }
  return balance(n.elem, removeMin(n.left, out), n.right);
}

function remove<T>(
  n: TreeNode<T> | null,
  key: string,
  out: { old?: StoreElement<T> },
): TreeNode<T> | null {
  if (!n) return null;
  const c = compareKeys(key, n.elem.key);
  if (c < 0) {
    const l = remove(n.left, key, out);
    return l === n.left ? n : balance(n.elem, l, n.right);
  }
  if (c > 0) {
    const r = remove(n.right, key, out);
    return r === n.right ? n : balance(n.elem, n.left, r);
  }
  out.old = n.elem;
  if (!n.left) return n.right;
  if (!n.right) return n.left;
  const m: { min?: StoreElement<T> } = {};
  const r = removeMin(n.right, m);
  return balance(m.min as StoreElement<T>, n.left, r);
}

function lookup<T>(n: TreeNode<T> | null, key: string): StoreElement<T> | undefined {
  while (n) {
    const c = compareKeys(key, n.elem.key);
    if (c === 0) return n.elem;
    n = c < 0 ? n.left : n.right;
  }
  return undefined;
}

/** In-order walk of the keys >= pivot (AscendGreaterOrEqual); `fn` returns false to stop. */
function ascendGreaterOrEqual<T>(
  root: TreeNode<T> | null,
  pivot: string,
  fn: (e: StoreElement<T>) => boolean,
): void {
  // The path to the pivot, then an explicit stack: no recursion, no allocation per element.
  const stack: TreeNode<T>[] = [];
  let n = root;
  while (n) {
    if (compareKeys(n.elem.key, pivot) >= 0) {
      stack.push(n);
      n = n.left;
    } else {
      n = n.right;
    }
  }
  while (stack.length) {
    const top = stack.pop() as TreeNode<T>;
    if (!fn(top.elem)) return;
    let r = top.right;
    while (r) {
      stack.push(r);
      r = r.left;
    }
  }
}

/**
 * The least string after every string that starts with `prefix`, in UTF-16 code unit order: its
 * last code unit below 0xFFFF plus one, what follows dropped; undefined when there is none (an
 * empty prefix, or one of 0xFFFF units only).
 */
export function prefixEnd(prefix: string): string | undefined {
  for (let i = prefix.length - 1; i >= 0; i--) {
    const c = prefix.charCodeAt(i);
    if (c < 0xffff) return prefix.slice(0, i) + String.fromCharCode(c + 1);
  }
  return undefined;
}

/**
 * `key.startsWith(prefix)`, as two comparisons with `end = prefixEnd(prefix)`: a key starts with
 * the prefix exactly when it is at or after the prefix and before `end`. strings.HasPrefix's
 * answer; V8's startsWith costs ten times these (a list of 10,000 keys spent 2.5 ms in it).
 */
export function hasPrefix(key: string, prefix: string, end: string | undefined): boolean {
  return key >= prefix && (end === undefined || key < end);
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/**
 * The elements whose key starts with `prefix`, from `continueKey` (inclusive; '' for the first),
 * in key order: the walk stops at the first key without the prefix (they are contiguous).
 */
function ascendPrefix<T>(
  root: TreeNode<T> | null,
  prefix: string,
  continueKey: string,
  fn: (e: StoreElement<T>) => void,
): void {
  const pivot = continueKey === '' ? prefix : continueKey;
  const end = prefixEnd(prefix);
  // Every key walked is at or after the pivot in Go's byte order; for an ASCII prefix that order and
  // JS's agree on a key against the prefix, so from a pivot at or after the prefix a key has the
  // prefix exactly when it is before `end` (one comparison per element, not two).
  const lowerHeld = isAscii(prefix) && pivot >= prefix;
  ascendGreaterOrEqual(root, pivot, (e) => {
    const k = e.key;
    if (lowerHeld ? end !== undefined && k >= end : !hasPrefix(k, prefix, end)) return false;
    fn(e);
    return true;
  });
}

/**
 * btreeStore: the key-ordered store of current objects. Its clone shares structure and is
 * immutable from then on, which is what a snapshot for an exact-RV list needs.
 */
export class OrderedStore<T = unknown> implements OrderedLister<T> {
  private root: TreeNode<T> | null;

  constructor(root: TreeNode<T> | null = null) {
    this.root = root;
  }

  get length(): number {
    return size(this.root);
  }

  clone(): OrderedStore<T> {
    return new OrderedStore(this.root);
  }

  /** ReplaceOrInsert; returns the element it replaced. */
  addOrUpdateElem(elem: StoreElement<T>): StoreElement<T> | undefined {
    const out: { old?: StoreElement<T> } = {};
    this.root = insert(this.root, elem, out);
    return out.old;
  }

  deleteElem(key: string): StoreElement<T> | undefined {
    const out: { old?: StoreElement<T> } = {};
    this.root = remove(this.root, key, out);
    return out.old;
  }

  getByKey(key: string): StoreElement<T> | undefined {
    return lookup(this.root, key);
  }

  list(): StoreElement<T>[] {
    const items: StoreElement<T>[] = [];
    ascendGreaterOrEqual(this.root, '', (e) => {
      items.push(e);
      return true;
    });
    return items;
  }

  listKeys(): string[] {
    return this.list().map((e) => e.key);
  }

  clear(): void {
    this.root = null;
  }

  listPrefix(prefix: string, continueKey: string): StoreElement<T>[] {
    const result: StoreElement<T>[] = [];
    ascendPrefix(this.root, prefix, continueKey, (e) => void result.push(e));
    return result;
  }

  count(prefix: string, continueKey: string): number {
    let count = 0;
    ascendPrefix(this.root, prefix, continueKey, () => void count++);
    return count;
  }
}

/**
 * store_btree.go `indexer`: index name -> index value -> key -> element. Keeps whole elements
 * (unlike client-go's indexer, which keeps keys).
 */
class ElementIndexer<T> {
  private indices = new Map<string, Map<string, Map<string, StoreElement<T>>>>();
  private readonly indexers: Indexers<T>;

  constructor(indexers: Indexers<T>) {
    this.indexers = indexers;
  }

  byIndex(indexName: string, indexValue: string): StoreElement<T>[] {
    if (!Object.prototype.hasOwnProperty.call(this.indexers, indexName)) {
      throw new Error(`index with name ${indexName} does not exist`);
    }
    const set = this.indices.get(indexName)?.get(indexValue);
    return set ? [...set.values()] : [];
  }

  hasIndex(indexName: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.indexers, indexName);
  }

  replace(elems: readonly StoreElement<T>[]): void {
    this.indices = new Map();
    for (const e of elems) this.updateElem(e.key, undefined, e);
  }

  updateElem(
    key: string,
    oldElem: StoreElement<T> | undefined,
    newElem: StoreElement<T> | undefined,
  ): void {
    for (const name of Object.keys(this.indexers)) {
      const indexFunc = this.indexers[name];
      const oldValues = oldElem ? this.values(indexFunc, oldElem, key, name) : [];
      const newValues = newElem ? this.values(indexFunc, newElem, key, name) : [];
      let index = this.indices.get(name);
      if (!index) {
        index = new Map();
        this.indices.set(name, index);
      }
      // The common case: one value, unchanged.
      if (newValues.length === 1 && oldValues.length === 1 && newValues[0] === oldValues[0]) {
        this.add(key, newValues[0], newElem as StoreElement<T>, index);
        continue;
      }
      for (const v of oldValues) this.delete(key, v, index);
      for (const v of newValues) this.add(key, v, newElem as StoreElement<T>, index);
    }
  }

  private values(
    indexFunc: IndexFunc<T>,
    elem: StoreElement<T>,
    key: string,
    name: string,
  ): string[] {
    try {
      return indexFunc(elem.object);
    } catch (e) {
      throw new Error(
        `unable to calculate an index entry for key ${JSON.stringify(key)} on index ${JSON.stringify(name)}: ${(e as Error).message}`,
      );
    }
  }

  private add(
    key: string,
    value: string,
    elem: StoreElement<T>,
    index: Map<string, Map<string, StoreElement<T>>>,
  ): void {
    let set = index.get(value);
    if (!set) {
      set = new Map();
      index.set(value, set);
    }
    set.set(key, elem);
  }

  private delete(
    key: string,
    value: string,
    index: Map<string, Map<string, StoreElement<T>>>,
  ): void {
    const set = index.get(value);
    if (!set) return;
    set.delete(key);
    // Empty sets of high-cardinality, short-lived values would otherwise pile up (kubernetes#84959).
    if (set.size === 0) index.delete(value);
  }
}

/**
 * threadedStoreIndexer (store.Indexer + OrderedLister): the watch cache's store of current
 * objects, ordered by key, with secondary indexes. BtreeWatchCache is GA and locked on in 1.36,
 * so this is the only store.
 */
export class WatchCacheStore<T = unknown> implements OrderedLister<T> {
  private readonly store = new OrderedStore<T>();
  private readonly indexer: ElementIndexer<T>;

  constructor(indexers: Indexers<T> = {}) {
    this.indexer = new ElementIndexer(indexers);
  }

  get length(): number {
    return this.store.length;
  }

  add(elem: StoreElement<T>): void {
    this.addOrUpdate(elem);
  }

  update(elem: StoreElement<T>): void {
    this.addOrUpdate(elem);
  }

  private addOrUpdate(elem: StoreElement<T>): void {
    const old = this.store.addOrUpdateElem(elem);
    this.indexer.updateElem(elem.key, old, elem);
  }

  delete(elem: Pick<StoreElement<T>, 'key'>): void {
    const old = this.store.deleteElem(elem.key);
    if (!old) return;
    this.indexer.updateElem(elem.key, old, undefined);
  }

  /** Every element, ordered by key. */
  list(): StoreElement<T>[] {
    return this.store.list();
  }

  listKeys(): string[] {
    return this.store.listKeys();
  }

  get(elem: Pick<StoreElement<T>, 'key'>): StoreElement<T> | undefined {
    return this.store.getByKey(elem.key);
  }

  getByKey(key: string): StoreElement<T> | undefined {
    return this.store.getByKey(key);
  }

  replace(elems: readonly StoreElement<T>[]): void {
    this.store.clear();
    for (const e of elems) this.store.addOrUpdateElem(e);
    this.indexer.replace(elems);
  }

  /** Elements with `indexValue` under `indexName`; throws `index with name X does not exist`. */
  byIndex(indexName: string, indexValue: string): StoreElement<T>[] {
    return this.indexer.byIndex(indexName, indexValue);
  }

  hasIndex(indexName: string): boolean {
    return this.indexer.hasIndex(indexName);
  }

  listPrefix(prefix: string, continueKey: string): StoreElement<T>[] {
    return this.store.listPrefix(prefix, continueKey);
  }

  count(prefix: string, continueKey: string): number {
    return this.store.count(prefix, continueKey);
  }

  /** An immutable view of the current contents, O(1). */
  clone(): OrderedLister<T> {
    return this.store.clone();
  }
}

interface RvSnapshot<T> {
  resourceVersion: number;
  snapshot: OrderedLister<T>;
}

/**
 * storeSnapshotter: snapshots of the ordered store by resource version, to serve lists at an
 * exact RV (ListFromCacheSnapshot). A request at RV r is served from the newest snapshot <= r.
 */
export class StoreSnapshotter<T = unknown> {
  // Ascending by RV; entries before `head` were removed (dropped lazily to keep removal O(1)).
  private items: RvSnapshot<T>[] = [];
  private head = 0;

  reset(): void {
    this.items = [];
    this.head = 0;
  }

  get length(): number {
    return this.items.length - this.head;
  }

  /** The snapshot with the greatest RV <= rv. */
  getLessOrEqual(rv: number): OrderedLister<T> | undefined {
    const i = this.upperBound(rv) - 1;
    return i >= this.head ? this.items[i].snapshot : undefined;
  }

  /** Stores a clone of `lister` at `rv`, replacing one already at that RV. */
  add(rv: number, lister: OrderedLister<T>): void {
    const entry = { resourceVersion: rv, snapshot: lister.clone() };
    const n = this.items.length;
    if (n === this.head || this.items[n - 1].resourceVersion < rv) {
      this.items.push(entry);
      return;
    }
    const i = this.upperBound(rv);
    if (i - 1 >= this.head && this.items[i - 1].resourceVersion === rv) this.items[i - 1] = entry;
    else this.items.splice(i, 0, entry);
  }

  /** Drops every snapshot with RV < rv. */
  removeLess(rv: number): void {
    while (this.head < this.items.length && this.items[this.head].resourceVersion < rv) {
      this.head++;
    }
    if (this.head === this.items.length) {
      this.reset();
    } else if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }

  /** Resource versions held, oldest first (for the event sink and tests). */
  resourceVersions(): number[] {
    return this.items.slice(this.head).map((s) => s.resourceVersion);
  }

  /** First index in [head, n) whose RV is > rv. */
  private upperBound(rv: number): number {
    let lo = this.head;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.items[mid].resourceVersion <= rv) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
