// Mirrors k8s.io/apiserver pkg/endpoints/handlers/rest.go (release-1.36) RequestScope: what every
// REST handler is given about the resource it serves and the request it answers. Deliberate
// difference: the request and response travel in the scope (upstream passes w and req beside it).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestContext } from '../../engine';
import type { AuditEventHandle } from '../audit-log';
import {
  customResourceFieldLabelConversion,
  type ListOptsScope,
  type QueryValues,
} from '../../request/list-query';
import type { NegotiatedEncoding } from '../negotiation';
import type { ServedResources } from '../served-resources';
import type { RequestInfo } from '../../request/request-info';
import type { ServedResource } from '../served-resource';
import type { WatchHooks, WatchStreamFault } from './watch';

export interface RequestScope {
  resources: ServedResources;
  served: ServedResource;
  info: RequestInfo;
  /** The URL's query parameters (url.Values). */
  query: QueryValues;
  req: IncomingMessage;
  res: ServerResponse;
  /** The negotiated response encoding (JSON, a Table, PartialObjectMetadata). */
  encoding: NegotiatedEncoding;
  /** The engine's context of this request: its id, the User-Agent, the request line. */
  context: RequestContext;
  /** The request body, read at most once, under maxRequestBodyBytes (413 past it). */
  body(): Promise<Buffer>;
  /** The request's audit event (serve --audit-log), for audit.LogRequestObject. */
  audit?: AuditEventHandle;
  /**
   * A WATCH's: told each event line written to the client (ApiServer.record's observers hear it)
   * and once when its handler returns (the debug state forgets what it wrote).
   */
  watchHooks?: WatchHooks;
  /** A WATCH a stream fault matched (request-faults.ts): its hook; absent on every other. */
  watchFault?: WatchStreamFault;
  /** A WatchList request the ignore-send-initial-events fault matched: served as a plain watch. */
  ignoreSendInitialEvents?: boolean;
}

/** The list options of the scope's resource: its field label conversion, the WatchList gate. */
export function listOptsScope(scope: RequestScope, name?: string): ListOptsScope {
  const { served } = scope;
  return {
    resource: served.resource,
    group: served.group,
    convertFieldLabel: served.jsonOnly
      ? customResourceFieldLabelConversion(!served.namespaced)
      : undefined,
    name,
    watchList: served.engine.gates.WatchList,
  };
}

/** One verb's handler (get, list, create, update, patch, delete, deletecollection, watch). */
export type ResourceHandler = (scope: RequestScope) => Promise<void>;
