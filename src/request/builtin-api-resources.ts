// Mirrors what kube-apiserver release-1.36 says in discovery of each built-in resource this server
// serves (metav1.APIResource as k8s.io/apiserver pkg/endpoints/installer.go builds it from the
// registry: ShortNames(), Categories(), the REST storage's interfaces for the verbs,
// SingularQualifiedResource, the storage map of pkg/registry/<group>/rest/storage_<group>.go for
// the subresources), checked against kubernetes/kubernetes api/discovery/*.json, plus the zero
// value each kind's NewFunc marshals (k8s.io/api release-1.36 types.go). The scope, kind, key
// prefix and watch cache are resource-storage.ts's rows, joined here, so every reader (the
// server's registry and discovery, explain, the key-prefix rules) reads one table. Deliberate
// differences: one version per group (autoscaling serves v2 only, not also v1), and only the
// subresources status, scale and namespaces/finalize are recorded (pods/log, exec, attach,
// portforward, proxy, binding, eviction, ephemeralcontainers, resize, nodes/proxy, services/proxy
// and serviceaccounts/token are not served here).
import type { KubeObject } from '../engine';
import { resourceStorage, resourceStorageRow } from './resource-storage';

/** Discovery's verbs of a resource with every REST storage interface, in discovery's order. */
export const allVerbs: readonly string[] = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
];

/** The verbs of a StatusREST or ScaleREST (Getter, Updater; patch comes with update). */
const getPatchUpdate: readonly string[] = ['get', 'patch', 'update'];

/** One subresource: its name, verbs and the kind it answers (the resource's own when absent). */
export interface BuiltinSubresource {
  name: string;
  verbs: readonly string[];
  /** A kind of another group version: `/scale` answers autoscaling/v1 Scale. */
  responseKind?: { group: string; version: string; kind: string };
}

const status: BuiltinSubresource = { name: 'status', verbs: getPatchUpdate };
const scale: BuiltinSubresource = {
  name: 'scale',
  verbs: getPatchUpdate,
  responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
};

/** What a row says beyond resource-storage.ts's kind and scope. */
interface APIRow {
  resource: string;
  shortNames?: readonly string[];
  categories?: readonly string[];
  /** When not allVerbs. */
  verbs?: readonly string[];
  subresources?: readonly BuiltinSubresource[];
  /** The group/version objects are stored as (storageVersionHash's input), when not the served one. */
  storageVersion?: string;
  /** The store's ReturnDeletedObject: a DELETE answers the object, not a Success Status. */
  returnDeletedObject?: true;
  /** The fields after metadata that the kind's zero value marshals (encoding/json, no omitempty). */
  zero?: Readonly<Record<string, unknown>>;
  /** The upstream registry whose ShortNames, Categories and REST interfaces this row reads. */
  upstream: string;
}

const reg = (path: string): string => `pkg/registry/${path}/storage/storage.go`;

// A PodTemplateSpec's zero value: PodSpec's containers has no omitempty.
const podTemplate = { metadata: {}, spec: { containers: null } };

/** The served group versions, each with its resources (in discovery's order: by name). */
const apiGroupVersions: ReadonlyArray<{ group: string; version: string; rows: APIRow[] }> = [
  {
    group: '',
    version: 'v1',
    rows: [
      { resource: 'configmaps', shortNames: ['cm'], upstream: reg('core/configmap') },
      { resource: 'endpoints', shortNames: ['ep'], upstream: reg('core/endpoint') },
      {
        resource: 'events',
        shortNames: ['ev'],
        zero: {
          involvedObject: {},
          source: {},
          firstTimestamp: null,
          lastTimestamp: null,
          eventTime: null,
          reportingComponent: '',
          reportingInstance: '',
        },
        upstream: reg('core/event'),
      },
      { resource: 'limitranges', shortNames: ['limits'], upstream: reg('core/limitrange') },
      {
        // The namespace REST has no DeleteCollection; finalize is an Updater only.
        resource: 'namespaces',
        shortNames: ['ns'],
        verbs: allVerbs.filter((v) => v !== 'deletecollection'),
        subresources: [{ name: 'finalize', verbs: ['update'] }, status],
        returnDeletedObject: true,
        zero: { spec: {}, status: {} },
        upstream: reg('core/namespace'),
      },
      {
        resource: 'nodes',
        shortNames: ['no'],
        subresources: [status],
        zero: {
          spec: {},
          status: {
            daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
            nodeInfo: {
              machineID: '',
              systemUUID: '',
              bootID: '',
              kernelVersion: '',
              osImage: '',
              containerRuntimeVersion: '',
              kubeletVersion: '',
              kubeProxyVersion: '',
              operatingSystem: '',
              architecture: '',
            },
          },
        },
        upstream: reg('core/node'),
      },
      {
        resource: 'persistentvolumeclaims',
        shortNames: ['pvc'],
        subresources: [status],
        returnDeletedObject: true,
        zero: { spec: { resources: {} }, status: {} },
        upstream: reg('core/persistentvolumeclaim'),
      },
      {
        resource: 'persistentvolumes',
        shortNames: ['pv'],
        subresources: [status],
        returnDeletedObject: true,
        zero: { spec: {}, status: {} },
        upstream: reg('core/persistentvolume'),
      },
      {
        resource: 'pods',
        shortNames: ['po'],
        categories: ['all'],
        subresources: [status],
        returnDeletedObject: true,
        zero: { spec: { containers: null }, status: {} },
        upstream: reg('core/pod'),
      },
      {
        resource: 'podtemplates',
        zero: { template: podTemplate },
        upstream: reg('core/podtemplate'),
      },
      {
        resource: 'replicationcontrollers',
        shortNames: ['rc'],
        categories: ['all'],
        subresources: [scale, status],
        zero: { spec: {}, status: { replicas: 0 } },
        upstream: reg('core/replicationcontroller'),
      },
      {
        resource: 'resourcequotas',
        shortNames: ['quota'],
        subresources: [status],
        zero: { spec: {}, status: {} },
        upstream: reg('core/resourcequota'),
      },
      { resource: 'secrets', upstream: reg('core/secret') },
      {
        resource: 'serviceaccounts',
        shortNames: ['sa'],
        returnDeletedObject: true,
        upstream: reg('core/serviceaccount'),
      },
      {
        resource: 'services',
        shortNames: ['svc'],
        categories: ['all'],
        subresources: [status],
        returnDeletedObject: true,
        zero: { spec: {}, status: { loadBalancer: {} } },
        upstream: reg('core/service'),
      },
    ],
  },
  {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    rows: [
      {
        // apiextensions-apiserver still encodes CRDs in etcd as v1beta1 (kubernetes#102855).
        resource: 'customresourcedefinitions',
        shortNames: ['crd', 'crds'],
        categories: ['api-extensions'],
        subresources: [status],
        storageVersion: 'apiextensions.k8s.io/v1beta1',
        zero: {
          spec: { group: '', names: { plural: '', kind: '' }, scope: '', versions: null },
          status: {
            conditions: null,
            acceptedNames: { plural: '', kind: '' },
            storedVersions: null,
          },
        },
        upstream:
          'staging/src/k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition/etcd.go',
      },
    ],
  },
  {
    group: 'apps',
    version: 'v1',
    rows: [
      {
        resource: 'controllerrevisions',
        zero: { data: null, revision: 0 },
        upstream: reg('apps/controllerrevision'),
      },
      {
        resource: 'daemonsets',
        shortNames: ['ds'],
        categories: ['all'],
        subresources: [status],
        zero: {
          spec: { selector: null, template: podTemplate, updateStrategy: {} },
          status: {
            currentNumberScheduled: 0,
            numberMisscheduled: 0,
            desiredNumberScheduled: 0,
            numberReady: 0,
          },
        },
        upstream: reg('apps/daemonset'),
      },
      {
        resource: 'deployments',
        shortNames: ['deploy'],
        categories: ['all'],
        subresources: [scale, status],
        zero: { spec: { selector: null, template: podTemplate, strategy: {} }, status: {} },
        upstream: reg('apps/deployment'),
      },
      {
        resource: 'replicasets',
        shortNames: ['rs'],
        categories: ['all'],
        subresources: [scale, status],
        zero: { spec: { selector: null, template: podTemplate }, status: { replicas: 0 } },
        upstream: reg('apps/replicaset'),
      },
      {
        resource: 'statefulsets',
        shortNames: ['sts'],
        categories: ['all'],
        subresources: [scale, status],
        zero: {
          spec: { selector: null, template: podTemplate, serviceName: '', updateStrategy: {} },
          status: { replicas: 0, availableReplicas: 0 },
        },
        upstream: reg('apps/statefulset'),
      },
    ],
  },
  {
    group: 'autoscaling',
    version: 'v2',
    rows: [
      {
        resource: 'horizontalpodautoscalers',
        shortNames: ['hpa'],
        categories: ['all'],
        subresources: [status],
        zero: {
          spec: { scaleTargetRef: { kind: '', name: '' }, maxReplicas: 0 },
          status: { desiredReplicas: 0, currentMetrics: null },
        },
        upstream: reg('autoscaling/horizontalpodautoscaler'),
      },
    ],
  },
  {
    group: 'batch',
    version: 'v1',
    rows: [
      {
        resource: 'cronjobs',
        shortNames: ['cj'],
        categories: ['all'],
        subresources: [status],
        zero: {
          spec: { schedule: '', jobTemplate: { metadata: {}, spec: { template: podTemplate } } },
          status: {},
        },
        upstream: reg('batch/cronjob'),
      },
      {
        resource: 'jobs',
        categories: ['all'],
        subresources: [status],
        zero: { spec: { template: podTemplate }, status: {} },
        upstream: reg('batch/job'),
      },
    ],
  },
  {
    group: 'coordination.k8s.io',
    version: 'v1',
    rows: [{ resource: 'leases', zero: { spec: {} }, upstream: reg('coordination/lease') }],
  },
  {
    group: 'discovery.k8s.io',
    version: 'v1',
    rows: [
      {
        resource: 'endpointslices',
        zero: { addressType: '', endpoints: null, ports: null },
        upstream: reg('discovery/endpointslice'),
      },
    ],
  },
  {
    group: 'events.k8s.io',
    version: 'v1',
    rows: [
      {
        // The same storage as core/v1 events (pkg/registry/events/rest: the core event registry),
        // so the same storage version.
        resource: 'events',
        shortNames: ['ev'],
        storageVersion: 'v1',
        zero: {
          eventTime: null,
          regarding: {},
          deprecatedSource: {},
          deprecatedFirstTimestamp: null,
          deprecatedLastTimestamp: null,
        },
        upstream: 'pkg/registry/events/rest/storage_events.go (reg core/event)',
      },
    ],
  },
  {
    group: 'networking.k8s.io',
    version: 'v1',
    rows: [
      {
        resource: 'ingresses',
        shortNames: ['ing'],
        subresources: [status],
        zero: { spec: {}, status: { loadBalancer: {} } },
        upstream: reg('networking/ingress'),
      },
      {
        resource: 'networkpolicies',
        shortNames: ['netpol'],
        zero: { spec: { podSelector: {} } },
        upstream: reg('networking/networkpolicy'),
      },
    ],
  },
  {
    group: 'policy',
    version: 'v1',
    rows: [
      {
        resource: 'poddisruptionbudgets',
        shortNames: ['pdb'],
        subresources: [status],
        zero: {
          spec: {},
          status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
        },
        upstream: reg('policy/poddisruptionbudget'),
      },
    ],
  },
  {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    rows: [
      {
        resource: 'clusterrolebindings',
        zero: { roleRef: { apiGroup: '', kind: '', name: '' } },
        upstream: reg('rbac/clusterrolebinding'),
      },
      { resource: 'clusterroles', zero: { rules: null }, upstream: reg('rbac/clusterrole') },
      {
        resource: 'rolebindings',
        zero: { roleRef: { apiGroup: '', kind: '', name: '' } },
        upstream: reg('rbac/rolebinding'),
      },
      { resource: 'roles', zero: { rules: null }, upstream: reg('rbac/role') },
    ],
  },
];

/** One built-in resource this server serves, with everything discovery and storage need. */
export interface BuiltinAPIResource {
  /** "" for the core group. */
  group: string;
  version: string;
  resource: string;
  /** SingularQualifiedResource: the kind in lower case for every resource here. */
  singularName: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  verbs: readonly string[];
  shortNames: readonly string[];
  categories: readonly string[];
  /** Upstream's subresources of this resource (status, scale, finalize), sorted by name. */
  subresources: readonly BuiltinSubresource[];
  /** The group version objects are stored as: `v1`, `apps/v1`, `apiextensions.k8s.io/v1beta1`. */
  storageVersion: string;
  returnDeletedObject: boolean;
  /** The etcd prefix under --etcd-prefix and the watch cache (resource-storage.ts). */
  prefix: string;
  watchCache: boolean;
  /** The registry the row was read from. */
  upstream: string;
  /** NewFunc: an empty object of the kind as Go marshals its zero value (what bookmarks carry). */
  newObject(): KubeObject;
}

function joinRow(group: string, version: string, row: APIRow): BuiltinAPIResource {
  const storageRow = resourceStorageRow({ group, resource: row.resource });
  if (storageRow === undefined)
    throw new Error(`${row.resource}.${group}: not in resource-storage.ts's table`);
  const [kind, resource, namespaced] = storageRow;
  const storage = resourceStorage({ group, resource });
  const apiVersion = group === '' ? version : `${group}/${version}`;
  const zero = JSON.stringify(row.zero ?? {});
  return {
    group,
    version,
    resource,
    singularName: kind.toLowerCase(),
    kind,
    listKind: `${kind}List`,
    namespaced,
    verbs: row.verbs ?? allVerbs,
    shortNames: row.shortNames ?? [],
    categories: row.categories ?? [],
    subresources: [...(row.subresources ?? [])].sort((a, b) => (a.name < b.name ? -1 : 1)),
    storageVersion: row.storageVersion ?? apiVersion,
    returnDeletedObject: row.returnDeletedObject ?? false,
    prefix: storage.prefix,
    watchCache: storage.watchCache,
    upstream: row.upstream,
    newObject: () =>
      ({ kind, apiVersion, metadata: {}, ...(JSON.parse(zero) as object) }) as KubeObject,
  };
}

/** Every built-in resource served, by group (core first, then by name) and resource name. */
export const builtinAPIResources: readonly BuiltinAPIResource[] = apiGroupVersions.flatMap(
  ({ group, version, rows }) => rows.map((row) => joinRow(group, version, row)),
);

/** The served row of a built-in group and resource; undefined for any other. */
export function builtinAPIResource(gr: {
  group: string;
  resource: string;
}): BuiltinAPIResource | undefined {
  return builtinAPIResources.find((r) => r.group === gr.group && r.resource === gr.resource);
}
