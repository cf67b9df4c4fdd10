// No upstream counterpart: how many objects the log proves a LIST's collection held, at least, and
// by which proof. Every proof is a lower bound read off upstream's paging rules (etcd3 store
// GetList, the cacher's paged lists): a page's items + its remainingItemCount; the items of a
// complete chain (every page's body known, the last without continue); an unpaged LIST's items; a
// chain's pages at its limit (a page that answered with a continue token was full at its limit,
// and for an unfiltered LIST etcd had at least one more key). ResourceVersions prove writes
// happened (of any resource: etcd's revision is cluster-wide), never that objects exist, so they
// give no count.
import { formatCount, plural } from '../format/count-text';
import { parseQuery } from '../request/list-query';
import { answeredWithToken, type ChainPlace } from './replay-chains';
import { resourceKey, type ScheduledRequest } from './replay-schedule';

/** The fewest objects one (namespace, selectors) of a resource held, and the proof in words. */
export interface ProvenCount {
  namespace: string;
  labelSelector: string;
  fieldSelector: string;
  matching: number;
  proof: string;
}

function where(s: ScheduledRequest): string {
  const src = s.request.sources[0];
  return src ? `${src.file}:${src.line}` : s.request.id;
}

/** The proofs each LIST (and each chain, at its last page) gives. */
function proofsOf(
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
): Map<string, ProvenCount[]> {
  const counts = new Map<string, Map<string, ProvenCount>>();
  for (const s of requests) {
    if (s.verb !== 'list') continue;
    const q = parseQuery(s.query);
    const labelSelector = q.get('labelSelector')?.[0] ?? '';
    const fieldSelector = q.get('fieldSelector')?.[0] ?? '';
    for (const { n, proof } of proofsOf(s, places.get(s))) {
      const key = resourceKey(s.group, s.resource);
      let m = counts.get(key);
      if (!m) counts.set(key, (m = new Map()));
      const k = `${s.namespace}\u0000${labelSelector}\u0000${fieldSelector}`;
      const c = m.get(k);
      if (!c || n > c.matching)
        m.set(k, { namespace: s.namespace, labelSelector, fieldSelector, matching: n, proof });
    }
  }
  return new Map([...counts].map(([key, m]) => [key, [...m.values()]]));
}
