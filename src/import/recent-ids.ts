// No upstream counterpart: the audit IDs the import's merger emitted last (RequestMerger tells a
// late fragment from a new request by them). It behaves exactly as a Set with a ring of the last
// `limit` additions, where each addition first deletes the ring's oldest entry from the Set, but
// it hashes and probes in typed arrays of its own: with a Set of each line's fresh ID string, V8
// hashed every string on first use and every lookup missed the cache into a table rehashed as it
// churned, about a third of the merger's time on a large audit log.

export class RecentIDs {
  /** Open addressing, linear probing: the members, and the hash of each slot's member. */
  private readonly keys: Array<string | undefined>;
  private readonly hashes: Int32Array;
  private readonly mask: number;
  /** The last `limit` additions in order, and their hashes (a member is in the table once). */
  private readonly ring: Array<string | undefined>;
  private readonly ringHashes: Int32Array;
  private at = 0;

  constructor(private readonly limit: number) {
    // At most `limit` members: a table four times as large keeps probe runs short.
    let capacity = 16;
    while (capacity < limit * 4) capacity *= 2;
    this.keys = new Array<string | undefined>(capacity).fill(undefined);
    this.hashes = new Int32Array(capacity);
    this.mask = capacity - 1;
    this.ring = new Array<string | undefined>(limit).fill(undefined);
    this.ringHashes = new Int32Array(limit);
  }

  has(id: string): boolean {
    return this.find(id, hashOf(id)) >= 0;
  }

  /** Remembers `id`, forgetting the addition `limit` additions ago (even one repeated since). */
  add(id: string): void {
    const oldest = this.ring[this.at];
    if (oldest !== undefined) {
      const slot = this.find(oldest, this.ringHashes[this.at]);
      if (slot >= 0) this.removeAt(slot);
    }
    const h = hashOf(id);
    if (this.find(id, h) < 0) this.insert(id, h);
    this.ring[this.at] = id;
    this.ringHashes[this.at] = h;
    this.at = (this.at + 1) % this.limit;
  }

  private find(id: string, h: number): number {
    const keys = this.keys;
    for (let i = h & this.mask; ; i = (i + 1) & this.mask) {
      const k = keys[i];
      if (k === undefined) return -1;
      if (this.hashes[i] === h && k === id) return i;
    }
  }

  private insert(id: string, h: number): void {
    let i = h & this.mask;
    while (this.keys[i] !== undefined) i = (i + 1) & this.mask;
    this.keys[i] = id;
    this.hashes[i] = h;
  }

  /** Empties slot `i`, moving later members of its probe run back so that none is cut off. */
  private removeAt(i: number): void {
    const mask = this.mask;
    for (let j = (i + 1) & mask; this.keys[j] !== undefined; j = (j + 1) & mask) {
      const home = this.hashes[j] & mask;
      // j's member may fill the hole at i unless its home lies cyclically within (i, j].
      const fits = i <= j ? home <= i || home > j : home <= i && home > j;
      if (!fits) continue;
      this.keys[i] = this.keys[j];
      this.hashes[i] = this.hashes[j];
      i = j;
    }
    this.keys[i] = undefined;
  }
}

/** FNV-1a over the UTF-16 code units. */
function hashOf(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h | 0;
}
