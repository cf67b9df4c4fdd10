// No upstream counterpart: folds the fragments the parsers read (RequestFragment, line-parser.ts)
// into one ImportedRequest per request, over one timeline of every file: by audit ID (the stages
// of an audit event, a kubectl -v=8 response's Audit-Id header), by a parser's join key, or to the
// latest watch of the same client stream; and, with time joins on, a client's record without
// Audit-Id to the audit event of the same request (time-verb-url-join.ts), when the first of the
// two is emitted. A completed request waits a merge window of log time before it is emitted, so
// that another file's lines for it can still join; memory is bounded by the requests open (or
// waiting) at once, with a cap beyond which the oldest are emitted early.
import type { ImportedRequest, JoinedBy } from '../run/imported-request';
import type { RequestFields, RequestFragment } from './line-parser';
import { RecentIDs } from './recent-ids';
import { JoinSide, joinDistance, joinSideOf, joinSignature } from './time-verb-url-join';

export interface MergerOptions {
  /** Log time a completed request waits for more fragments before it is emitted (settable later). */
  mergeWindowMs: number;
  /** Requests held at once (open or waiting); beyond, the oldest is emitted early. */
  maxPending: number;
  emit(r: ImportedRequest): void;
  /** A watch's first fragment, the watch still open: its fields so far (they are not final). */
  opened?(fields: RequestFields): void;
  /** Join client records without Audit-Id to audit events by time, verb and URL (settable later). */
  timeJoin?: boolean;
}

/** What the merger did beyond folding, for the import's result. */
export interface MergeStats {
  /** The most requests held at once. */
  maxPending: number;
  /** Completed requests emitted before their merge window ended (the cap was reached). */
  closedEarly: number;
  /** Open requests emitted as open (endInFile false) because the cap was reached. */
  evicted: number;
  /** Fragments naming an audit ID already emitted: they became a request of their own. */
  late: number;
}

/** Audit IDs remembered after emission, to tell a late fragment from a new request. */
const recentAuditIDs = 10_000;

/** One request being folded; a class so that every one has the same shape (the merger's hot path). */
class Pending {
  auditID: string | undefined = undefined;
  /** byAuditID names it under auditID (a request emitted without being held never is). */
  registered = false;
  /** Set when it is emitted under an ID of its own (a late fragment). */
  ownID: string | undefined = undefined;
  readonly sources: RequestFragment['source'][] = [];
  complete = false;
  /** The key under which it is the latest watch of its stream and resource. */
  watchKey: string | undefined = undefined;
  /** Join keys registered for it (file-qualified); most requests have none. */
  keys: string[] | undefined = undefined;
  /** In the closing queue since this log time (undefined: not queued). */
  closeAt: number | undefined = undefined;
  done = false;
  /** Its neighbours in the held list (oldest first), while held. */
  prev: Pending | undefined = undefined;
  next: Pending | undefined = undefined;
  held = false;
  /** The sides of the connection its sources record (JoinSide bits). */
  sides: number = JoinSide.None;
  /** Under this signature in the time-join index, while it waits for its other side. */
  signature: string | undefined = undefined;
  joinedBy: JoinedBy | undefined = undefined;

  constructor(readonly fields: RequestFields) {}
}

export class RequestMerger {
  readonly stats: MergeStats = { maxPending: 0, closedEarly: 0, evicted: 0, late: 0 };
  private readonly byAuditID = new Map<string, Pending>();
  private readonly byKey = new Map<string, Pending>();
  private readonly lastWatch = new Map<string, Pending>();
  /** One-sided requests held, by verb and URL, that a time join may pair (timeJoin only). */
  private readonly unjoined = new Map<string, Pending[]>();
  private timeJoin: boolean;
  /**
   * Every held request in the order it began, a list through Pending.prev/next (no hashing on
   * the way in and out): the oldest is evicted first.
   */
  private heldFirst: Pending | undefined;
  private heldLast: Pending | undefined;
  private heldCount = 0;
  /** Completed requests in the order their window ends (log time only moves forward). */
  private closing: Pending[] = [];
  private closingHead = 0;
  /** The last recentAuditIDs emitted: the oldest is forgotten as a new one comes. */
  private readonly emitted = new RecentIDs(recentAuditIDs);
  private now = -Infinity;

  private mergeWindowMs: number;

  constructor(private readonly o: MergerOptions) {
    this.mergeWindowMs = o.mergeWindowMs;
    this.timeJoin = o.timeJoin ?? false;
  }

  /** Turns time joins on before the first fragment (the reader knows the formats only then). */
  setTimeJoin(on: boolean): void {
    this.timeJoin = on;
  }

  /** Changes the window before the first fragment (the reader knows the formats only then). */
  setMergeWindow(ms: number): void {
    this.mergeWindowMs = ms;
  }

  /** Requests held right now (open or waiting for their window). */
  get pending(): number {
    return this.heldCount;
  }

  add(f: RequestFragment): void {
    if (f.time !== undefined && f.time > this.now) {
      this.now = f.time;
      this.closeDue();
    }
    const auditID = f.fields.auditID;
    const key = f.key !== undefined ? `${f.source.file}\0${f.key}` : undefined;
    let p: Pending | undefined;
    if (auditID !== undefined) p = this.byAuditID.get(auditID);
    if (key !== undefined) {
      const byKey = this.byKey.get(key);
      if (p === undefined) p = byKey;
      else if (byKey !== undefined && byKey !== p) this.absorb(p, byKey);
    }
    if (p === undefined && f.attach === 'last-watch' && f.stream !== undefined)
      p = this.lastWatch.get(watchKeyOf(f, f.fields));
    let first = false;
    if (p === undefined) {
      // The merger owns the fragments it is given: the first one's fields become the request's.
      p = new Pending(f.fields);
      first = true;
      // A watch's end whose start the log does not have: a watch that began before the file.
      if (f.attach === 'last-watch') {
        f.fields.verb ??= 'watch';
        f.fields.startInFile ??= false;
      }
      if (auditID !== undefined && this.emitted.has(auditID)) {
        this.stats.late++;
        p.ownID = `${auditID}@${f.source.file}:${f.source.line}`;
      }
      // One line that is the whole request (a ResponseComplete with RequestReceived omitted),
      // with nothing to wait for: emitted without being held.
      if (f.complete && this.mergeWindowMs === 0 && key === undefined && f.stream === undefined) {
        p.sources.push(f.source);
        p.auditID = auditID;
        p.complete = true;
        this.emitNow(p);
        return;
      }
      this.hold(p);
    }
    p.sources.push(f.source);
    p.sides |= joinSideOf(f.source.format);
    // The process a client log names: the relist rule tells two kubectl runs apart by it.
    if (f.stream !== undefined) p.fields.clientProcess ??= f.stream;
    if (!first) fold(p.fields, f.fields);
    else if (!f.complete && p.fields.verb === 'watch') this.o.opened?.(p.fields);
    if (auditID !== undefined && p.auditID === undefined) {
      p.auditID = auditID;
      p.registered = true;
      this.byAuditID.set(auditID, p);
    }
    if (key !== undefined && !p.keys?.includes(key)) {
      (p.keys ??= []).push(key);
      this.byKey.set(key, p);
    }
    if (f.stream !== undefined && p.fields.verb === 'watch' && f.attach === undefined)
      this.becomeLastWatch(p, watchKeyOf(f, p.fields));
    if (this.timeJoin && p.signature === undefined && timeJoinable(p)) this.indexUnjoined(p);
    if (f.complete && !p.complete) {
      p.complete = true;
      // Without a window there is nothing to wait for: it goes now, in the order it completed.
      if (p.watchKey === undefined) {
        if (this.mergeWindowMs === 0) this.emitNow(p);
        else this.queueClose(p);
      }
    }
    while (this.heldCount > this.o.maxPending) this.evictOldest();
    if (this.heldCount > this.stats.maxPending) this.stats.maxPending = this.heldCount;
  }

  /** The input ended: every request still held is emitted, open ones with endInFile false. */
  finish(): void {
    // Completed ones first, in the order they completed; then the open ones, oldest first.
    for (let i = this.closingHead; i < this.closing.length; i++) this.emitNow(this.closing[i]);
    this.closing = [];
    this.closingHead = 0;
    while (this.heldFirst !== undefined) this.emitNow(this.heldFirst);
  }

  private hold(p: Pending): void {
    p.held = true;
    p.prev = this.heldLast;
    if (this.heldLast === undefined) this.heldFirst = p;
    else this.heldLast.next = p;
    this.heldLast = p;
    this.heldCount++;
  }

  private release(p: Pending): void {
    if (!p.held) return;
    p.held = false;
    if (p.prev === undefined) this.heldFirst = p.next;
    else p.prev.next = p.next;
    if (p.next === undefined) this.heldLast = p.prev;
    else p.next.prev = p.prev;
    p.prev = p.next = undefined;
    this.heldCount--;
  }

  private becomeLastWatch(p: Pending, k: string): void {
    if (p.watchKey === k) return;
    const previous = this.lastWatch.get(k);
    this.lastWatch.set(k, p);
    p.watchKey = k;
    if (previous && previous !== p) {
      // The older watch can no longer be attached to: its window starts now.
      previous.watchKey = undefined;
      if (previous.complete) this.queueClose(previous);
    }
  }

  /** Two fragments chains turned out to be one request (a key and an audit ID met). */
  private absorb(into: Pending, from: Pending): void {
    into.sources.push(...from.sources);
    fold(into.fields, from.fields);
    for (const k of from.keys ?? []) {
      (into.keys ??= []).push(k);
      this.byKey.set(k, into);
    }
    if (from.complete) into.complete = true;
    if (from.registered && from.auditID !== undefined && this.byAuditID.get(from.auditID) === from)
      this.byAuditID.delete(from.auditID);
    if (from.watchKey !== undefined && this.lastWatch.get(from.watchKey) === from) {
      this.lastWatch.set(from.watchKey, into);
      into.watchKey = from.watchKey;
    }
    from.done = true;
    this.release(from);
    if (into.complete && into.watchKey === undefined && into.closeAt === undefined)
      this.queueClose(into);
  }

  private queueClose(p: Pending): void {
    if (p.closeAt !== undefined || p.done) return;
    p.closeAt = this.now;
    this.closing.push(p);
  }

  private closeDue(): void {
    const until = this.now - this.mergeWindowMs;
    while (this.closingHead < this.closing.length) {
      const p = this.closing[this.closingHead];
      if (!p.done && (p.closeAt ?? -Infinity) > until) break;
      this.closingHead++;
      if (!p.done) this.emitNow(p, true);
    }
    if (this.closingHead > 1024 && this.closingHead * 2 > this.closing.length) {
      this.closing = this.closing.slice(this.closingHead);
      this.closingHead = 0;
    }
  }

  private evictOldest(): void {
    while (this.closingHead < this.closing.length) {
      const p = this.closing[this.closingHead++];
      if (p.done) continue;
      this.stats.closedEarly++;
      this.emitNow(p);
      return;
    }
    const oldest = this.heldFirst as Pending;
    if (oldest.complete) this.stats.closedEarly++;
    else this.stats.evicted++;
    this.emitNow(oldest);
  }

  /** `mayHold`: a request that became its stream's latest watch by a join stays held. */
  private emitNow(p: Pending, mayHold = false): void {
    if (p.done) return;
    if (p.signature !== undefined) {
      const joined = this.joinByTime(p);
      if (mayHold && joined.watchKey !== undefined) {
        // The client's watch it joined is still open to its reflector's lines: it is queued
        // again when another watch of the stream begins, or emitted at the end.
        joined.closeAt = undefined;
        return;
      }
      if (joined !== p) {
        this.emitNow(joined);
        return;
      }
    }
    p.done = true;
    this.release(p);
    if (p.auditID !== undefined) {
      if (p.registered && this.byAuditID.get(p.auditID) === p) this.byAuditID.delete(p.auditID);
      this.emitted.add(p.auditID);
    }
    for (const k of p.keys ?? []) if (this.byKey.get(k) === p) this.byKey.delete(k);
    if (p.watchKey !== undefined && this.lastWatch.get(p.watchKey) === p)
      this.lastWatch.delete(p.watchKey);
    this.o.emit(toRequest(p));
  }

  private indexUnjoined(p: Pending): void {
    const signature = joinSignature(p.fields);
    if (signature === undefined) return;
    p.signature = signature;
    const list = this.unjoined.get(signature);
    if (list) list.push(p);
    else this.unjoined.set(signature, [p]);
  }

  private unindex(p: Pending): void {
    const signature = p.signature;
    if (signature === undefined) return;
    p.signature = undefined;
    const list = this.unjoined.get(signature) as Pending[];
    const i = list.indexOf(p);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) this.unjoined.delete(signature);
  }

  /**
   * `p`, about to be emitted, joined to the nearest held record of the other side with its
   * verb and URL (time-verb-url-join.ts); the request to emit: the audit side, holding both.
   */
  private joinByTime(p: Pending): Pending {
    const list = this.unjoined.get(p.signature as string) as Pending[];
    this.unindex(p);
    if (!timeJoinable(p)) return p;
    let best: Pending | undefined;
    let bestDistance = Infinity;
    for (const q of list ?? []) {
      if (q.done || q.sides === p.sides || !timeJoinable(q)) continue;
      const d =
        p.sides === JoinSide.Server
          ? joinDistance(p.fields, q.fields)
          : joinDistance(q.fields, p.fields);
      if (d !== undefined && d < bestDistance) {
        best = q;
        bestDistance = d;
      }
    }
    if (best === undefined) return p;
    this.unindex(best);
    // The audit event's fields come first (the server's times, code and user agent); the
    // client's fill what it lacks (a user agent it did not log, the latency, a -v=8 body).
    const [into, from] = p.sides === JoinSide.Server ? [p, best] : [best, p];
    this.absorb(into, from);
    into.joinedBy = 'time-verb-url';
    return into;
  }
}

/**
 * A record the time join may pair: all its sources on one side, an audit event by its audit ID,
 * a client's record with none (an Audit-Id already names its event).
 */
function timeJoinable(p: Pending): boolean {
  if (p.sides === JoinSide.Server) return p.auditID !== undefined;
  return p.sides === JoinSide.Client && p.auditID === undefined;
}

function watchKeyOf(f: RequestFragment, fields: RequestFields): string {
  return `${f.source.file}\0${f.stream ?? ''}\0${fields.objectRef?.resource ?? ''}`;
}

/**
 * The first value of each field is kept (endInFile is the merger's own). objectRef is folded field
 * by field: the apiserver fills a create's objectRef.name only once it has decoded the body, so
 * the RequestReceived event lacks the name that ResponseComplete carries.
 */
function fold(into: RequestFields, from: RequestFields): void {
  if (into.objectRef !== undefined && from.objectRef !== undefined)
    into.objectRef = { ...from.objectRef, ...definedFields(into.objectRef) };
  for (const k in from) {
    const key = k as keyof RequestFields;
    if (into[key] === undefined && from[key] !== undefined)
      (into as Record<string, unknown>)[key] = from[key];
  }
}

function definedFields<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The request, made of the fields folded so far (no copy: they are emitted once). */
function toRequest(p: Pending): ImportedRequest {
  const r = p.fields as ImportedRequest;
  const first = p.sources[0];
  r.id = p.ownID ?? p.auditID ?? `${first.file}:${first.line}`;
  r.sources = p.sources;
  r.verb ??= r.method?.toLowerCase() ?? '';
  r.requestURI ??= '';
  r.userAgent ??= '';
  r.startInFile ??= true;
  r.endInFile = p.complete;
  // Sources in more than one file are one request by the audit ID both name, unless the time
  // join made them one (keys and watch streams are within a file).
  const joinedBy =
    p.joinedBy ?? (p.sources.some((s) => s.file !== first.file) ? 'audit-id' : undefined);
  if (joinedBy !== undefined) r.joinedBy = joinedBy;
  return r;
}
