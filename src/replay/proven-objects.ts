// No upstream counterpart: how many objects the log proves a LIST's collection held, at least, and
// by which proof. Every proof is a lower bound read off upstream's paging rules (etcd3 store
// GetList, the cacher's paged lists): a page's items + its remainingItemCount; the items of a
// complete chain (every page's body known, the last without continue); an unpaged LIST's items; a
// chain's pages at its limit (a page that answered with a continue token was full at its limit,
// and for an unfiltered LIST etcd had at least one more key). ResourceVersions prove writes
// happened (of any resource: etcd's revision is cluster-wide), never that objects exist, so they
// give no count. A proof holds at its LIST's time; the replay seeds the start of the log, so each
// proof is carried back to it: less the creates, plus the deletes the log shows before it in its
// scope (an assumption: the log holds every write there).
import { formatCount, plural } from '../format/count-text';
import { parseQuery } from '../request/list-query';
import { answeredWithToken, type ChainPlace } from './replay-chains';
import { resourceKey, type ScheduledRequest } from './replay-schedule';

/** The fewest objects one (namespace, selectors) of a resource held, and the proof in words. */
export interface ProvenCount {
  namespace: string;
  labelSelector: string;
  fieldSelector: string;
  /** At the start of the log: the proof's figure less the creates, plus the deletes, before it. */
  matching: number;
  proof: string;
}

/** The replayed creates and deletes the log shows before a LIST, in its scope. */
export interface WritesBefore {
  created: number;
  deleted: number;
}

/**
 * The writes before `s` in the scope of its LIST (its namespace, all when ''; its selectors).
 * Absent: no write is counted (the proofs are taken as at the start).
 */
export type WritesBeforeOf = (
  s: ScheduledRequest,
  labelSelector: string,
  fieldSelector: string,
) => WritesBefore;

/** `less 3 creates and plus 1 delete the log shows before it in default` ('' : none). */
function writesText(w: WritesBefore, namespace: string): string {
  const parts: string[] = [];
  if (w.created > 0) parts.push(`less ${plural(w.created, 'create')}`);
  if (w.deleted > 0) parts.push(`plus ${plural(w.deleted, 'delete')}`);
  if (parts.length === 0) return '';
  return `${parts.join(' and ')} the log shows before it ${namespace ? `in ${namespace}` : 'in all namespaces'}`;
}

export function where(s: ScheduledRequest): string {
  const src = s.request.sources[0];
  return src ? `${src.file}:${src.line}` : s.request.id;
}

/** The proofs each LIST (and each chain, at its last page) gives. */
export function proofsOf(
  s: ScheduledRequest,
  place: ChainPlace | undefined,
): Array<{ n: number; proof: string }> {
  const out: Array<{ n: number; proof: string }> = [];
  const resp = s.request.response;
  const q = parseQuery(s.query);
  const filtered = Boolean(q.get('labelSelector')?.[0] || q.get('fieldSelector')?.[0]);
  const limit = place?.chain.limit ?? 0;
  if (s.request.code === 200 && resp?.remainingItemCount !== undefined) {
    if (resp.items !== undefined)
      out.push({
        n: resp.items + resp.remainingItemCount,
        proof: `a page's ${formatCount(resp.items)} items + remainingItemCount ${formatCount(resp.remainingItemCount)} (${where(s)})`,
      });
    else if (resp.continue && limit > 0)
      out.push({
        n: limit + resp.remainingItemCount,
        proof: `a page full at limit=${limit} + remainingItemCount ${formatCount(resp.remainingItemCount)} (${where(s)})`,
      });
  }
  if (!place) return out;
  const { chain } = place;
  if (place.page !== chain.pages.length - 1) return out;
  // The chain's last page in the log: what the whole chain proves.
  const bodies = chain.pages.filter((p) => p.request.code === 200);
  const complete =
    !chain.orphan &&
    s.request.code === 200 &&
    resp !== undefined &&
    !resp.continue &&
    bodies.every((p) => p.request.response?.items !== undefined);
  if (complete) {
    const items = bodies.reduce((n, p) => n + (p.request.response?.items ?? 0), 0);
    out.push({
      n: items,
      proof:
        limit === 0
          ? `an unpaged LIST's ${formatCount(items)} items (${where(chain.pages[0])})`
          : `a complete ${chain.pages.length}-page chain's ${formatCount(items)} items at limit=${limit} (${where(chain.pages[0])})`,
    });
  }
  if (limit > 0) {
    const full = chain.pages.filter((_, page) => answeredWithToken({ chain, page })).length;
    if (full > 0)
      out.push({
        n: full * limit + (filtered ? 0 : 1),
        proof: `${plural(full, 'page')} of a ${chain.pages.length}-page chain answered with a continue token at limit=${limit}, so ${full === 1 ? 'it was' : 'each was'} full${filtered ? '' : ' and etcd held at least one more'} (${where(chain.pages[0])})`,
      });
  }
  return out;
}

/** Per resource, the largest proven count of each (namespace, selectors) and its proof. */
export function provenCounts(
  requests: readonly ScheduledRequest[],
  places: ReadonlyMap<ScheduledRequest, ChainPlace>,
  writesBefore?: WritesBeforeOf,
): Map<string, ProvenCount[]> {
  const counts = new Map<string, Map<string, ProvenCount>>();
  // The figure each kept proof gave at its own time.
  const then = new Map<string, number>();
  for (const s of requests) {
    if (s.verb !== 'list') continue;
    const q = parseQuery(s.query);
    const labelSelector = q.get('labelSelector')?.[0] ?? '';
    const fieldSelector = q.get('fieldSelector')?.[0] ?? '';
    const before = writesBefore?.(s, labelSelector, fieldSelector) ?? { created: 0, deleted: 0 };
    const back = writesText(before, s.namespace);
    for (const proved of proofsOf(s, places.get(s))) {
      // Carried back to the start of the log: what the writes before it added and removed.
      const n = Math.max(0, proved.n - before.created + before.deleted);
      const proof = back
        ? `${proved.proof}: ${formatCount(proved.n)} then, ${back} (if the log holds every write there)`
        : proved.proof;
      const key = resourceKey(s.group, s.resource);
      let m = counts.get(key);
      if (!m) counts.set(key, (m = new Map()));
      const k = `${key}\u0000${s.namespace}\u0000${labelSelector}\u0000${fieldSelector}`;
      const c = m.get(k);
      // Of equal counts at the start, the proof of more objects at its time says more.
      if (!c || n > c.matching || (n === c.matching && proved.n > (then.get(k) ?? 0))) {
        m.set(k, { namespace: s.namespace, labelSelector, fieldSelector, matching: n, proof });
        then.set(k, proved.n);
      }
    }
  }
  return new Map([...counts].map(([key, m]) => [key, [...m.values()]]));
}
