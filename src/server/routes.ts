// No upstream counterpart as one file: what kube-apiserver's mux and go-restful routes decide, as
// two tables. A resource request goes to the handler of its RequestInfo verb; a non-resource path
// (discovery, /version, /healthz, /metrics, the debug API) to the first entry that matches it.
// Each module of the HTTP face plugs in here as one line.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestContext } from '../engine/request/request-context';
import { getResource, listResource, watchResource } from './handlers/get';
import { createResource } from './handlers/create';
import { deleteCollection, deleteResource } from './handlers/delete';
import { patchResource } from './handlers/patch';
import { updateResource } from './handlers/update';
import type { ResourceHandler } from './handlers/request-scope';
import type { QueryValues } from './list-query';
import type { Registry } from './registry';
import type { RequestInfo } from './request-info';

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

/** What a non-resource handler is given. */
export interface NonResourceScope {
  registry: Registry;
  info: RequestInfo;
  /** The URL's query parameters (url.Values). */
  query: QueryValues;
  req: IncomingMessage;
  res: ServerResponse;
  context: RequestContext;
  body(): Promise<Buffer>;
}

export interface NonResourceRoute {
  /** Whether the route serves this (percent-decoded) path. */
  matches(path: string): boolean;
  handle(scope: NonResourceScope): Promise<void> | void;
}

/** The non-resource routes, first match wins. */
export const nonResourceRoutes: readonly NonResourceRoute[] = [];
