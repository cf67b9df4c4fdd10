// No upstream counterpart: folds the model's `serialization`: the encodes and cache hits of the
// cacher's CachingObjects, in total, per watcher identifier and per dispatched event (bounded),
// and their lazy deep copies and invalidations over time.
import type { SerializationEvent } from '../../engine';
import type {
  SerializationEventRecord,
  SerializationIdentifierTotals,
  SerializationSummary,
} from '../run-model';
import type { SeriesLimit } from './series-limit';

type CopiesPoint = { at: number; lazyDeepCopies: number; invalidations: number };

export class SerializationFold {
  private encodes = 0;
  private hits = 0;
  private lazyDeepCopies = 0;
  private invalidations = 0;
  private readonly perIdentifier: Record<string, SerializationIdentifierTotals> = {};
  private readonly perEvent = new Map<string, SerializationEventRecord>();
  private perEventDropped = 0;
  private readonly copies: CopiesPoint[] = [];

  constructor(
    private readonly series: SeriesLimit,
    /** Records kept per dispatched event. */
    private readonly perEventLimit: number,
  ) {}

  encoded(e: SerializationEvent): void {
    this.encodes += e.encodes;
    this.hits += e.hits;
    const id = (this.perIdentifier[e.identifier] ??= { encodes: 0, hits: 0, bytes: 0 });
    id.encodes += e.encodes;
    id.hits += e.hits;
    id.bytes += e.bytes * e.encodes;
    const key = `${e.resourceVersion}\u0000${e.key}\u0000${e.eventType}`;
    let rec = this.perEvent.get(key);
    if (!rec) {
      if (this.perEvent.size >= this.perEventLimit) {
        this.perEventDropped++;
        return;
      }
      rec = { at: e.at, rv: e.resourceVersion, eventType: e.eventType, perIdentifier: {} };
      this.perEvent.set(key, rec);
    }
    const pi = (rec.perIdentifier[e.identifier] ??= { encodes: 0, hits: 0, bytes: 0 });
    pi.encodes += e.encodes;
    pi.hits += e.hits;
    if (e.bytes > 0) pi.bytes = e.bytes;
  }

  /** A CachingObject made its lazy deep copy. */
  deepCopied(at: number): void {
    this.lazyDeepCopies++;
    this.noteCopies(at);
  }

  /** A CachingObject's cached encodings were invalidated. */
  invalidated(at: number): void {
    this.invalidations++;
    this.noteCopies(at);
  }

  /** The summary so far (its totals and arrays its own; the newest per-event record is shared). */
  finish(): SerializationSummary {
    const perIdentifier: Record<string, SerializationIdentifierTotals> = {};
    for (const [k, v] of Object.entries(this.perIdentifier)) perIdentifier[k] = { ...v };
    return {
      encodes: this.encodes,
      hits: this.hits,
      lazyDeepCopies: this.lazyDeepCopies,
      invalidations: this.invalidations,
      perIdentifier,
      perEvent: [...this.perEvent.values()],
      ...(this.perEventDropped ? { perEventDropped: this.perEventDropped } : {}),
      ...(this.copies.length ? { copies: this.copies.map((c) => ({ ...c })) } : {}),
    };
  }

  /** One point per instant: a second change at the same instant updates it. */
  private noteCopies(at: number): void {
    const last = this.copies[this.copies.length - 1];
    const point = { at, lazyDeepCopies: this.lazyDeepCopies, invalidations: this.invalidations };
    if (last && last.at === at) Object.assign(last, point);
    else this.series.push(this.copies, point, 'serialization.copies');
  }
}
