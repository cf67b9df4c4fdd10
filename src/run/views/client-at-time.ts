// A client's figures at a moment of virtual time (the scrubber's): only what had happened by then
// counts (a LIST sent, a page answered, a watch ended). No upstream counterpart. Plain functions
// over RunModel data (client-records.ts), shared by the webview's Clients tab and the tests.
import type {
  ClientListChain,
  ClientListCost,
  ClientRecord,
  ClientWatchRequest,
  VirtualMs,
  WatcherStateName,
} from '../run-model';
import { lastIndexAtOrBefore } from './watcher-states';

export interface ClientFigures {
  /** Requests sent by then. */
  lists: number;
  watches: number;
  /** LIST pages and WATCHes answered or ended with 410 by then. */
  expired: number;
  /** Watches sent by then that restarted after an earlier one ended. */
  restarts: number;
  /**
   * Relists sent by then (LIST chains and WatchList watches), and what the relist chains' pages
   * answered by then cost (a WatchList relist's initial events are not told apart from its watch's).
   */
  relists: number;
  relistCost: ClientListCost;
  /** Of `relists`, those by a WatchList WATCH (their cost is not in relistCost). */
  watchListRelists: number;
}

export function emptyCost(): ClientListCost {
  return { pages: 0, items: 0, etcdRequests: 0, keysFetched: 0, ms: 0 };
}

/** A chain's cost from the pages answered by `at`: ms from its first page sent to the last answered. */
export function chainCostAt(
  c: ClientRecord,
  chain: ClientListChain,
  at: VirtualMs,
): ClientListCost {
  const cost = emptyCost();
  let first: number | undefined;
  let last: number | undefined;
  for (const i of chain.pages) {
    const r = c.requests[i];
    if (r.kind !== 'list' || r.at > at) continue;
    first ??= r.at;
    if (r.endedAt === undefined || r.endedAt > at) continue;
    // A page's attempts cost what etcd did for each; the page counts once.
    if (r.retryOf === undefined) cost.pages++;
    cost.items += r.cost.items;
    cost.etcdRequests += r.cost.etcdRequests;
    cost.keysFetched += r.cost.keysFetched;
    last = r.endedAt;
  }
  if (first !== undefined && last !== undefined) cost.ms = last - first;
  return cost;
}

function addCost(into: ClientListCost, c: ClientListCost): void {
  into.pages += c.pages;
  into.items += c.items;
  into.etcdRequests += c.etcdRequests;
  into.keysFetched += c.keysFetched;
  into.ms += c.ms;
}

export function clientFiguresAt(c: ClientRecord, at: VirtualMs): ClientFigures {
  const f: ClientFigures = {
    lists: 0,
    watches: 0,
    expired: 0,
    restarts: 0,
    relists: 0,
    relistCost: emptyCost(),
    watchListRelists: 0,
  };
  for (const r of c.requests) {
    if (r.at > at) break;
    if (r.kind === 'list') {
      f.lists++;
      if (r.error?.code === 410 && r.endedAt !== undefined && r.endedAt <= at) f.expired++;
    } else {
      f.watches++;
      if (r.restart) f.restarts++;
      if (r.relist) {
        f.relists++;
        f.watchListRelists++;
      }
      if (r.end && r.end.how === 'expired' && r.end.at <= at) f.expired++;
    }
  }
  for (const chain of c.chains) {
    if (!chain.relist) continue;
    const first = c.requests[chain.pages[0]];
    if (!first || first.at > at) continue;
    f.relists++;
    addCost(f.relistCost, chainCostAt(c, chain, at));
  }
  return f;
}

/** A watch at `at`: not sent, one of the cacheWatcher states, waiting for its answer, or ended. */
export type ClientWatchPhase = 'notSent' | 'pending' | WatcherStateName | 'ended';

export function clientWatchPhaseAt(w: ClientWatchRequest, at: VirtualMs): ClientWatchPhase {
  if (w.at > at) return 'notSent';
  if (w.end && w.end.at <= at) return 'ended';
  const i = lastIndexAtOrBefore(w.states, at);
  return i < 0 ? 'pending' : w.states[i].state;
}
