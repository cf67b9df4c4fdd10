// No upstream counterpart: relists found in an import, by the live run's rule
// (src/inspector/relist-rule.ts: the reflector, client-go tools/cache/reflector.go, answers a failed
// watch by listing again after its backoff). Per client (user agent and user) and resource: the
// last watch that ended early or with a 410 (watch-durations.ts), and whether the next LIST from
// scratch (or, for a WatchList client, the next sendInitialEvents=true watch) came soon enough.
import { relistWindowMs } from '../inspector/relist-rule';
import { earlyWatchEndRule, endsEarly, type WatchEnd, type WatchOutcome } from './watch-durations';

export const importRelistRule = `a relist is a LIST from scratch (no continue), or for a WatchList client a WATCH with sendInitialEvents=true, that the same client (user agent and user) sends for the same resource (group, resource, namespace) at most ${relistWindowMs / 1000} s after a watch of it ended early, with a 410 or was refused, with no WATCH of it received between (the live run's rule, src/inspector/relist-rule.ts); ${earlyWatchEndRule}`;

/** One relist: when, of what, and the watch end that caused it. */
export interface Relist {
  at: number;
  /** The resource, as relists.ts keys it (`pods`, `widgets.example.com in shop`). */
  resource: string;
  user?: string;
  /** How: a LIST, or a WatchList client's new sendInitialEvents watch. */
  via: 'list' | 'watch-list';
  /** Seconds from the watch's end to the relist. */
  gapSeconds: number;
  because: WatchEnd;
  /** The pagination chain the LIST started (PaginationChain.id). */
  chain?: number;
  /** `file:line` of the relist and of the watch that ended. */
  line: string;
  watchLine: string;
}

interface EndedWatch {
  at: number;
  how: WatchEnd;
  line: string;
}

export class RelistDetector {
  /** The last ended watch per `user\nresource`, until a relist or a new watch. */
  private readonly ended = new Map<string, EndedWatch>();

  /**
   * A WATCH was read: a relist when it is a WatchList client's new initial-events watch soon after
   * an early end; its own end then counts for what follows.
   */
  watch(
    key: string,
    receivedAt: number | undefined,
    outcome: WatchOutcome,
    watchList: boolean,
    line: string,
  ): Omit<Relist, 'resource' | 'user'> | undefined {
    const relist = watchList ? this.check(key, receivedAt, 'watch-list', line) : undefined;
    const prev = this.ended.get(key);
    if (prev && receivedAt !== undefined && receivedAt >= prev.at) this.ended.delete(key);
    if (outcome.endedAt !== undefined && endsEarly(outcome.how)) {
      const cur = this.ended.get(key);
      if (!cur || cur.at <= outcome.endedAt)
        this.ended.set(key, { at: outcome.endedAt, how: outcome.how, line });
    }
    return relist;
  }

  /** A LIST from scratch was read: a relist when it came soon after an early end. */
  list(
    key: string,
    receivedAt: number | undefined,
    line: string,
  ): Omit<Relist, 'resource' | 'user'> | undefined {
    return this.check(key, receivedAt, 'list', line);
  }

  private check(
    key: string,
    at: number | undefined,
    via: Relist['via'],
    line: string,
  ): Omit<Relist, 'resource' | 'user'> | undefined {
    const w = this.ended.get(key);
    if (!w || at === undefined || at < w.at || at - w.at > relistWindowMs) return undefined;
    this.ended.delete(key);
    return { at, via, gapSeconds: (at - w.at) / 1000, because: w.how, line, watchLine: w.line };
  }
}
