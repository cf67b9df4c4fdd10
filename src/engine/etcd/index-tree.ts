// Mirrors etcd server/storage/mvcc/index.go (treeIndex: keys in a B-tree, google/btree).
// Deliberate difference: a B+tree written for this simulator that also counts, per subtree, the
// keys that exist at the newest revision, so "how many keys in [a, b)" costs O(log n) instead of
// a walk over the range (etcd walks; the simulator must stay fast at 1,000,000 keys).

import { compareStrings } from '../storage/go-strings';

/** Entries per leaf and children per inner node. */
const maxNodeSize = 64;

/** Code units from which UTF-16 order and UTF-8 byte order can disagree. */
const highUnits = /[\uD800-\uFFFF]/;

/**
 * etcd orders keys as bytes (UTF-8). JavaScript's `<` compares UTF-16 code units; the two agree
 * unless both keys hold units >= 0xD800, where Go's byte order (compareStrings) decides. The fast
 * path matters: every range and insert at 1,000,000 keys compares keys.
 */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  if (!highUnits.test(a) || !highUnits.test(b)) return a < b ? -1 : 1;
  return compareStrings(a, b);
}

interface Leaf<V> {
  leaf: true;
  keys: string[];
  vals: V[];
  alive: boolean[];
  live: number;
}

interface Inner<V> {
  leaf: false;
  /** keys[i] <= every key in children[i] and > every key in children[i-1]. */
  keys: string[];
  children: TreeNode<V>[];
  live: number;
}

type TreeNode<V> = Leaf<V> | Inner<V>;

/**
 * An ordered map from key to V, with a count of "live" entries (as decided by `isLive`) kept per
 * subtree. Call `set` again after changing a value in place, so the counts follow.
 */
export class IndexTree<V> {
  private root: TreeNode<V> = newLeaf<V>();
  private entries = 0;
  /** Entries examined by `scan` since construction: lets tests check a limited range stays cheap. */
  visitedEntries = 0;
  // Out-parameters of the recursive insert/remove, to avoid allocating a result per call.
  private splitOut: TreeNode<V> | undefined;
  private deltaOut = 0;
  private addedOut = false;

  private readonly isLive: (v: V) => boolean;

  constructor(isLive: (v: V) => boolean) {
    this.isLive = isLive;
  }

  /** Number of keys (live or not). */
  get size(): number {
    return this.entries;
  }

  /** Number of live keys. */
  get liveSize(): number {
    return this.root.live;
  }

  get(key: string): V | undefined {
    const plain = !highUnits.test(key);
    let node = this.root;
    while (!node.leaf) node = node.children[childIndex(node.keys, key, plain)];
    const i = lowerBound(node.keys, key, plain);
    return i < node.keys.length && node.keys[i] === key ? node.vals[i] : undefined;
  }

  /** Inserts or replaces; recomputes liveness of the entry. */
  set(key: string, val: V): void {
    this.splitOut = undefined;
    this.deltaOut = 0;
    this.addedOut = false;
    this.insert(this.root, key, val, !highUnits.test(key));
    if (this.addedOut) this.entries++;
    const split = this.splitOut as TreeNode<V> | undefined;
    if (split) {
      const old = this.root;
      this.root = {
        leaf: false,
        keys: [firstKey(old), firstKey(split)],
        children: [old, split],
        live: old.live + split.live,
      };
    }
  }

  /** Removes `key`; returns whether it was there. */
  delete(key: string): boolean {
    this.deltaOut = 0;
    this.addedOut = false; // reused as "removed"
    this.remove(this.root, key, !highUnits.test(key));
    if (!this.addedOut) return false;
    this.entries--;
    while (!this.root.leaf && this.root.children.length === 1) this.root = this.root.children[0];
    return true;
  }

  /** Number of live keys k with k < key. */
  liveBefore(key: string): number {
    const plain = !highUnits.test(key);
    let acc = 0;
    let node = this.root;
    while (!node.leaf) {
      const i = childIndex(node.keys, key, plain);
      for (let j = 0; j < i; j++) acc += node.children[j].live;
      node = node.children[i];
    }
    const idx = lowerBound(node.keys, key, plain);
    for (let j = 0; j < idx; j++) if (node.alive[j]) acc++;
    return acc;
  }

  /** Number of live keys in [start, end); end undefined = no upper bound. */
  liveBetween(start: string, end: string | undefined): number {
    const hi = end === undefined ? this.root.live : this.liveBefore(end);
    return Math.max(0, hi - this.liveBefore(start));
  }

  /** Visits entries with key >= start in order until `fn` returns false. */
  scan(start: string, fn: (key: string, val: V) => boolean): void {
    this.walk(this.root, start, !highUnits.test(start), fn);
  }

  private walk(
    node: TreeNode<V>,
    start: string,
    plain: boolean,
    fn: (key: string, val: V) => boolean,
  ): boolean {
    if (node.leaf) {
      for (let i = lowerBound(node.keys, start, plain); i < node.keys.length; i++) {
        this.visitedEntries++;
        if (!fn(node.keys[i], node.vals[i])) return false;
      }
      return true;
    }
    for (let j = childIndex(node.keys, start, plain); j < node.children.length; j++) {
      if (!this.walk(node.children[j], start, plain, fn)) return false;
    }
    return true;
  }

  private insert(node: TreeNode<V>, key: string, val: V, plain: boolean): void {
    if (node.leaf) {
      const i = lowerBound(node.keys, key, plain);
      const live = this.isLive(val);
      if (i < node.keys.length && node.keys[i] === key) {
        const was = node.alive[i];
        node.vals[i] = val;
        node.alive[i] = live;
        this.deltaOut = (live ? 1 : 0) - (was ? 1 : 0);
      } else {
        node.keys.splice(i, 0, key);
        node.vals.splice(i, 0, val);
        node.alive.splice(i, 0, live);
        this.deltaOut = live ? 1 : 0;
        this.addedOut = true;
      }
      node.live += this.deltaOut;
      this.splitOut = node.keys.length > maxNodeSize ? splitLeaf(node) : undefined;
      return;
    }
    const i = childIndex(node.keys, key, plain);
    if (i === 0 && (plain ? key < node.keys[0] : compareKeys(key, node.keys[0]) < 0))
      node.keys[0] = key;
    this.insert(node.children[i], key, val, plain);
    node.live += this.deltaOut;
    const split = this.splitOut as TreeNode<V> | undefined;
    if (split) {
      node.children.splice(i + 1, 0, split);
      node.keys.splice(i + 1, 0, firstKey(split));
    }
    this.splitOut = node.children.length > maxNodeSize ? splitInner(node) : undefined;
  }

  private remove(node: TreeNode<V>, key: string, plain: boolean): void {
    if (node.leaf) {
      const i = lowerBound(node.keys, key, plain);
      if (i >= node.keys.length || node.keys[i] !== key) return;
      this.deltaOut = node.alive[i] ? -1 : 0;
      node.keys.splice(i, 1);
      node.vals.splice(i, 1);
      node.alive.splice(i, 1);
      node.live += this.deltaOut;
      this.addedOut = true;
      return;
    }
    const i = childIndex(node.keys, key, plain);
    const child = node.children[i];
    this.remove(child, key, plain);
    node.live += this.deltaOut;
    // Empty children go; separators may stay stale-low, which still routes correctly.
    if (
      (child.leaf ? child.keys.length : child.children.length) === 0 &&
      node.children.length > 1
    ) {
      node.children.splice(i, 1);
      node.keys.splice(i, 1);
    }
  }
}

function newLeaf<V>(): Leaf<V> {
  return { leaf: true, keys: [], vals: [], alive: [], live: 0 };
}

function firstKey<V>(n: TreeNode<V>): string {
  return n.keys[0];
}

function splitLeaf<V>(node: Leaf<V>): Leaf<V> {
  const mid = node.keys.length >> 1;
  const right: Leaf<V> = {
    leaf: true,
    keys: node.keys.splice(mid),
    vals: node.vals.splice(mid),
    alive: node.alive.splice(mid),
    live: 0,
  };
  for (const a of right.alive) if (a) right.live++;
  node.live -= right.live;
  return right;
}

function splitInner<V>(node: Inner<V>): Inner<V> {
  const mid = node.children.length >> 1;
  const right: Inner<V> = {
    leaf: false,
    keys: node.keys.splice(mid),
    children: node.children.splice(mid),
    live: 0,
  };
  for (const c of right.children) right.live += c.live;
  node.live -= right.live;
  return right;
}

/** First index whose key is >= key. */
function lowerBound(keys: string[], key: string, plain: boolean): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (plain ? keys[mid] < key : compareKeys(keys[mid], key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The child whose range holds key: the last i with keys[i] <= key, or 0. */
function childIndex(keys: string[], key: string, plain: boolean): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (plain ? keys[mid] <= key : compareKeys(keys[mid], key) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? 0 : lo - 1;
}
