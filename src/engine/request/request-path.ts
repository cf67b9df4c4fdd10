// No upstream counterpart as one file: the URL a client (client-go's request builder) sends for a
// list, watch or object request, i.e. what pkg/endpoints/request's RequestInfoFactory parses back.
// The API version is not part of a GroupResource: core resources are `/api/v1`, others
// `/apis/<group>/v1`.
import type { GroupResource } from '../storage/group-resource';

/** The query parameters of a list or watch, as metav1.ListOptions names them. */
export interface RequestQuery {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
  allowWatchBookmarks?: boolean;
  sendInitialEvents?: boolean;
  timeoutSeconds?: number;
}

/** `/api/v1/namespaces/<ns>/pods` (or `/api/v1/pods` for all namespaces). */
export function collectionPath(gr: GroupResource, namespace?: string): string {
  const api = gr.group === '' ? '/api/v1' : `/apis/${gr.group}/v1`;
  return namespace ? `${api}/namespaces/${namespace}/${gr.resource}` : `${api}/${gr.resource}`;
}

/** `/api/v1/namespaces/<ns>/pods/<name>`. */
export function objectPath(gr: GroupResource, namespace: string, name: string): string {
  return `${collectionPath(gr, namespace)}/${name}`;
}

/** `/api/v1/namespaces/default/pods?limit=100&labelSelector=…` for a list, or a watch (`watch=true`). */
export function requestPath(
  gr: GroupResource,
  namespace: string | undefined,
  query: RequestQuery,
  watch: boolean,
): string {
  const q: string[] = [];
  if (watch) q.push('watch=true');
  const add = (k: string, v: string | number | boolean | undefined): void => {
    if (v === undefined || v === '') return;
    q.push(`${k}=${encodeURIComponent(String(v))}`);
  };
  add('labelSelector', query.labelSelector);
  add('fieldSelector', query.fieldSelector);
  add('limit', query.limit);
  add('continue', query.continue);
  add('resourceVersion', query.resourceVersion);
  add('resourceVersionMatch', query.resourceVersionMatch);
  if (watch) {
    add('allowWatchBookmarks', query.allowWatchBookmarks);
    add('sendInitialEvents', query.sendInitialEvents);
    add('timeoutSeconds', query.timeoutSeconds);
  }
  const base = collectionPath(gr, namespace);
  return q.length ? `${base}?${q.join('&')}` : base;
}
