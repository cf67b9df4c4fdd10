// No upstream counterpart as one file: what kube-apiserver's mux and go-restful routes decide, as
// two tables. A resource request goes to the handler of its RequestInfo verb; a non-resource path
// (discovery, /version, /healthz, /metrics, the debug API) to the first entry that matches it.
// Each module of the HTTP face plugs in here as one line.
import { subresourceVerbs } from './subresources';
import type { IncomingMessage } from 'node:http';
import type { RequestContext } from '../engine';
import { getResource, listResource, watchResource } from './handlers/get';
import { createResource } from './handlers/create';
import { deleteCollection, deleteResource } from './handlers/delete';
import { patchResource } from './handlers/patch';
import { finalizeNamespace, updateResource } from './handlers/update';
import { getStatus, patchStatus, updateStatus } from './handlers/status';
import { getScale, patchScale, updateScale } from './handlers/scale';
import type { ResourceHandler } from './handlers/request-scope';
import type { ServedResources } from './served-resources';
import type { RequestInfo } from '../request/request-info';
import { debugStatePath, handleDebugStateRequest, type DebugState } from './debug-state';
import { serveDiscovery } from './discovery';
import { reviewResources } from './review-resources';
import {
  faultsPath,
  handleFaultRequest,
  type AppliedFault,
  type FaultResponse,
  type ReplicaWorld,
} from './faults';
import type { ActiveFaults } from './active-faults';
import { clientsPath, clientsReportOff, type ClientsRecording } from './clients-endpoint';
import { failure as statusFailure } from '../engine/http-face';
import { serveHealth, type HealthChecker, type HealthEndpoint } from './health';
import { serveMetrics } from './metrics-endpoint';
import { serveOpenAPI } from './openapi';
import type { ServedResource } from './served-resource';
import type { ServedResponse } from './served-response';
import { serveVersion, type VersionInfo } from './version';

/** The handler of each verb (a verb a resource does not list in its verbs is refused first). */
export const verbHandlers: Readonly<Record<string, ResourceHandler>> = {
  get: getResource,
  list: listResource,
  watch: watchResource,
  create: createResource,
  update: updateResource,
  patch: patchResource,
  delete: deleteResource,
  deletecollection: deleteCollection,
};

/** The handler of each verb of each subresource (subresources.ts says which a resource serves). */
const subresourceHandlers: Readonly<Record<string, Readonly<Record<string, ResourceHandler>>>> = {
  status: { get: getStatus, update: updateStatus, patch: patchStatus },
  scale: { get: getScale, update: updateScale, patch: patchScale },
  finalize: { update: finalizeNamespace },
};

/** The handlers of a resource's subresource, or undefined when it serves no such subresource. */
export function subresourceOf(
  served: ServedResource,
  info: RequestInfo,
): Readonly<Record<string, ResourceHandler>> | undefined {
  const sub = subresourceVerbs(served).find((s) => s.name === info.subresource);
  if (!sub || !Object.hasOwn(subresourceHandlers, sub.name)) return undefined;
  const handlers = subresourceHandlers[sub.name];
  // Only the verbs the subresource lists (a verb it lacks is 405).
  return Object.fromEntries(Object.entries(handlers).filter(([verb]) => sub.verbs.includes(verb)));
}

/** What a non-resource handler is given. */
export interface NonResourceScope {
  resources: ServedResources;
  info: RequestInfo;
  /** The raw query string's parameters (health's exclude, openapi's hash). */
  searchParams: URLSearchParams;
  req: IncomingMessage;
  context: RequestContext;
  /** `127.0.0.1:<port>`: discovery's serverAddressByClientCIDRs. */
  serverAddress: string;
  version: VersionInfo;
  healthChecks: Record<HealthEndpoint, readonly HealthChecker[]>;
  debugState: DebugState;
  /** `serve --replicas`: each replica's debug state, replica 1 first (GET …/state?replica=N). */
  replicaDebugStates: readonly DebugState[];
  /** Told of every fault the admin API applied (set while a recorder listens). */
  faultApplied?: (fault: AppliedFault) => void;
  /** The faults in force. */
  faults: ActiveFaults;
  /** `serve --replicas`: what a server fault acts on in each replica (undefined: one server). */
  faultReplicas?: readonly ReplicaWorld[];
  /** What each client did (absent: the server was started without it). */
  clients?: ClientsRecording;
  body(): Promise<Buffer>;
}

/** A non-resource handler: its answer, or undefined when the path is not its own. */
export type NonResourceRoute = (
  scope: NonResourceScope,
) => ServedResponse | undefined | Promise<ServedResponse | undefined>;

/** An admin API answer as a JSON response. */
function jsonResponse(r: FaultResponse): ServedResponse {
  return {
    status: r.status,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(r.body) + '\n',
  };
}

/** The faults admin API: `/debug/listwatch/v1/faults[/<name>|/active[/<id>]]`. */
async function faultsRoute(s: NonResourceScope): Promise<ServedResponse | undefined> {
  const path = s.info.path.replace(/\/$/, '');
  if (path !== faultsPath && !path.startsWith(`${faultsPath}/`)) return undefined;
  const name = path.slice(faultsPath.length + 1) || undefined;
  const method = s.req.method ?? 'GET';
  const body = method === 'POST' ? (await s.body()).toString('utf8') : undefined;
  const world = {
    resources: s.resources.perStorage,
    etcd: s.resources.etcd,
    onApplied: s.faultApplied,
    active: s.faults,
    replicas: s.faultReplicas,
  };
  return jsonResponse(await handleFaultRequest(method, name, body, world));
}

/** `GET /debug/listwatch/v1/clients`: the clients report (clients-endpoint.ts). */
function clientsRoute(s: NonResourceScope): ServedResponse | undefined {
  if (s.info.path.replace(/\/$/, '') !== clientsPath) return undefined;
  if (!s.clients)
    return jsonResponse({
      status: 404,
      body: statusFailure(404, 'NotFound', clientsReportOff).status,
    });
  const method = s.req.method ?? 'GET';
  if (method !== 'GET')
    return jsonResponse({
      status: 405,
      body: statusFailure(405, 'MethodNotAllowed', `${method} is not supported here; use GET`)
        .status,
    });
  return jsonResponse({ status: 200, body: s.clients.report() });
}

/** The non-resource routes, tried in order; the first answer wins (none: 404). */
export const nonResourceRoutes: readonly NonResourceRoute[] = [
  faultsRoute,
  clientsRoute,
  (s) =>
    s.info.path === debugStatePath
      ? jsonResponse(
          handleDebugStateRequest(
            s.req.method ?? 'GET',
            s.replicaDebugStates,
            s.searchParams.get('replica'),
          ),
        )
      : undefined,
  (s) =>
    serveDiscovery(
      {
        path: s.info.path,
        accept: s.req.headers.accept,
        ifNoneMatch: s.req.headers['if-none-match'],
      },
      [...s.resources.all, ...reviewResources],
      s.serverAddress,
    ),
  (s) => (s.info.path === '/version' ? serveVersion(s.version) : undefined),
  (s) => serveHealth(s.info.path, s.searchParams, s.healthChecks),
  (s) => (s.info.path === '/metrics' ? serveMetrics(s.resources.metrics) : undefined),
  (s) =>
    serveOpenAPI(
      {
        path: s.info.path,
        query: s.searchParams,
        accept: s.req.headers.accept,
        ifNoneMatch: s.req.headers['if-none-match'],
      },
      s.resources.all,
      { gitVersion: s.version.gitVersion, now: s.resources.clock.now() },
    ),
];
