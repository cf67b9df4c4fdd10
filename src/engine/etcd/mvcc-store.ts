// Mirrors etcd server/storage/mvcc/kvstore.go, kvstore_txn.go and kvstore_compaction.go: the
// revisioned key space. Revisions start at 1 (an empty store) and grow by one per write
// transaction that changed something. Deliberate differences: no backend or sub-revisions on
// disk; a revision-ordered log of records (since the last compaction) stands in for the
// backend's revision-keyed bucket and feeds watch replay.

import { EtcdError } from './kv';
import { IndexTree, compareKeys } from './index-tree';
import {
  KeyHistory,
  KeyRecord,
  appendRecord,
  compactHistory,
  isLive,
  latestRecord,
  recordAt,
} from './key-index';

/** A key interval: a single key, or [start, end) with end undefined meaning "no upper bound". */
export interface KeyInterval {
  start: string;
  end: string | undefined;
  single: boolean;
}

/** etcd's range_end convention: '' = the single key, '\0' = every key >= key, else [key, rangeEnd). */
export function keyInterval(key: string, rangeEnd: string | undefined): KeyInterval {
  if (rangeEnd === undefined || rangeEnd === '')
    return { start: key, end: undefined, single: true };
  if (rangeEnd === '\0') return { start: key, end: undefined, single: false };
  return { start: key, end: rangeEnd, single: false };
}

export function inInterval(iv: KeyInterval, key: string): boolean {
  if (iv.single) return key === iv.start;
  return compareKeys(key, iv.start) >= 0 && (iv.end === undefined || compareKeys(key, iv.end) < 0);
}

export interface RangeResult {
  records: KeyRecord[];
  count: number;
  more: boolean;
  /** Index entries examined (a cost figure for timelines and tests). */
  visited: number;
}

/** The changes of one write transaction, all at revision `rev`. */
export interface WriteTxn {
  rev: number;
  changes: KeyRecord[];
}

/** Above this many changes since the read revision, counting walks the range instead of adjusting. */
const countAdjustLimit = 4096;

export class MvccStore {
  /** The newest revision (etcd currentRev): 1 for an empty store. */
  currentRev = 1;
  /** The last compacted revision (etcd compactMainRev): -1 before any compaction. */
  compactRev = -1;
  readonly index = new IndexTree<KeyHistory>(isLive);
  // Every record with modRevision >= compactRev, in revision order; entries before logHead are dropped.
  private log: KeyRecord[] = [];
  private logHead = 0;

  /** Checks a read revision like rangeKeys: 0 = current; future and compacted revisions fail. */
  resolveReadRev(rev: number | undefined, txn?: WriteTxn): number {
    const cur = txn && txn.changes.length ? txn.rev : this.currentRev;
    const r = rev ?? 0;
    if (r > cur) throw EtcdError.futureRev();
    const at = r <= 0 ? cur : r;
    if (at < this.compactRev) throw EtcdError.compacted();
    return at;
  }

  /** Keys of `iv` that exist at `rev` (already resolved), at most `limit` (0 = all) unless countOnly. */
  range(iv: KeyInterval, rev: number, limit: number, countOnly: boolean): RangeResult {
    if (iv.single) {
      const h = this.index.get(iv.start);
      const r = h && recordAt(h, rev);
      return { records: r && !countOnly ? [r] : [], count: r ? 1 : 0, more: false, visited: 1 };
    }
    const records: KeyRecord[] = [];
    let hitLimit = false;
    const before = this.index.visitedEntries;
    if (!countOnly) {
      const end = iv.end;
      this.index.scan(iv.start, (key, h) => {
        if (end !== undefined && compareKeys(key, end) >= 0) return false;
        const r = recordAt(h, rev);
        if (!r) return true;
        if (limit > 0 && records.length === limit) {
          hitLimit = true;
          return false;
        }
        records.push(r);
        return true;
      });
    }
    const count = countOnly || hitLimit ? this.countAt(iv, rev) : records.length;
    return {
      records,
      count,
      more: !countOnly && limit > 0 && count > limit,
      visited: this.index.visitedEntries - before,
    };
  }

  /** Keys of the interval that exist at `rev`, without walking the range when little changed since. */
  countAt(iv: KeyInterval, rev: number): number {
    let n = this.index.liveBetween(iv.start, iv.end);
    const from = this.firstLogIndexAfter(rev);
    const changed = this.log.length - from;
    if (changed === 0) return n;
    if (changed > countAdjustLimit && changed > n) return this.scanCount(iv, rev);
    // Start from the newest state and undo every key changed after rev.
    const seen = new Set<string>();
    for (let i = from; i < this.log.length; i++) {
      const key = this.log[i].key;
      if (seen.has(key) || !inInterval(iv, key)) continue;
      seen.add(key);
      const h = this.index.get(key);
      if (!h) continue;
      n += (recordAt(h, rev) ? 1 : 0) - (isLive(h) ? 1 : 0);
    }
    return n;
  }

  private scanCount(iv: KeyInterval, rev: number): number {
    let n = 0;
    this.index.scan(iv.start, (key, h) => {
      if (iv.end !== undefined && compareKeys(key, iv.end) >= 0) return false;
      if (recordAt(h, rev)) n++;
      return true;
    });
    return n;
  }

  beginWrite(): WriteTxn {
    return { rev: this.currentRev + 1, changes: [] };
  }

  /** Writes key=value in `txn`; returns the previous live record, if any. */
  put(txn: WriteTxn, key: string, value: string, lease: number): KeyRecord | undefined {
    const h = this.index.get(key);
    const prev = h && isLive(h) ? latestRecord(h) : undefined;
    const rec = prev
      ? new KeyRecord(key, value, prev.createRevision, txn.rev, prev.version + 1, lease)
      : new KeyRecord(key, value, txn.rev, txn.rev, 1, lease);
    this.index.set(key, appendRecord(h, rec));
    this.log.push(rec);
    txn.changes.push(rec);
    return prev;
  }

  /** Deletes every live key of the interval in `txn`; returns the records deleted. */
  deleteRange(txn: WriteTxn, iv: KeyInterval): KeyRecord[] {
    const victims = this.range(iv, Number.MAX_SAFE_INTEGER, 0, false).records;
    for (const prev of victims) {
      const h = this.index.get(prev.key) as KeyHistory;
      // A tombstone: etcd's delete event kv carries only the key and the delete's revision.
      const tomb = new KeyRecord(prev.key, '', 0, txn.rev, 0, 0);
      this.index.set(prev.key, appendRecord(h, tomb));
      this.log.push(tomb);
      txn.changes.push(tomb);
    }
    return victims;
  }

  /** Ends the transaction: the revision moves only when something changed (kvstore_txn End). */
  endWrite(txn: WriteTxn): number {
    if (txn.changes.length) this.currentRev = txn.rev;
    return this.currentRev;
  }

  /**
   * kvstore.Compact: forgets every revision older than `rev` except each key's newest record at
   * or before it (unless that is a tombstone). Reads below `rev` then fail with ErrCompacted.
   */
  compact(rev: number): void {
    if (rev <= this.compactRev) throw EtcdError.compacted();
    if (rev > this.currentRev) throw EtcdError.futureRev();
    // Only keys written since the previous compaction can hold more than one record.
    const upTo = this.firstLogIndexAfter(rev);
    const keys = new Set<string>();
    for (let i = this.logHead; i < upTo; i++) keys.add(this.log[i].key);
    for (const key of keys) {
      const h = this.index.get(key);
      if (!h) continue;
      const kept = compactHistory(h, rev);
      if (kept === undefined) this.index.delete(key);
      else if (kept !== h) this.index.set(key, kept);
    }
    // The log keeps revisions >= rev, minus tombstones at exactly rev: etcd compaction removes
    // those from the backend too, so a watch from rev does not replay them.
    let head = this.firstLogIndexAfter(rev - 1);
    const atRev: KeyRecord[] = [];
    while (head < upTo) {
      const r = this.log[head++];
      if (r.version !== 0) atRev.push(r);
    }
    this.log = atRev.concat(this.log.slice(upTo));
    this.logHead = 0;
    this.compactRev = rev;
  }

  /**
   * Records with modRevision >= minRev for a watcher's interval, at most `maxRevs` distinct
   * revisions (etcd watchBatchMaxRevs); `moreRev` is the first revision left out, or 0.
   */
  eventsFrom(
    minRev: number,
    accept: (r: KeyRecord) => boolean,
    maxRevs: number,
  ): { records: KeyRecord[]; moreRev: number } {
    const records: KeyRecord[] = [];
    let revs = 0;
    let lastRev = 0;
    for (let i = this.firstLogIndexAfter(minRev - 1); i < this.log.length; i++) {
      const r = this.log[i];
      if (!accept(r)) continue;
      if (r.modRevision !== lastRev) {
        if (revs >= maxRevs) return { records, moreRev: r.modRevision };
        revs++;
        lastRev = r.modRevision;
      }
      records.push(r);
    }
    return { records, moreRev: 0 };
  }

  /** The record of `key` at `rev`, or undefined (also when rev is compacted). */
  get(key: string, rev: number): KeyRecord | undefined {
    if (rev < this.compactRev || rev <= 0) return undefined;
    const h = this.index.get(key);
    return h && recordAt(h, rev);
  }

  /** Records held in the revision log (a memory figure). */
  get logLength(): number {
    return this.log.length - this.logHead;
  }

  /** Index of the first log record with modRevision > rev. */
  private firstLogIndexAfter(rev: number): number {
    let lo = this.logHead;
    let hi = this.log.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.log[mid].modRevision <= rev) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
