// Mirrors k8s.io/apiserver pkg/storage/cacher/store/store.go + store_btree.go (release-1.36).
// The ordered store is upstream's shape: a copy-on-write B-tree of degree 16 (google/btree).
// Deliberate differences: the snapshotter is a sorted ring of (RV, snapshot) instead of a B-tree (the
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

// ---- copy-on-write B-tree keyed by element key (github.com/google/btree, generic BTreeG) ----
// A port of google/btree's insert, remove and ascend, step for step so it reads against upstream,
// rather than an npm B-tree (another shape, and a runtime package in the engine). Nodes keep
// elements in arrays: a walk of 10,000 elements touches ~500 nodes, not 10,000 scattered ones.

/** store.go btreeDegree: nodes hold degree-1 .. 2*degree-1 items (google/btree New(degree)). */
const btreeDegree = 16;
const maxItems = btreeDegree * 2 - 1;
const minItems = btreeDegree - 1;

/**
 * A node: sorted items and, unless a leaf (children null), items.length + 1 children. `cow` is the
 * copyOnWriteContext of the tree that may write it in place; any other tree copies it first.
 */
class BNode<T> {
  constructor(
    public items: StoreElement<T>[],
    public children: BNode<T>[] | null,
    public cow: object,
  ) {}
}

/** The first index whose item's key is >= key (items.find). */
function lowerBound<T>(items: readonly StoreElement<T>[], key: string): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareKeys(items[mid].key, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** copyOnWriteContext.mutableFor: `n` itself when `cow` owns it, else a copy that `cow` owns. */
function mutableFor<T>(n: BNode<T>, cow: object): BNode<T> {
  if (n.cow === cow) return n;
  return new BNode(n.items.slice(), n.children && n.children.slice(), cow);
}

/** node.mutableChild: children[i] made writable in place (`n` is writable already). */
function mutableChild<T>(n: BNode<T>, i: number): BNode<T> {
  const children = n.children as BNode<T>[];
  const c = mutableFor(children[i], n.cow);
  children[i] = c;
  return c;
}

/** node.split: items[i] goes up; `n` keeps what is before it, the returned node what is after. */
function split<T>(n: BNode<T>, i: number): [StoreElement<T>, BNode<T>] {
  const item = n.items[i];
  const next = new BNode(n.items.slice(i + 1), n.children && n.children.slice(i + 1), n.cow);
  n.items.length = i;
  if (n.children) n.children.length = i + 1;
  return [item, next];
}

/** node.maybeSplitChild: splits a full children[i]; true if it did. */
function maybeSplitChild<T>(n: BNode<T>, i: number): boolean {
  if ((n.children as BNode<T>[])[i].items.length < maxItems) return false;
  const [item, second] = split(mutableChild(n, i), maxItems >> 1);
  n.items.splice(i, 0, item);
  (n.children as BNode<T>[]).splice(i + 1, 0, second);
  return true;
}

/** node.insert into a writable, non-full node; returns the element replaced. */
function insertInto<T>(n: BNode<T>, elem: StoreElement<T>): StoreElement<T> | undefined {
  for (;;) {
    let i = lowerBound(n.items, elem.key);
    if (i < n.items.length && compareKeys(n.items[i].key, elem.key) === 0) {
      const old = n.items[i];
      n.items[i] = elem;
      return old;
    }
    if (!n.children) {
      n.items.splice(i, 0, elem);
      return undefined;
    }
    if (maybeSplitChild(n, i)) {
      const c = compareKeys(elem.key, n.items[i].key);
      if (c === 0) {
        const old = n.items[i];
        n.items[i] = elem;
        return old;
      }
      if (c > 0) i++;
    }
    n = mutableChild(n, i);
  }
}

/**
 * node.remove from a writable node: the item with `key`, or the greatest item when `key` is
 * undefined (removeMax). Children on the way down are first grown past minItems, so a removal
 * never leaves a node short.
 */
function removeFrom<T>(n: BNode<T>, key: string | undefined): StoreElement<T> | undefined {
  for (;;) {
    let i: number;
    let found = false;
    if (key === undefined) {
      if (!n.children) return n.items.pop();
      i = n.items.length;
    } else {
      i = lowerBound(n.items, key);
      found = i < n.items.length && compareKeys(n.items[i].key, key) === 0;
      if (!n.children) return found ? n.items.splice(i, 1)[0] : undefined;
    }
    if (n.children[i].items.length <= minItems) {
      growChild(n, i);
      continue; // growChildAndRemove: the node changed, look again
    }
    const child = mutableChild(n, i);
    if (found) {
      // The item is replaced by its predecessor, the greatest item of the child before it.
      const old = n.items[i];
      n.items[i] = removeFrom(child, undefined) as StoreElement<T>;
      return old;
    }
    n = child;
  }
}

/** growChildAndRemove's first half: children[i] takes an item from a sibling, or merges with one. */
function growChild<T>(n: BNode<T>, i: number): void {
  const children = n.children as BNode<T>[];
  if (i > 0 && children[i - 1].items.length > minItems) {
    const child = mutableChild(n, i);
    const from = mutableChild(n, i - 1);
    child.items.unshift(n.items[i - 1]);
    n.items[i - 1] = from.items.pop() as StoreElement<T>;
    if (from.children) (child.children as BNode<T>[]).unshift(from.children.pop() as BNode<T>);
  } else if (i < n.items.length && children[i + 1].items.length > minItems) {
    const child = mutableChild(n, i);
    const from = mutableChild(n, i + 1);
    child.items.push(n.items[i]);
    n.items[i] = from.items.shift() as StoreElement<T>;
    if (from.children) (child.children as BNode<T>[]).push(from.children.shift() as BNode<T>);
  } else {
    if (i >= n.items.length) i--;
    const child = mutableChild(n, i);
    const merged = n.items.splice(i, 1)[0];
    const right = children.splice(i + 1, 1)[0];
    child.items.push(merged, ...right.items);
    if (right.children) (child.children as BNode<T>[]).push(...right.children);
  }
}

function lookup<T>(n: BNode<T> | null, key: string): StoreElement<T> | undefined {
  while (n) {
    const i = lowerBound(n.items, key);
    if (i < n.items.length && compareKeys(n.items[i].key, key) === 0) return n.items[i];
    n = n.children && n.children[i];
  }
  return undefined;
}

/**
 * In-order walk of the keys >= pivot (AscendGreaterOrEqual; pivot undefined: every key); `fn`
 * returns false to stop. Returns false when stopped. Recursion depth is the tree's height (4 for
 * a million keys).
 */
function ascend<T>(
  n: BNode<T>,
  pivot: string | undefined,
  fn: (e: StoreElement<T>) => boolean,
): boolean {
  const items = n.items;
  const children = n.children;
  let i = pivot === undefined ? 0 : lowerBound(items, pivot);
  if (!children) {
    for (; i < items.length; i++) if (!fn(items[i])) return false;
    return true;
  }
  // Only the first child walked can hold keys below the pivot.
  for (; i < items.length; i++) {
    if (!ascend(children[i], pivot, fn)) return false;
    pivot = undefined;
    if (!fn(items[i])) return false;
  }
  return ascend(children[i], pivot, fn);
}

function ascendGreaterOrEqual<T>(
  root: BNode<T> | null,
  pivot: string,
  fn: (e: StoreElement<T>) => boolean,
): void {
  if (root) ascend(root, pivot === '' ? undefined : pivot, fn);
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
  root: BNode<T> | null,
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
  private root: BNode<T> | null = null;
  private size = 0;
  // copyOnWriteContext: the nodes this store may write in place (those it made since its last clone).
  private cow: object = {};

  get length(): number {
    return this.size;
  }

  /** BTreeG.Clone: both sides get a new context, so neither writes a node they now share. */
  clone(): OrderedStore<T> {
    const out = new OrderedStore<T>();
    out.root = this.root;
    out.size = this.size;
    this.cow = {};
    return out;
  }

  /** ReplaceOrInsert; returns the element it replaced. */
  addOrUpdateElem(elem: StoreElement<T>): StoreElement<T> | undefined {
    if (!this.root) {
      this.root = new BNode([elem], null, this.cow);
      this.size++;
      return undefined;
    }
    let root = mutableFor(this.root, this.cow);
    if (root.items.length >= maxItems) {
      const [item, second] = split(root, maxItems >> 1);
      root = new BNode([item], [root, second], this.cow);
    }
    this.root = root;
    const old = insertInto(root, elem);
    if (!old) this.size++;
    return old;
  }

  deleteElem(key: string): StoreElement<T> | undefined {
    // A missing key leaves the tree as it is (no node copied, none regrown).
    if (!this.root || !lookup(this.root, key)) return undefined;
    const root = mutableFor(this.root, this.cow);
    const old = removeFrom(root, key);
    this.root = root.items.length > 0 ? root : root.children && root.children[0];
    if (old) this.size--;
    return old;
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
    this.size = 0;
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
