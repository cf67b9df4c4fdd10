// No upstream counterpart: relists found in an import, by the live run's rule
// (src/run/relist-rule.ts: the reflector, client-go tools/cache/reflector.go, answers a failed
// watch by listing again after its backoff). Per client (user agent and user) and resource: the
// last watch that ended early or with a 410 (watch-durations.ts), and whether the next LIST from
// scratch (or, for a WatchList client, the next sendInitialEvents=true watch) came soon enough.
// A watch is read when it ends, and a client log's watch only once its stream's next watch begins
// (request-merger.ts): the LIST that followed its end may have been read first, so LISTs from
// scratch are remembered a while and a watch that ended early looks back at them.
import type { Relist, WatchEnd } from '../run/import-report';
import {
  endedAfterListing,
  relistsAfter,
  relistWindowMs,
  type RelistVia,
} from '../run/relist-rule';
import { earlyWatchEndRule, endsEarly, type WatchOutcome } from './watch-durations';

export const importRelistRule = `a relist is a LIST from scratch (no continue), or for a WatchList client a WATCH with sendInitialEvents=true, that the same client (user agent and user, and where client logs name both sides' processes, the same process: klog's pid in its file) sends for the same resource (group, resource, namespace) at most ${relistWindowMs / 1000} s after a watch of it ended early, with a 410 (its response's, or inside its stream: the too old resource version its client logged) or was refused, with no WATCH of it received between; a WatchList WATCH refused, or ended before the end of its initial events its client logged, was the list itself, and what follows it retries that list (the live run's rule, src/run/relist-rule.ts); ${earlyWatchEndRule}`;

interface EndedWatch {
  at: number;
  how: WatchEnd;
  line: string;
  /** The client process its client log names (ImportedRequest.clientProcess). */
  process?: string;
}

/** A LIST from scratch read before the watch whose end it may follow; `ref` is the caller's. */
interface ListedFromScratch<Ref> {
  at: number;
  line: string;
  ref: Ref;
  process?: string;
}

/**
 * Whether a watch's end and a later request may be one client's: the same user agent and user
 * (the key), and not two processes the client logs prove differ (klog's pid): `kubectl wait` and a
 * later `kubectl get` share both, yet the get is no relist of the wait's watch. Where either side
 * names no process (an audit event only), the user agent and user are all there is to go by.
 */
export function sameClientProcess(a: string | undefined, b: string | undefined): boolean {
  return a === undefined || b === undefined || a === b;
}

export type FoundRelist = Omit<Relist, 'resource' | 'user'>;

/**
 * Watch starts (and LISTs from scratch) remembered per `user\nresource`, and keys remembered (the
 * least recent go first).
 */
const opensPerKey = 8;
const maxOpenKeys = 10_000;

export class RelistDetector<Ref = undefined> {
  /** The last ended watch per `user\nresource`, until a relist or a new watch. */
  private readonly ended = new Map<string, EndedWatch>();
  /**
   * When watches still open were received, per `user\nresource`: the import emits a request when
   * it ends, so a long watch comes after the LISTs received after it; these say it was there.
   */
  private readonly opens = new Map<string, number[]>();
  /** LISTs from scratch not (yet) found to be relists, per `user\nresource`, the latest few. */
  private readonly lists = new Map<string, Array<ListedFromScratch<Ref>>>();

  /** A watch received at `at` is open (it is read again, by `watch`, when it ends). */
  opened(key: string, at: number): void {
    const times = this.opens.get(key) ?? [];
    this.opens.delete(key);
    times.push(at);
    if (times.length > opensPerKey) times.shift();
    this.opens.set(key, times);
    if (this.opens.size > maxOpenKeys) this.opens.delete(this.opens.keys().next().value as string);
  }

  /**
   * A WATCH was read: a relist when it is a WatchList client's new initial-events watch soon after
   * an early end; its own end then counts for what follows, unless it was a WatchList watch that
   * ended before its initial events did (`initialEventsEnded` false: relist-rule.ts
   * endedAfterListing). What follows may have been read already: a LIST from scratch remembered
   * (`list`) that came soon after this end is a relist too, returned with its `ref`.
   */
  watch(
    key: string,
    receivedAt: number | undefined,
    outcome: WatchOutcome,
    watchList: boolean,
    line: string,
    initialEventsEnded?: boolean,
    process?: string,
  ): { relist?: FoundRelist; listedBefore?: { relist: FoundRelist; ref: Ref } } {
    const relist = watchList ? this.check(key, receivedAt, 'watch-list', line, process) : undefined;
    const prev = this.ended.get(key);
    if (prev && receivedAt !== undefined && receivedAt >= prev.at) this.ended.delete(key);
    if (
      outcome.endedAt !== undefined &&
      endsEarly(outcome.how) &&
      endedAfterListing(watchList, initialEventsEnded)
    ) {
      const cur = this.ended.get(key);
      if (!cur || cur.at <= outcome.endedAt)
        this.ended.set(key, {
          at: outcome.endedAt,
          how: outcome.how,
          line,
          ...(process !== undefined ? { process } : {}),
        });
    }
    const listedBefore = this.lookBack(key);
    return { ...(relist ? { relist } : {}), ...(listedBefore ? { listedBefore } : {}) };
  }

  /**
   * A LIST from scratch was read: a relist when it came soon after an early end; else remembered
   * with `ref`, for a watch whose end is read later.
   */
  list(
    key: string,
    receivedAt: number | undefined,
    line: string,
    ref: Ref,
    process?: string,
  ): FoundRelist | undefined {
    const found = this.check(key, receivedAt, 'list', line, process);
    if (!found && receivedAt !== undefined) {
      const listed = this.lists.get(key) ?? [];
      this.lists.delete(key);
      listed.push({ at: receivedAt, line, ref, ...(process !== undefined ? { process } : {}) });
      if (listed.length > opensPerKey) listed.shift();
      this.lists.set(key, listed);
      if (this.lists.size > maxOpenKeys)
        this.lists.delete(this.lists.keys().next().value as string);
    }
    return found;
  }

  /** The first remembered LIST that the key's ended watch makes a relist (it is then forgotten). */
  private lookBack(key: string): { relist: FoundRelist; ref: Ref } | undefined {
    const w = this.ended.get(key);
    const listed = this.lists.get(key);
    if (!w || !listed) return undefined;
    const i = listed.findIndex(
      (l) => relistsAfter(w.at, l.at) && sameClientProcess(w.process, l.process),
    );
    if (i < 0) return undefined;
    const [l] = listed.splice(i, 1);
    const relist = this.check(key, l.at, 'list', l.line, l.process);
    return relist ? { relist, ref: l.ref } : undefined;
  }

  private check(
    key: string,
    at: number | undefined,
    via: RelistVia,
    line: string,
    process: string | undefined,
  ): FoundRelist | undefined {
    const w = this.ended.get(key);
    if (!w || at === undefined || !relistsAfter(w.at, at)) return undefined;
    // Another process's request: the ended watch waits for its own process's.
    if (!sameClientProcess(w.process, process)) return undefined;
    this.ended.delete(key);
    // A WATCH received between the end and this request: the client watched again, not relisted.
    if (this.opens.get(key)?.some((t) => t >= w.at && t < at)) return undefined;
    return {
      at,
      via,
      gapSeconds: Math.round(at - w.at) / 1000,
      because: w.how,
      line,
      watchLine: w.line,
      ...(w.process !== undefined && w.process === process ? { process } : {}),
    };
  }
}
