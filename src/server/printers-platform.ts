// Mirrors kubernetes/kubernetes pkg/printers/internalversion/printers.go (release-1.36) for the
// kinds outside core and the workloads: the column definitions AddHandlers gives leases,
// rolebindings, clusterrolebindings, poddisruptionbudgets, horizontalpodautoscalers,
// endpointslices, ingresses and networkpolicies, their print functions with options.Wide (the
// server prints every column), and formatHPAMetrics, formatDiscoveryPorts,
// formatDiscoveryEndpoints, listWithMoreString, formatHosts, formatPorts,
// ingressLoadBalancerStatusStringer and pkg/apis/rbac SubjectsStrings. Roles, clusterroles and
// limitranges have no printer upstream: they keep the default Name/Created At table. Deliberate
// differences: objects are JSON, read defensively; a resource.Quantity prints as stored.
import { formatLabelSelector } from './label-selector-string';
import { swaggerDoc as doc } from './printer-column-descriptions';
import { loadBalancerStatusStringer } from './printers-core';
import {
  ageColumn,
  arr,
  column,
  int,
  nameColumnDefinition,
  obj,
  str,
  translateTimestampSince,
  type Json,
  type TableColumnDefinition,
  type TableRow,
} from './printers';

/** leaseColumnDefinitions. */
export const leaseColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column('Holder', 'string', doc.leaseSpecHolderIdentity),
  ageColumn,
];

/** roleBindingsColumnDefinitions. */
export const roleBindingColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column('Role', 'string', doc.roleBindingRoleRef),
  ageColumn,
  column('Users', 'string', 'Users in the roleBinding', { priority: 1 }),
  column('Groups', 'string', 'Groups in the roleBinding', { priority: 1 }),
  column('ServiceAccounts', 'string', 'ServiceAccounts in the roleBinding', { priority: 1 }),
];

/** clusterRoleBindingsColumnDefinitions. */
export const clusterRoleBindingColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column('Role', 'string', doc.clusterRoleBindingRoleRef),
  ageColumn,
  column('Users', 'string', 'Users in the clusterRoleBinding', { priority: 1 }),
  column('Groups', 'string', 'Groups in the clusterRoleBinding', { priority: 1 }),
  column('ServiceAccounts', 'string', 'ServiceAccounts in the clusterRoleBinding', {
    priority: 1,
  }),
];

/** podDisruptionBudgetColumnDefinitions. */
export const podDisruptionBudgetColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column('Min Available', 'string', 'The minimum number of pods that must be available.'),
  column('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
  column(
    'Allowed Disruptions',
    'integer',
    'Calculated number of pods that may be disrupted at this time.',
  ),
  ageColumn,
];

/** horizontalPodAutoscalerColumnDefinitions. */
export const horizontalPodAutoscalerColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column('Reference', 'string', doc.hpaSpecScaleTargetRef),
  column('Targets', 'string', doc.hpaSpecMetrics),
  column('MinPods', 'string', doc.hpaSpecMinReplicas),
  column('MaxPods', 'string', doc.hpaSpecMaxReplicas),
  column('Replicas', 'string', doc.hpaStatusCurrentReplicas),
  ageColumn,
];

/** endpointSliceColumnDefinitions. */
export const endpointSliceColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column('AddressType', 'string', doc.endpointSliceAddressType),
  column('Ports', 'string', doc.endpointSlicePorts),
  column('Endpoints', 'string', doc.endpointSliceEndpoints),
  ageColumn,
];

/** ingressColumnDefinitions. */
export const ingressColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column(
    'Class',
    'string',
    'The name of the IngressClass resource that should be used for additional configuration',
  ),
  column(
    'Hosts',
    'string',
    'Hosts that incoming requests are matched against before the ingress rule',
  ),
  column('Address', 'string', 'Address is a list containing ingress points for the load-balancer'),
  column('Ports', 'string', 'Ports of TLS configurations that open'),
  ageColumn,
];

/** networkPolicyColumnDefinitioins. */
export const networkPolicyColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column('Pod-Selector', 'string', doc.networkPolicySpecPodSelector),
  ageColumn,
];

function row(object: Json, cells: unknown[]): TableRow[] {
  return [{ cells, object }];
}

const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/** resource.Quantity's String as stored; a nil *Quantity prints `<nil>`. */
function quantity(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return '<nil>';
}

/** intstr.IntOrString.String. */
function intOrString(v: unknown): string {
  return typeof v === 'number' ? String(Math.trunc(v)) : str(v);
}

/** printLease: HOLDER is spec.holderIdentity ('' when unset). */
export function printLease(lease: Json, now: number): TableRow[] {
  const meta = obj(lease.metadata);
  return row(lease, [
    str(meta.name),
    str(obj(lease.spec).holderIdentity),
    translateTimestampSince(meta.creationTimestamp, now),
  ]);
}

/** rbac.SubjectsStrings: users, groups and namespace/name service accounts. */
function subjectsStrings(subjects: Json[]): [string[], string[], string[]] {
  const users: string[] = [];
  const groups: string[] = [];
  const sas: string[] = [];
  for (const s of subjects) {
    if (s.kind === 'ServiceAccount') sas.push(`${str(s.namespace)}/${str(s.name)}`);
    else if (s.kind === 'User') users.push(str(s.name));
    else if (s.kind === 'Group') groups.push(str(s.name));
  }
  return [users, groups, sas];
}

/** printRoleBinding and printClusterRoleBinding. */
export function printRoleBinding(rb: Json, now: number): TableRow[] {
  const meta = obj(rb.metadata);
  const roleRef = obj(rb.roleRef);
  const [users, groups, sas] = subjectsStrings(arr(rb.subjects));
  return row(rb, [
    str(meta.name),
    `${str(roleRef.kind)}/${str(roleRef.name)}`,
    translateTimestampSince(meta.creationTimestamp, now),
    users.join(', '),
    groups.join(', '),
    sas.join(', '),
  ]);
}

/** printPodDisruptionBudget: N/A for an unset bound. */
export function printPodDisruptionBudget(pdb: Json, now: number): TableRow[] {
  const meta = obj(pdb.metadata);
  const spec = obj(pdb.spec);
  return row(pdb, [
    str(meta.name),
    isSet(spec.minAvailable) ? intOrString(spec.minAvailable) : 'N/A',
    isSet(spec.maxUnavailable) ? intOrString(spec.maxUnavailable) : 'N/A',
    int(obj(pdb.status).disruptionsAllowed),
    translateTimestampSince(meta.creationTimestamp, now),
  ]);
}

/** One metric's `current/target` text (formatHPAMetrics' switch). */
function hpaMetric(spec: Json, status: Json | undefined): string {
  const sourceOf = (key: string): Json | undefined =>
    status !== undefined && isSet(status[key]) ? obj(status[key]) : undefined;
  switch (spec.type) {
    case 'External':
    case 'Object': {
      const key = spec.type === 'External' ? 'external' : 'object';
      const target = obj(obj(spec[key]).target);
      const current = sourceOf(key);
      if (isSet(target.averageValue)) {
        const c = current !== undefined ? obj(current.current) : undefined;
        const cur =
          c !== undefined && isSet(c.averageValue) ? quantity(c.averageValue) : '<unknown>';
        return `${cur}/${quantity(target.averageValue)} (avg)`;
      }
      const cur = current !== undefined ? quantity(obj(current.current).value) : '<unknown>';
      return `${cur}/${quantity(target.value)}`;
    }
    case 'Pods': {
      const current = sourceOf('pods');
      const cur = current !== undefined ? quantity(obj(current.current).averageValue) : '<unknown>';
      return `${cur}/${quantity(obj(obj(spec.pods).target).averageValue)}`;
    }
    case 'Resource':
    case 'ContainerResource': {
      const key = spec.type === 'Resource' ? 'resource' : 'containerResource';
      const source = obj(spec[key]);
      const target = obj(source.target);
      const current = sourceOf(key);
      if (isSet(target.averageValue)) {
        const cur =
          current !== undefined ? quantity(obj(current.current).averageValue) : '<unknown>';
        return `${str(source.name)}: ${cur}/${quantity(target.averageValue)}`;
      }
      const c = current !== undefined ? obj(current.current) : undefined;
      const cur =
        c !== undefined && isSet(c.averageUtilization)
          ? `${int(c.averageUtilization)}%`
          : '<unknown>';
      const t = isSet(target.averageUtilization) ? `${int(target.averageUtilization)}%` : '<auto>';
      return `${str(source.name)}: ${cur}/${t}`;
    }
  }
  return '<unknown type>';
}

/** formatHPAMetrics: up to two metrics, `+ N more...`; `<none>` without metrics. */
export function formatHPAMetrics(specs: Json[], statuses: Json[]): string {
  if (specs.length === 0) return '<none>';
  const max = 2;
  let list = specs.map((spec, i) => hpaMetric(spec, statuses[i]));
  const count = list.length;
  const more = count > max;
  if (more) list = list.slice(0, max);
  const ret = list.join(', ');
  return more ? `${ret} + ${count - max} more...` : ret;
}

/** printHorizontalPodAutoscaler. */
export function printHorizontalPodAutoscaler(hpa: Json, now: number): TableRow[] {
  const meta = obj(hpa.metadata);
  const spec = obj(hpa.spec);
  const status = obj(hpa.status);
  const ref = obj(spec.scaleTargetRef);
  return row(hpa, [
    str(meta.name),
    `${str(ref.kind)}/${str(ref.name)}`,
    formatHPAMetrics(arr(spec.metrics), arr(status.currentMetrics)),
    isSet(spec.minReplicas) ? String(int(spec.minReplicas)) : '<unset>',
    int(spec.maxReplicas),
    int(status.currentReplicas),
    translateTimestampSince(meta.creationTimestamp, now),
  ]);
}

/** listWithMoreString: `<unset>` when empty. */
function listWithMoreString(list: string[], more: boolean, count: number, max: number): string {
  const ret = list.join(',');
  if (more) return `${ret} + ${count - max} more...`;
  return ret === '' ? '<unset>' : ret;
}

/** formatDiscoveryPorts: the port, else its name, else `*`. */
function formatDiscoveryPorts(ports: Json[]): string {
  const list: string[] = [];
  const max = 3;
  let more = false;
  for (const p of ports) {
    if (list.length < max) {
      list.push(isSet(p.port) ? String(int(p.port)) : isSet(p.name) ? str(p.name) : '*');
    } else if (list.length === max) more = true;
  }
  return listWithMoreString(list, more, ports.length, max);
}

/** formatDiscoveryEndpoints: every endpoint's addresses. */
function formatDiscoveryEndpoints(endpoints: Json[]): string {
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const e of endpoints) {
    for (const address of Array.isArray(e.addresses) ? e.addresses : []) {
      if (list.length < max) list.push(str(address));
      else if (list.length === max) more = true;
      count++;
    }
  }
  return listWithMoreString(list, more, count, max);
}

/** printEndpointSlice. */
export function printEndpointSlice(slice: Json, now: number): TableRow[] {
  const meta = obj(slice.metadata);
  return row(slice, [
    str(meta.name),
    str(slice.addressType),
    formatDiscoveryPorts(arr(slice.ports)),
    formatDiscoveryEndpoints(arr(slice.endpoints)),
    translateTimestampSince(meta.creationTimestamp, now),
  ]);
}

/** formatHosts: up to three rule hosts, `*` for none. */
function formatHosts(rules: Json[]): string {
  const list: string[] = [];
  const max = 3;
  let more = false;
  for (const rule of rules) {
    if (list.length === max) more = true;
    if (!more && str(rule.host).length !== 0) list.push(str(rule.host));
  }
  if (list.length === 0) return '*';
  const ret = list.join(',');
  return more ? `${ret} + ${rules.length - max} more...` : ret;
}

/** printIngress: PORTS is `80, 443` with TLS, else `80`. */
export function printIngress(ing: Json, now: number): TableRow[] {
  const meta = obj(ing.metadata);
  const spec = obj(ing.spec);
  return row(ing, [
    str(meta.name),
    typeof spec.ingressClassName === 'string' ? spec.ingressClassName : '<none>',
    formatHosts(arr(spec.rules)),
    loadBalancerStatusStringer(obj(obj(ing.status).loadBalancer)),
    arr(spec.tls).length !== 0 ? '80, 443' : '80',
    translateTimestampSince(meta.creationTimestamp, now),
  ]);
}

/** printNetworkPolicy. */
export function printNetworkPolicy(np: Json, now: number): TableRow[] {
  const meta = obj(np.metadata);
  return row(np, [
    str(meta.name),
    formatLabelSelector(obj(np.spec).podSelector),
    translateTimestampSince(meta.creationTimestamp, now),
  ]);
}
