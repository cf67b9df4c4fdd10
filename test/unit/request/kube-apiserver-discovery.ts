// Test data: what kube-apiserver's discovery says of the built-in resources this server serves, read
// from kubernetes/kubernetes api/discovery/ (the checked-in discovery documents that
// hack/update-openapi-spec.sh writes from a running kube-apiserver), written out by hand. Each
// group version names the file; `watch` is in every list as in the newest documents (a stored
// 2025 snapshot, 7c66d0f8, lists no `watch` anywhere: a generator state, not the API). Of the
// subresources only status, scale and namespaces/finalize are written (what the table records).

/** `[verbs, responseKind]` of a subresource; the kind is the resource's unless given. */
type Sub = { verbs: readonly string[]; group?: string; version?: string; kind?: string };

export interface UpstreamAPIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  kind: string;
  verbs: readonly string[];
  shortNames?: readonly string[];
  categories?: readonly string[];
  storageVersionHash: string;
  subresources?: Readonly<Record<string, Sub>>;
}

const all = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const gpu = ['get', 'patch', 'update'];
const status: Sub = { verbs: gpu };
const scale: Sub = { verbs: gpu, group: 'autoscaling', version: 'v1', kind: 'Scale' };

// prettier-ignore
export const upstreamDiscovery: ReadonlyArray<{
  groupVersion: string;
  /** The kubernetes/kubernetes file (and commit) the rows were read from. */
  source: string;
  resources: readonly UpstreamAPIResource[];
}> = [
  {
    groupVersion: 'v1',
    source: 'api/discovery/api__v1.json @ 4d817e791304350f797ea28d315a677873d20cba',
    resources: [
      { name: 'configmaps', singularName: 'configmap', namespaced: true, kind: 'ConfigMap', verbs: all, shortNames: ['cm'], storageVersionHash: 'qFsyl6wFWjQ=' },
      { name: 'endpoints', singularName: 'endpoints', namespaced: true, kind: 'Endpoints', verbs: all, shortNames: ['ep'], storageVersionHash: 'fWeeMqaN/OA=' },
      { name: 'events', singularName: 'event', namespaced: true, kind: 'Event', verbs: all, shortNames: ['ev'], storageVersionHash: 'r2yiGXH7wu8=' },
      { name: 'limitranges', singularName: 'limitrange', namespaced: true, kind: 'LimitRange', verbs: all, shortNames: ['limits'], storageVersionHash: 'EBKMFVe6cwo=' },
      {
        name: 'namespaces', singularName: 'namespace', namespaced: false, kind: 'Namespace',
        verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['ns'],
        storageVersionHash: 'Q3oi5N2YM8M=', subresources: { finalize: { verbs: ['update'] }, status },
      },
      { name: 'nodes', singularName: 'node', namespaced: false, kind: 'Node', verbs: all, shortNames: ['no'], storageVersionHash: 'XwShjMxG9Fs=', subresources: { status } },
      { name: 'persistentvolumeclaims', singularName: 'persistentvolumeclaim', namespaced: true, kind: 'PersistentVolumeClaim', verbs: all, shortNames: ['pvc'], storageVersionHash: 'QWTyNDq0dC4=', subresources: { status } },
      { name: 'persistentvolumes', singularName: 'persistentvolume', namespaced: false, kind: 'PersistentVolume', verbs: all, shortNames: ['pv'], storageVersionHash: 'HN/zwEC+JgM=', subresources: { status } },
      { name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: all, shortNames: ['po'], categories: ['all'], storageVersionHash: 'xPOwRZ+Yhw8=', subresources: { status } },
      { name: 'podtemplates', singularName: 'podtemplate', namespaced: true, kind: 'PodTemplate', verbs: all, storageVersionHash: 'LIXB2x4IFpk=' },
      { name: 'replicationcontrollers', singularName: 'replicationcontroller', namespaced: true, kind: 'ReplicationController', verbs: all, shortNames: ['rc'], categories: ['all'], storageVersionHash: 'Jond2If31h0=', subresources: { scale, status } },
      { name: 'resourcequotas', singularName: 'resourcequota', namespaced: true, kind: 'ResourceQuota', verbs: all, shortNames: ['quota'], storageVersionHash: '8uhSgffRX6w=', subresources: { status } },
      { name: 'secrets', singularName: 'secret', namespaced: true, kind: 'Secret', verbs: all, storageVersionHash: 'S6u1pOWzb84=' },
      { name: 'serviceaccounts', singularName: 'serviceaccount', namespaced: true, kind: 'ServiceAccount', verbs: all, shortNames: ['sa'], storageVersionHash: 'pbx9ZvyFpBE=' },
      { name: 'services', singularName: 'service', namespaced: true, kind: 'Service', verbs: all, shortNames: ['svc'], categories: ['all'], storageVersionHash: '0/CO1lhkEBI=', subresources: { status } },
    ],
  },
  {
    groupVersion: 'apiextensions.k8s.io/v1',
    source: 'api/discovery/apis__apiextensions.k8s.io__v1.json @ 6732d913237bd282d81fe99df860938c5d60480a',
    resources: [
      { name: 'customresourcedefinitions', singularName: 'customresourcedefinition', namespaced: false, kind: 'CustomResourceDefinition', verbs: all, shortNames: ['crd', 'crds'], categories: ['api-extensions'], storageVersionHash: 'jfWCUB31mvA=', subresources: { status } },
    ],
  },
  {
    groupVersion: 'apps/v1',
    source: 'api/discovery/apis__apps__v1.json @ d7ce957d8a8729e0e9c2e365288277d742491a5b',
    resources: [
      { name: 'controllerrevisions', singularName: 'controllerrevision', namespaced: true, kind: 'ControllerRevision', verbs: all, storageVersionHash: '85nkx63pcBU=' },
      { name: 'daemonsets', singularName: 'daemonset', namespaced: true, kind: 'DaemonSet', verbs: all, shortNames: ['ds'], categories: ['all'], storageVersionHash: 'dd7pWHUlMKQ=', subresources: { status } },
      { name: 'deployments', singularName: 'deployment', namespaced: true, kind: 'Deployment', verbs: all, shortNames: ['deploy'], categories: ['all'], storageVersionHash: '8aSe+NMegvE=', subresources: { scale, status } },
      { name: 'replicasets', singularName: 'replicaset', namespaced: true, kind: 'ReplicaSet', verbs: all, shortNames: ['rs'], categories: ['all'], storageVersionHash: 'P1RzHs8/mWQ=', subresources: { scale, status } },
      { name: 'statefulsets', singularName: 'statefulset', namespaced: true, kind: 'StatefulSet', verbs: all, shortNames: ['sts'], categories: ['all'], storageVersionHash: 'H+vl74LkKdo=', subresources: { scale, status } },
    ],
  },
  {
    // 7b99e078 adds a "podautoscalers" category (kubernetes#140781, after release-1.36).
    groupVersion: 'autoscaling/v2',
    source: 'api/discovery/apis__autoscaling__v2.json @ fa7ba8e2f963aad48acbd0aee416f9743af443f5',
    resources: [
      { name: 'horizontalpodautoscalers', singularName: 'horizontalpodautoscaler', namespaced: true, kind: 'HorizontalPodAutoscaler', verbs: all, shortNames: ['hpa'], categories: ['all'], storageVersionHash: 'qwQve8ut294=', subresources: { status } },
    ],
  },
  {
    groupVersion: 'batch/v1',
    source: 'api/discovery/apis__batch__v1.json @ 2e0908106e4420a601e50d6edfd41475de87a3e1',
    resources: [
      { name: 'cronjobs', singularName: 'cronjob', namespaced: true, kind: 'CronJob', verbs: all, shortNames: ['cj'], categories: ['all'], storageVersionHash: 'sd5LIXh4Fjs=', subresources: { status } },
      { name: 'jobs', singularName: 'job', namespaced: true, kind: 'Job', verbs: all, categories: ['all'], storageVersionHash: 'mudhfqk/qZY=', subresources: { status } },
    ],
  },
  {
    groupVersion: 'coordination.k8s.io/v1',
    source: 'api/discovery/apis__coordination.k8s.io__v1.json @ e0a566e71f693433f4bed729380e215e98a263ea',
    resources: [
      { name: 'leases', singularName: 'lease', namespaced: true, kind: 'Lease', verbs: all, storageVersionHash: 'gqkMMb/YqFM=' },
    ],
  },
  {
    // The stored document dates from 1.21, when EndpointSlices were stored as v1beta1 (its hash
    // Nx3SIv6I0mE=); v1beta1 is gone since 1.25, so they are stored as v1: the hash below.
    groupVersion: 'discovery.k8s.io/v1',
    source: 'api/discovery/apis__discovery.k8s.io__v1.json @ 4a0608cb77f6a53af41cb4a453af104a4d4a0610',
    resources: [
      { name: 'endpointslices', singularName: 'endpointslice', namespaced: true, kind: 'EndpointSlice', verbs: all, storageVersionHash: 'qgS0xkrxYAI=' },
    ],
  },
  {
    groupVersion: 'events.k8s.io/v1',
    source: 'api/discovery/apis__events.k8s.io__v1.json @ 31d0821ab4dd748338e302f34a750a2f8cf7ff98',
    resources: [
      { name: 'events', singularName: 'event', namespaced: true, kind: 'Event', verbs: all, shortNames: ['ev'], storageVersionHash: 'r2yiGXH7wu8=' },
    ],
  },
  {
    groupVersion: 'networking.k8s.io/v1',
    source: 'api/discovery/apis__networking.k8s.io__v1.json @ 7c66d0f84a20136b37a301223c7a3b42f1133ac9 (+watch) and aggregated_v2.json @ 0209a4cb',
    resources: [
      { name: 'ingresses', singularName: 'ingress', namespaced: true, kind: 'Ingress', verbs: all, shortNames: ['ing'], storageVersionHash: '39NQlfNR+bo=', subresources: { status } },
      { name: 'networkpolicies', singularName: 'networkpolicy', namespaced: true, kind: 'NetworkPolicy', verbs: all, shortNames: ['netpol'], storageVersionHash: 'YpfwF18m1G8=' },
    ],
  },
  {
    groupVersion: 'policy/v1',
    source: 'api/discovery/apis__policy__v1.json @ 7c66d0f84a20136b37a301223c7a3b42f1133ac9 (+watch) and aggregated_v2.json @ 0209a4cb',
    resources: [
      { name: 'poddisruptionbudgets', singularName: 'poddisruptionbudget', namespaced: true, kind: 'PodDisruptionBudget', verbs: all, shortNames: ['pdb'], storageVersionHash: 'EVWiDmWqyJw=', subresources: { status } },
    ],
  },
  {
    groupVersion: 'rbac.authorization.k8s.io/v1',
    source: 'api/discovery/apis__rbac.authorization.k8s.io__v1.json @ 025f2834a128798cef30018a5e6a6ae82b5ad885',
    resources: [
      { name: 'clusterrolebindings', singularName: 'clusterrolebinding', namespaced: false, kind: 'ClusterRoleBinding', verbs: all, storageVersionHash: '48tpQ8gZHFc=' },
      { name: 'clusterroles', singularName: 'clusterrole', namespaced: false, kind: 'ClusterRole', verbs: all, storageVersionHash: 'bYE5ZWDrJ44=' },
      { name: 'rolebindings', singularName: 'rolebinding', namespaced: true, kind: 'RoleBinding', verbs: all, storageVersionHash: 'eGsCzGH6b1g=' },
      { name: 'roles', singularName: 'role', namespaced: true, kind: 'Role', verbs: all, storageVersionHash: '7FuwZcIIItM=' },
    ],
  },
];

/** A review resource's row: a creater with no storage, so no storageVersionHash. */
export type UpstreamReviewResource = Omit<UpstreamAPIResource, 'storageVersionHash'>;

// The review resources served (review-resources.ts), from the same documents.
// prettier-ignore
export const upstreamReviewDiscovery: ReadonlyArray<{
  groupVersion: string;
  source: string;
  resources: readonly UpstreamReviewResource[];
}> = [
  {
    groupVersion: 'authentication.k8s.io/v1',
    source: 'api/discovery/apis__authentication.k8s.io__v1.json @ 2e0908106e4420a601e50d6edfd41475de87a3e1',
    resources: [
      { name: 'selfsubjectreviews', singularName: 'selfsubjectreview', namespaced: false, kind: 'SelfSubjectReview', verbs: ['create'] },
    ],
  },
  {
    groupVersion: 'authorization.k8s.io/v1',
    source: 'api/discovery/apis__authorization.k8s.io__v1.json @ 95f08499d652a6211121d8af35f470609217c730',
    resources: [
      { name: 'selfsubjectaccessreviews', singularName: 'selfsubjectaccessreview', namespaced: false, kind: 'SelfSubjectAccessReview', verbs: ['create'] },
      { name: 'selfsubjectrulesreviews', singularName: 'selfsubjectrulesreview', namespaced: false, kind: 'SelfSubjectRulesReview', verbs: ['create'] },
    ],
  },
];
