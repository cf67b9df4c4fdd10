// ServedResources for the server's unit tests: the built-ins as the registry serves them and a
// custom resource, without an engine behind them; their Store holds only the kind's strategy (what
// the field manager reads of it: its reset fields).
import type { Resource } from '../../../src/engine/apiserver';
import { builtinAPIResource } from '../../../src/request/builtin-api-resources';
import type { ServedResource } from '../../../src/server/served-resource';
import type { Store } from '../../../src/server/registry/store';
import { strategyFor } from '../../../src/server/registry/strategy-for';
import { ServiceAllocators } from '../../../src/server/registry/service-allocators';

const builtInVerbs = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
];

export function served(r: Omit<ServedResource, 'engine' | 'listKind' | 'store'>): ServedResource {
  const createStrategy = strategyFor(r, { serviceAllocators: new ServiceAllocators() });
  return {
    ...r,
    listKind: `${r.kind}List`,
    engine: {} as Resource,
    store: { createStrategy } as Store,
  };
}

export const pods = served({
  group: '',
  version: 'v1',
  resource: 'pods',
  singularName: 'pod',
  kind: 'Pod',
  namespaced: true,
  shortNames: ['po'],
  categories: ['all'],
  verbs: builtInVerbs,
  jsonOnly: false,
  builtin: builtinAPIResource({ group: '', resource: 'pods' }),
});

export const configMaps = served({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  singularName: 'configmap',
  kind: 'ConfigMap',
  namespaced: true,
  shortNames: ['cm'],
  categories: [],
  verbs: builtInVerbs,
  jsonOnly: false,
  builtin: builtinAPIResource({ group: '', resource: 'configmaps' }),
});

export const namespaces = served({
  group: '',
  version: 'v1',
  resource: 'namespaces',
  singularName: 'namespace',
  kind: 'Namespace',
  namespaced: false,
  shortNames: ['ns'],
  categories: [],
  verbs: builtInVerbs.filter((v) => v !== 'deletecollection'),
  jsonOnly: false,
  builtin: builtinAPIResource({ group: '', resource: 'namespaces' }),
});

/** A CR as apiextensions-apiserver lists its verbs. */
export const crontabs = served({
  group: 'stable.example.com',
  version: 'v1',
  resource: 'crontabs',
  singularName: 'crontab',
  kind: 'CronTab',
  namespaced: true,
  shortNames: ['ct'],
  categories: [],
  verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
  jsonOnly: true,
});

export const builtIns = [pods, configMaps, namespaces];
