// No upstream counterpart: how many requests etcd received for one LIST, the one figure the Lists
// tab and the Clients tab both show (and the Clients tab's relist cost adds up).
import type { ListRecord } from '../run-model';

/** What the figure counts, in the words both tabs use for its legend. */
export const listEtcdRequestsText =
  "requests etcd received for this LIST (its request id): a consistent read's current-RV lookup and every range of the store's paging loop, which asks again, doubling its limit, while the selector leaves a call short of the client's limit";

/**
 * How many requests etcd received for a LIST: every etcd read folded into it (lists/fold), a
 * consistent read's current-RV lookup and every storage GetList's ranges, not only the pages of
 * the GetList that served it (a fallback's or a cache-served read's lookup went to etcd too).
 */
export function listEtcdRequests(l: ListRecord): number {
  return l.etcdRequests.length;
}
