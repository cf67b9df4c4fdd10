// Mirrors k8s.io/apiserver pkg/endpoints/handlers/get.go (release-1.36): GetResource (an object,
// the registry Store's Get) and ListResource (a collection, the Store's List with the request's
// list options, or its Watch), answered as JSON.
import type { ListResult, KubeList, KubeObject } from '../../engine';
import { withoutTypeMeta, type ListItemJSON } from '../list-item-json';
import { groupVersionOf, type ServedResource } from '../served-resource';
import {
  getOptions,
  listOpts,
  type InternalListOptions,
  toResourceListRequest,
  toResourceWatchRequest,
} from '../../request/list-query';
import { listOptsScope, type RequestScope } from './request-scope';
import { serveWatch } from './watch';
import { writeJSONPieces, writeResult } from './response';

/** GET of one object: resourceVersion "" reads etcd, anything else the watch cache. */
export async function getResource(scope: RequestScope): Promise<void> {
  const { served, info, query } = scope;
  const { resourceVersion } = getOptions(query);
  const obj = await served.store.get(info.namespace, info.name, resourceVersion, scope.context);
  writeResult(scope, 200, obj);
}

/** LIST of a collection (all namespaces when the URL names none), every list option honoured. */
export async function listResource(scope: RequestScope): Promise<void> {
  const { served, info } = scope;
  const opts = listOpts(scope.query, listOptsScope(scope));
  const list = await served.store.list(
    toResourceListRequest(opts, info.namespace || undefined),
    scope.context,
  );
  writeList(scope, list);
}

/** A list as negotiated: the plain JSON list written directly, a conversion through transformObject. */
export function writeList(scope: RequestScope, list: ListResult): void {
  const { served, encoding } = scope;
  if (encoding.convert === undefined && !encoding.pretty)
    return writeJSONPieces(scope.res, 200, listJSON(served, list, scope.resources.listItemJSON));
  const meta: KubeList['metadata'] = { resourceVersion: list.resourceVersion };
  if (list.continue) meta.continue = list.continue;
  if (list.remainingItemCount !== undefined) meta.remainingItemCount = list.remainingItemCount;
  const items = served.jsonOnly ? list.items : list.items.map(withoutTypeMeta);
  writeResult(scope, 200, {
    kind: served.listKind,
    apiVersion: groupVersionOf(served),
    metadata: meta,
    items: items as KubeObject[],
  });
}

/**
 * A WATCH (ListResource with opts.Watch): the options as listOpts gives them (defaults applied
 * there), the cacher's watcher, and serveWatch streaming it until it closes, times out or the
 * client goes away.
 */
export async function watchResource(scope: RequestScope): Promise<void> {
  const { served, info } = scope;
  const name = info.name || undefined;
  const opts = listOpts(scope.query, listOptsScope(scope, name));
  if (scope.ignoreSendInitialEvents) ignoreSendInitialEvents(opts, served);
  // The engine adds metadata.name for a named request: only when no field selector is sent (listOpts
  // has checked that one sent names this object), else the selector says it twice.
  const named = opts.fieldSelector ? undefined : name;
  const watch = await served.store.watch(
    toResourceWatchRequest(opts, info.namespace || undefined, named),
    scope.context,
  );
  serveWatch(scope.res, watch, {
    clock: served.engine.clock,
    served,
    encoding: scope.encoding,
    hooks: scope.watchHooks,
    fault: scope.watchFault,
  });
}

/**
 * The ignore-send-initial-events fault: the options as a server that does not know
 * sendInitialEvents reads them, a plain watch from the request's resourceVersion, or from now
 * (etcd's current revision) when it names none: no initial events, no end bookmark.
 */
function ignoreSendInitialEvents(opts: InternalListOptions, served: ServedResource): void {
  opts.sendInitialEvents = undefined;
  opts.resourceVersionMatch = '';
  if (opts.resourceVersion === '' || opts.resourceVersion === '0')
    opts.resourceVersion = String(served.engine.etcd.currentRevision());
}

/**
 * The list as the apiserver serialises it: `{"kind":"PodList","apiVersion":"v1","metadata":{…},
 * "items":[…]}` and json.Encoder's newline, in UTF-8, as the pieces to write one after the other.
 * A built-in's items are typed structs whose TypeMeta the encoder leaves empty (no kind/apiVersion);
 * a custom resource's items are unstructured objects and keep theirs. The items are the memo's
 * bytes (list-item-json.ts): a slice of an earlier LIST's body when they lie there in order.
 */
export function listJSON(
  served: ServedResource,
  list: ListResult,
  items: ListItemJSON,
): Uint8Array[] {
  const meta: string[] = [];
  if (list.resourceVersion) meta.push(`"resourceVersion":${JSON.stringify(list.resourceVersion)}`);
  if (list.continue) meta.push(`"continue":${JSON.stringify(list.continue)}`);
  if (list.remainingItemCount !== undefined)
    meta.push(`"remainingItemCount":${list.remainingItemCount}`);
  const head = Buffer.from(
    `{"kind":${JSON.stringify(served.listKind)},"apiVersion":${JSON.stringify(groupVersionOf(served))},` +
      `"metadata":{${meta.join(',')}},"items":[`,
  );
  return [head, items.encodeItems(list.items, served.jsonOnly), listEnd];
}

const listEnd = Buffer.from(']}\n');
