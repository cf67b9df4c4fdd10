// Mirrors what kube-apiserver decides per resource about its storage, in one table: the scope its
// registry gives it (pkg/registry/<group>/<resource>/storage: NamespaceScoped), its etcd key prefix
// (kubernetes/kubernetes pkg/kubeapiserver/default_storage_factory_builder.go
// SpecialDefaultResourcePrefixes; SimpleStorageFactory's group + "/" + resource for CRDs, APIServices
// and custom resources) and whether it has a watch cache (DefaultWatchCacheSizes in the same file:
// events and events.k8s.io/events are 0, so k8s.io/apiserver pkg/server/options/etcd.go gives their
// registry generic.UndecoratedStorage: no cacher). The key-prefix rules (storage-key-prefix.ts),
// the server's registry and explain all read it. Self-contained: it imports nothing.

/** One built-in resource: [kind, resource, namespaced, where its storage differs from the default]. */
export type ResourceStorageRow = readonly [
  kind: string,
  resource: string,
  namespaced: boolean,
  storage?: {
    /** The etcd prefix under --etcd-prefix when it is not the resource's name. */
    prefix?: string;
    /** The upstream file that sets the prefix. */
    upstream?: string;
    /** false: DefaultWatchCacheSizes sets its watch cache size to 0 (no cacher). */
    watchCache?: false;
  },
];

/** A SpecialDefaultResourcePrefixes row's source, and the registry that names the resource. */
function specialPrefix(registry: string): string {
  return `pkg/kubeapiserver/default_storage_factory_builder.go SpecialDefaultResourcePrefixes (registry: pkg/registry/${registry}/storage/storage.go)`;
}

/**
 * The built-in resources by API group: the groups kube-apiserver serves itself (a group not listed
 * here belongs to a CRD or an aggregated server). Each registry (pkg/registry/.../storage/storage.go)
 * sets DefaultQualifiedResource to the same group/resource, so the storage factory finds its row
 * by that name. Ingresses in extensions cohabit with networking.k8s.io's (AddCohabitatingResources).
 */
export const resourceStorageTable: Readonly<Record<string, readonly ResourceStorageRow[]>> = {
  '': [
    ['ConfigMap', 'configmaps', true],
    [
      'Endpoints',
      'endpoints',
      true,
      { prefix: 'services/endpoints', upstream: specialPrefix('core/endpoint') },
    ],
    ['Event', 'events', true, { watchCache: false }],
    ['LimitRange', 'limitranges', true],
    ['Namespace', 'namespaces', false],
    ['Node', 'nodes', false, { prefix: 'minions', upstream: specialPrefix('core/node') }],
    ['PersistentVolume', 'persistentvolumes', false],
    ['PersistentVolumeClaim', 'persistentvolumeclaims', true],
    ['Pod', 'pods', true],
    ['PodTemplate', 'podtemplates', true],
    [
      'ReplicationController',
      'replicationcontrollers',
      true,
      { prefix: 'controllers', upstream: specialPrefix('core/replicationcontroller') },
    ],
    ['ResourceQuota', 'resourcequotas', true],
    ['Secret', 'secrets', true],
    [
      'Service',
      'services',
      true,
      { prefix: 'services/specs', upstream: specialPrefix('core/service') },
    ],
    ['ServiceAccount', 'serviceaccounts', true],
  ],
  'admissionregistration.k8s.io': [
    ['MutatingWebhookConfiguration', 'mutatingwebhookconfigurations', false],
    ['ValidatingWebhookConfiguration', 'validatingwebhookconfigurations', false],
    ['ValidatingAdmissionPolicy', 'validatingadmissionpolicies', false],
    ['ValidatingAdmissionPolicyBinding', 'validatingadmissionpolicybindings', false],
    ['MutatingAdmissionPolicy', 'mutatingadmissionpolicies', false],
    ['MutatingAdmissionPolicyBinding', 'mutatingadmissionpolicybindings', false],
  ],
  'apiextensions.k8s.io': [
    [
      'CustomResourceDefinition',
      'customresourcedefinitions',
      false,
      {
        prefix: 'apiextensions.k8s.io/customresourcedefinitions',
        upstream:
          'pkg/controlplane/apiserver/apiextensions.go CreateAPIExtensionsConfig: etcdOptions.ApplyTo uses k8s.io/apiserver SimpleStorageFactory, whose ResourcePrefix is group + "/" + resource',
      },
    ],
  ],
  'apiregistration.k8s.io': [
    [
      'APIService',
      'apiservices',
      false,
      {
        prefix: 'apiregistration.k8s.io/apiservices',
        upstream:
          'pkg/controlplane/apiserver/aggregator.go CreateAggregatorConfig: etcdOptions.ApplyTo uses k8s.io/apiserver SimpleStorageFactory (group + "/" + resource)',
      },
    ],
  ],
  apps: [
    ['ControllerRevision', 'controllerrevisions', true],
    ['DaemonSet', 'daemonsets', true],
    ['Deployment', 'deployments', true],
    ['ReplicaSet', 'replicasets', true],
    ['StatefulSet', 'statefulsets', true],
  ],
  'authentication.k8s.io': [],
  'authorization.k8s.io': [],
  autoscaling: [['HorizontalPodAutoscaler', 'horizontalpodautoscalers', true]],
  batch: [
    ['CronJob', 'cronjobs', true],
    ['Job', 'jobs', true],
  ],
  'certificates.k8s.io': [
    ['CertificateSigningRequest', 'certificatesigningrequests', false],
    ['ClusterTrustBundle', 'clustertrustbundles', false],
    ['PodCertificateRequest', 'podcertificaterequests', true],
  ],
  'coordination.k8s.io': [
    ['Lease', 'leases', true],
    ['LeaseCandidate', 'leasecandidates', true],
  ],
  'discovery.k8s.io': [['EndpointSlice', 'endpointslices', true]],
  'events.k8s.io': [['Event', 'events', true, { watchCache: false }]],
  extensions: [
    [
      'Ingress',
      'ingresses',
      true,
      {
        prefix: 'ingress',
        upstream:
          'pkg/kubeapiserver/default_storage_factory_builder.go SpecialDefaultResourcePrefixes and AddCohabitatingResources(networking ingresses, extensions ingresses)',
      },
    ],
  ],
  'flowcontrol.apiserver.k8s.io': [
    ['FlowSchema', 'flowschemas', false],
    ['PriorityLevelConfiguration', 'prioritylevelconfigurations', false],
  ],
  'internal.apiserver.k8s.io': [['StorageVersion', 'storageversions', false]],
  'networking.k8s.io': [
    [
      'Ingress',
      'ingresses',
      true,
      { prefix: 'ingress', upstream: specialPrefix('networking/ingress') },
    ],
    ['IngressClass', 'ingressclasses', false],
    ['IPAddress', 'ipaddresses', false],
    ['NetworkPolicy', 'networkpolicies', true],
    ['ServiceCIDR', 'servicecidrs', false],
  ],
  'node.k8s.io': [['RuntimeClass', 'runtimeclasses', false]],
  policy: [['PodDisruptionBudget', 'poddisruptionbudgets', true]],
  'rbac.authorization.k8s.io': [
    ['ClusterRole', 'clusterroles', false],
    ['ClusterRoleBinding', 'clusterrolebindings', false],
    ['Role', 'roles', true],
    ['RoleBinding', 'rolebindings', true],
  ],
  'resource.k8s.io': [
    ['DeviceClass', 'deviceclasses', false],
    ['DeviceTaintRule', 'devicetaintrules', false],
    ['ResourceClaim', 'resourceclaims', true],
    ['ResourceClaimTemplate', 'resourceclaimtemplates', true],
    ['ResourceSlice', 'resourceslices', false],
  ],
  'scheduling.k8s.io': [['PriorityClass', 'priorityclasses', false]],
  'storage.k8s.io': [
    ['CSIDriver', 'csidrivers', false],
    ['CSINode', 'csinodes', false],
    ['CSIStorageCapacity', 'csistoragecapacities', true],
    ['StorageClass', 'storageclasses', false],
    ['VolumeAttachment', 'volumeattachments', false],
    ['VolumeAttributesClass', 'volumeattributesclasses', false],
  ],
  'storagemigration.k8s.io': [],
};

/** What storage a resource has: where its keys live, its scope, its watch cache. */
export interface ResourceStorage {
  /** "" for the core group. */
  group: string;
  resource: string;
  /** The keys' prefix under --etcd-prefix, no slashes around it: `pods`, `services/specs`, `example.com/widgets`. */
  prefix: string;
  /** Undefined for a custom resource (its CRD says). */
  namespaced?: boolean;
  /** The registry's storage is decorated with a cacher (false: UndecoratedStorage, etcd only). */
  watchCache: boolean;
  /** A group kube-apiserver serves itself (false: a custom resource's). */
  builtin: boolean;
}

/** The row of a built-in resource; undefined for a custom resource's (or an unknown built-in). */
export function resourceStorageRow(gr: {
  group: string;
  resource: string;
}): ResourceStorageRow | undefined {
  return builtinGroupRows(gr.group)?.find(([, resource]) => resource === gr.resource);
}

/** The rows of a built-in group; undefined for any other name ("constructor" included). */
export function builtinGroupRows(group: string): readonly ResourceStorageRow[] | undefined {
  return Object.prototype.hasOwnProperty.call(resourceStorageTable, group)
    ? resourceStorageTable[group]
    : undefined;
}

/**
 * The storage of any resource: a built-in's from its row (the resource's name as prefix unless the
 * row says otherwise), a custom resource's under `<group>/<resource>` (apiextensions-apiserver's
 * NewCRDRESTOptionsGetter hands the CRD handler a SimpleStorageFactory), with a watch cache.
 */
export function resourceStorage(gr: { group: string; resource: string }): ResourceStorage {
  const builtin = builtinGroupRows(gr.group) !== undefined;
  const row = resourceStorageRow(gr);
  const result: ResourceStorage = {
    group: gr.group,
    resource: gr.resource,
    prefix:
      row?.[3]?.prefix ?? (builtin ? gr.resource.toLowerCase() : `${gr.group}/${gr.resource}`),
    watchCache: row?.[3]?.watchCache ?? true,
    builtin,
  };
  if (row) result.namespaced = row[2];
  return result;
}
