// Mirrors kubernetes/kubernetes pkg/printers/internalversion/printers.go AddHandlers: the one
// table of the built-in printers (columns and print function), by API group and resource, for the
// resources served here. A served built-in without a row (roles, clusterroles, limitranges, ...)
// has no printer upstream either and answers rest's default Name/Created At table.
import {
  configMapColumnDefinitions,
  namespaceColumnDefinitions,
  podColumnDefinitions,
  printConfigMap,
  printNamespace,
  printPod,
  type Json,
  type TableColumnDefinition,
  type TableRow,
} from './printers';
import {
  endpointColumnDefinitions,
  eventColumnDefinitions,
  nodeColumnDefinitions,
  persistentVolumeClaimColumnDefinitions,
  printEndpoints,
  printEvent,
  printEventsV1Event,
  printNode,
  printPersistentVolumeClaim,
  printResourceQuota,
  printSecret,
  printService,
  printServiceAccount,
  resourceQuotaColumnDefinitions,
  secretColumnDefinitions,
  serviceAccountColumnDefinitions,
  serviceColumnDefinitions,
} from './printers-core';
import {
  clusterRoleBindingColumnDefinitions,
  endpointSliceColumnDefinitions,
  horizontalPodAutoscalerColumnDefinitions,
  ingressColumnDefinitions,
  leaseColumnDefinitions,
  networkPolicyColumnDefinitions,
  podDisruptionBudgetColumnDefinitions,
  printEndpointSlice,
  printHorizontalPodAutoscaler,
  printIngress,
  printLease,
  printNetworkPolicy,
  printPodDisruptionBudget,
  printRoleBinding,
  roleBindingColumnDefinitions,
} from './printers-platform';
import {
  controllerRevisionColumnDefinitions,
  cronJobColumnDefinitions,
  daemonSetColumnDefinitions,
  deploymentColumnDefinitions,
  jobColumnDefinitions,
  printControllerRevision,
  printCronJob,
  printDaemonSet,
  printDeployment,
  printJob,
  printReplicaSet,
  printReplicationController,
  printScale,
  printStatefulSet,
  replicaSetColumnDefinitions,
  scaleColumnDefinitions,
  replicationControllerColumnDefinitions,
  statefulSetColumnDefinitions,
} from './printers-workloads';

/** A built-in's TableHandler: its columns and its print function. */
export interface TableHandler {
  columnDefinitions: readonly TableColumnDefinition[];
  print: (object: Json, now: number) => TableRow[];
}

type Row = [
  group: string,
  resource: string,
  columns: readonly TableColumnDefinition[],
  print: TableHandler['print'],
];

const rows: readonly Row[] = [
  ['', 'pods', podColumnDefinitions, printPod],
  ['', 'namespaces', namespaceColumnDefinitions, printNamespace],
  ['', 'configmaps', configMapColumnDefinitions, printConfigMap],
  ['', 'services', serviceColumnDefinitions, printService],
  ['', 'secrets', secretColumnDefinitions, printSecret],
  ['', 'serviceaccounts', serviceAccountColumnDefinitions, printServiceAccount],
  ['', 'events', eventColumnDefinitions, printEvent],
  ['', 'endpoints', endpointColumnDefinitions, printEndpoints],
  ['', 'nodes', nodeColumnDefinitions, printNode],
  [
    '',
    'persistentvolumeclaims',
    persistentVolumeClaimColumnDefinitions,
    printPersistentVolumeClaim,
  ],
  ['', 'resourcequotas', resourceQuotaColumnDefinitions, printResourceQuota],
  [
    '',
    'replicationcontrollers',
    replicationControllerColumnDefinitions,
    printReplicationController,
  ],
  ['apps', 'deployments', deploymentColumnDefinitions, printDeployment],
  ['apps', 'replicasets', replicaSetColumnDefinitions, printReplicaSet],
  ['apps', 'statefulsets', statefulSetColumnDefinitions, printStatefulSet],
  ['apps', 'daemonsets', daemonSetColumnDefinitions, printDaemonSet],
  ['apps', 'controllerrevisions', controllerRevisionColumnDefinitions, printControllerRevision],
  ['batch', 'jobs', jobColumnDefinitions, printJob],
  ['batch', 'cronjobs', cronJobColumnDefinitions, printCronJob],
  ['coordination.k8s.io', 'leases', leaseColumnDefinitions, printLease],
  ['events.k8s.io', 'events', eventColumnDefinitions, printEventsV1Event],
  ['discovery.k8s.io', 'endpointslices', endpointSliceColumnDefinitions, printEndpointSlice],
  ['rbac.authorization.k8s.io', 'rolebindings', roleBindingColumnDefinitions, printRoleBinding],
  [
    'rbac.authorization.k8s.io',
    'clusterrolebindings',
    clusterRoleBindingColumnDefinitions,
    printRoleBinding,
  ],
  ['networking.k8s.io', 'ingresses', ingressColumnDefinitions, printIngress],
  ['networking.k8s.io', 'networkpolicies', networkPolicyColumnDefinitions, printNetworkPolicy],
  [
    'policy',
    'poddisruptionbudgets',
    podDisruptionBudgetColumnDefinitions,
    printPodDisruptionBudget,
  ],
  [
    'autoscaling',
    'horizontalpodautoscalers',
    horizontalPodAutoscalerColumnDefinitions,
    printHorizontalPodAutoscaler,
  ],
];

/** The handlers for the served built-ins, by `group/resource` (core: `/resource`). */
export const builtInTableHandlers: ReadonlyMap<string, TableHandler> = new Map(
  rows.map(([group, resource, columnDefinitions, print]) => [
    `${group}/${resource}`,
    { columnDefinitions, print },
  ]),
);

/**
 * The handler of autoscaling.Scale (AddHandlers registers it by type, not by resource): what a
 * `/scale` GET of deployments, replicasets, statefulsets or replicationcontrollers prints.
 */
export const scaleTableHandler: TableHandler = {
  columnDefinitions: scaleColumnDefinitions,
  print: printScale,
};
