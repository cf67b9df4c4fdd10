// No upstream counterpart: a bounded list for the import's per-client records (pagination chains,
// watches, relists). Memory stays bounded for millions of requests: at most `limit` items are
// kept, the notable ones first (a notable item pushes out the oldest plain one), and the rest are
// counted, never silently lost.

export class Retained<T> {
  private readonly kept: Array<{ item: T; notable: boolean }> = [];
  /** Items not kept (or pushed out), counted. */
  dropped = 0;
  /** Every item offered. */
  total = 0;

  constructor(readonly limit: number) {}

  add(item: T, notable: boolean): void {
    this.total++;
    if (this.kept.length < this.limit) {
      this.kept.push({ item, notable });
      return;
    }
    this.dropped++;
    if (!notable) return;
    const plain = this.kept.findIndex((k) => !k.notable);
    if (plain < 0) return;
    this.kept.splice(plain, 1);
    this.kept.push({ item, notable });
  }

  /** The kept items in the order they were added. */
  items(): T[] {
    return this.kept.map((k) => k.item);
  }
}
