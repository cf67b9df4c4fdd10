// No upstream counterpart: the watchList what-if. A client that LISTs a collection (one page or a
// chain) and then WATCHes it from the LIST's resourceVersion is what client-go's reflector does
// without the WatchListClient feature; with it, the reflector opens one watch with
// sendInitialEvents=true and resourceVersionMatch=NotOlderThan instead (reflector.go watchList).
// This pairs each such LIST with the WATCH that follows it and turns the pair into that watch.
import { parseQuery } from '../request/list-query';
import type { ScheduledRequest } from './replay-schedule';

/** A scheduled request, or a WATCH turned into a WatchList watch issued at its LIST's time. */
export interface ReplayStep extends ScheduledRequest {
  /** The watchList what-if made this watch from a LIST+WATCH pair. */
  watchList?: boolean;
}

function first(query: string, name: string): string {
  return parseQuery(query).get(name)?.[0] ?? '';
}

/** The collection and selectors a LIST or WATCH addresses, by client. */
function target(s: ScheduledRequest): string {
  return [
    s.client,
    s.group,
    s.resource,
    s.namespace,
    first(s.query, 'labelSelector'),
    first(s.query, 'fieldSelector'),
  ].join('\u0000');
}

/** Pairs LISTs with the WATCH that follows them; returns the steps and the number of pairs. */
export function asWatchLists(requests: readonly ScheduledRequest[]): {
  steps: ReplayStep[];
  pairs: number;
} {
  // The latest LIST chain of each target not yet followed by a watch: its pages.
  const open = new Map<string, ScheduledRequest[]>();
  const dropped = new Set<ScheduledRequest>();
  const moved = new Map<ScheduledRequest, number>();
  for (const s of requests) {
    const key = target(s);
    if (s.verb === 'list') {
      const cont = first(s.query, 'continue');
      const pages = open.get(key);
      if (cont && pages) pages.push(s);
      else if (!cont) open.set(key, [s]);
      continue;
    }
    if (s.verb !== 'watch') continue;
    const pages = open.get(key);
    // A reflector's watch resumes from its list's RV; a watch from "" or "0" is not one.
    const rv = first(s.query, 'resourceVersion');
    if (!pages || rv === '' || rv === '0') continue;
    open.delete(key);
    for (const p of pages) dropped.add(p);
    moved.set(s, pages[0].atMs);
  }
  const steps: ReplayStep[] = [];
  for (const s of requests) {
    if (dropped.has(s)) continue;
    const at = moved.get(s);
    steps.push(at === undefined ? s : { ...s, atMs: at, watchList: true });
  }
  // Stable: a moved watch goes where its LIST was.
  steps.sort((a, b) => a.atMs - b.atMs);
  return { steps, pairs: moved.size };
}
