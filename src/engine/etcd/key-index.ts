// Mirrors etcd server/storage/mvcc/key_index.go (keyIndex: a key's revisions and generations).
// Deliberate difference: instead of revision pointers into a backend, a key keeps its records
// themselves, oldest first; a delete is a tombstone record (version 0) that ends a generation.
// A key with one record (the common case) stores that record directly, not an array, to keep
// memory per key small (1,000,000 keys in benchmarks).

/** One revision of one key: what etcd's backend stores under that revision. */
export class KeyRecord {
  key: string;
  value: string;
  createRevision: number;
  modRevision: number;
  /** 0 marks a tombstone (the key was deleted at modRevision). */
  version: number;
  lease: number;

  constructor(
    key: string,
    value: string,
    createRevision: number,
    modRevision: number,
    version: number,
    lease: number,
  ) {
    this.key = key;
    this.value = value;
    this.createRevision = createRevision;
    this.modRevision = modRevision;
    this.version = version;
    this.lease = lease;
  }

  get isTombstone(): boolean {
    return this.version === 0;
  }
}

/** A key's records ordered by modRevision: one record, or an array of two or more. */
export type KeyHistory = KeyRecord | KeyRecord[];

export function latestRecord(h: KeyHistory): KeyRecord {
  return Array.isArray(h) ? h[h.length - 1] : h;
}

/** True when the key exists at the newest revision. */
export function isLive(h: KeyHistory): boolean {
  return latestRecord(h).version !== 0;
}

/** The key's record visible at `rev` (the newest with modRevision <= rev), if the key existed then. */
export function recordAt(h: KeyHistory, rev: number): KeyRecord | undefined {
  if (!Array.isArray(h)) return h.modRevision <= rev && h.version !== 0 ? h : undefined;
  // Reads are mostly at or near the newest revision: scan from the end.
  for (let i = h.length - 1; i >= 0; i--) {
    const r = h[i];
    if (r.modRevision <= rev) return r.version !== 0 ? r : undefined;
  }
  return undefined;
}

/** The history with `rec` (a newer revision) appended. */
export function appendRecord(h: KeyHistory | undefined, rec: KeyRecord): KeyHistory {
  if (h === undefined) return rec;
  if (Array.isArray(h)) {
    h.push(rec);
    return h;
  }
  return [h, rec];
}

/**
 * keyIndex.compact: drops every record older than the newest one at or before `rev`; that one
 * is dropped too when it is a tombstone (its generation is over). Undefined = nothing left, the
 * key leaves the index.
 */
export function compactHistory(h: KeyHistory, rev: number): KeyHistory | undefined {
  if (!Array.isArray(h)) {
    return h.modRevision <= rev && h.version === 0 ? undefined : h;
  }
  let i = h.length - 1;
  while (i >= 0 && h[i].modRevision > rev) i--;
  if (i < 0) return h;
  let keep = h.slice(i);
  if (keep[0].version === 0) keep = keep.slice(1);
  if (keep.length === 0) return undefined;
  return keep.length === 1 ? keep[0] : keep;
}
