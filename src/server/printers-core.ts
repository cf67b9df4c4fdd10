// Mirrors kubernetes/kubernetes pkg/printers/internalversion/printers.go (release-1.36) for the
// core/v1 kinds besides pods, namespaces and configmaps: the column definitions AddHandlers gives
// services, secrets, serviceaccounts, events, endpoints, nodes, persistentvolumeclaims and
// resourcequotas, their print functions with options.Wide (the server prints every column), and
// getServiceExternalIP, loadBalancerStatusStringer, makePortString, formatEndpoints,
// formatEventSource, findNodeRoles, GetAccessModesAsString. events.k8s.io/v1 Events print through
// the same printer (upstream converts them to the internal Event first). Deliberate differences:
// objects are JSON, so every field is read defensively; a resource.Quantity prints as stored
// (upstream prints its canonical form, the same for canonical input).
import { formatLabels } from './label-selector-string';
import { swaggerDoc as doc } from './printer-column-descriptions';
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

/** serviceColumnDefinitions. */
export const serviceColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column('Type', 'string', doc.serviceSpecType),
  column('Cluster-IP', 'string', doc.serviceSpecClusterIP),
  column('External-IP', 'string', doc.serviceSpecExternalIPs),
  column('Port(s)', 'string', doc.serviceSpecPorts),
  ageColumn,
  column('Selector', 'string', doc.serviceSpecSelector, { priority: 1 }),
];

/** secretColumnDefinitions. */
export const secretColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column('Type', 'string', doc.secretType),
  column('Data', 'string', doc.secretData),
  ageColumn,
];

/** serviceAccountColumnDefinitions. */
export const serviceAccountColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column('Secrets', 'string', doc.serviceAccountSecrets),
  ageColumn,
];

/** eventColumnDefinitions. */
export const eventColumnDefinitions: readonly TableColumnDefinition[] = [
  column('Last Seen', 'string', doc.eventLastTimestamp),
  column('Type', 'string', doc.eventType),
  column('Reason', 'string', doc.eventReason),
  column('Object', 'string', doc.eventInvolvedObject),
  column('Subobject', 'string', doc.objectReferenceFieldPath, { priority: 1 }),
  column('Source', 'string', doc.eventSource, { priority: 1 }),
  column('Message', 'string', doc.eventMessage),
  column('First Seen', 'string', doc.eventFirstTimestamp, { priority: 1 }),
  column('Count', 'string', doc.eventCount, { priority: 1 }),
  { ...nameColumnDefinition, priority: 1 },
];

/** endpointColumnDefinitions. */
export const endpointColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column('Endpoints', 'string', doc.endpointsSubsets),
  ageColumn,
];

/** nodeColumnDefinitions. */
export const nodeColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column('Status', 'string', 'The status of the node'),
  column('Roles', 'string', 'The roles of the node'),
  ageColumn,
  column('Version', 'string', doc.nodeSystemInfoKubeletVersion),
  column('Internal-IP', 'string', doc.nodeStatusAddresses, { priority: 1 }),
  column('External-IP', 'string', doc.nodeStatusAddresses, { priority: 1 }),
  column('OS-Image', 'string', doc.nodeSystemInfoOSImage, { priority: 1 }),
  column('Kernel-Version', 'string', doc.nodeSystemInfoKernelVersion, { priority: 1 }),
  column('Container-Runtime', 'string', doc.nodeSystemInfoContainerRuntimeVersion, {
    priority: 1,
  }),
];

/** persistentVolumeClaimColumnDefinitions. */
export const persistentVolumeClaimColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column('Status', 'string', doc.pvcStatusPhase),
  column('Volume', 'string', doc.pvcSpecVolumeName),
  column('Capacity', 'string', doc.pvcStatusCapacity),
  column('Access Modes', 'string', doc.pvcStatusAccessModes),
  column('StorageClass', 'string', 'StorageClass of the pvc'),
  column('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pvc'),
  ageColumn,
  column('VolumeMode', 'string', doc.pvcSpecVolumeMode, { priority: 1 }),
];

/** resourceQuotaColumnDefinitions. */
export const resourceQuotaColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column(
    'Request',
    'string',
    'Request represents a minimum amount of cpu/memory that a container may consume.',
  ),
  column(
    'Limit',
    'string',
    'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.',
  ),
  ageColumn,
];

function row(object: Json, cells: unknown[]): TableRow[] {
  return [{ cells, object }];
}

const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/** A resource.Quantity value's String as stored; the zero Quantity (unset) is `0`. */
function quantityOrZero(v: unknown): string {
  if (typeof v === 'number') return String(v);
  return str(v) || '0';
}

/** loadBalancerStatusStringer with wide: the ingress IPs (else hostnames), sorted, unique. */
export function loadBalancerStatusStringer(status: unknown): string {
  const result = new Set<string>();
  for (const ing of arr(obj(status).ingress)) {
    if (str(ing.ip) !== '') result.add(str(ing.ip));
    else if (str(ing.hostname) !== '') result.add(str(ing.hostname));
  }
  return [...result].sort().join(',');
}

/** getServiceExternalIP (wide: a load balancer's list is not clipped). */
function getServiceExternalIP(spec: Json, status: Json): string {
  const externalIPs = Array.isArray(spec.externalIPs) ? spec.externalIPs.map(str) : [];
  switch (spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const lbIps = loadBalancerStatusStringer(obj(status.loadBalancer));
      if (externalIPs.length > 0) {
        const results = lbIps.length > 0 ? lbIps.split(',') : [];
        return [...results, ...externalIPs].join(',');
      }
      return lbIps.length > 0 ? lbIps : '<pending>';
    }
    case 'ExternalName':
      return str(spec.externalName);
  }
  return '<unknown>';
}

/** makePortString: `port/protocol`, `port:nodePort/protocol` when a node port is set. */
function makePortString(ports: Json[]): string {
  return ports
    .map((p) =>
      int(p.nodePort) > 0
        ? `${int(p.port)}:${int(p.nodePort)}/${str(p.protocol)}`
        : `${int(p.port)}/${str(p.protocol)}`,
    )
    .join(',');
}

/** printService. */
export function printService(svc: Json, now: number): TableRow[] {
  const meta = obj(svc.metadata);
  const spec = obj(svc.spec);
  const clusterIPs = Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [];
  const internalIP = clusterIPs.length > 0 ? str(clusterIPs[0]) : '<none>';
  const svcPorts = makePortString(arr(spec.ports)) || '<none>';
  return row(svc, [
    str(meta.name),
    str(spec.type),
    internalIP,
    getServiceExternalIP(spec, obj(svc.status)),
    svcPorts,
    translateTimestampSince(meta.creationTimestamp, now),
    formatLabels(spec.selector),
  ]);
}

/** printSecret: DATA counts the data keys. */
export function printSecret(secret: Json, now: number): TableRow[] {
  const meta = obj(secret.metadata);
  return row(secret, [
    str(meta.name),
    str(secret.type),
    Object.keys(obj(secret.data)).length,
    translateTimestampSince(meta.creationTimestamp, now),
  ]);
}

/** printServiceAccount: SECRETS counts the secret references. */
export function printServiceAccount(sa: Json, now: number): TableRow[] {
  const meta = obj(sa.metadata);
  return row(sa, [
    str(meta.name),
    arr(sa.secrets).length,
    translateTimestampSince(meta.creationTimestamp, now),
  ]);
}

/** The internal Event's fields printEvent reads, from a core/v1 or an events.k8s.io/v1 Event. */
interface EventView {
  name: string;
  firstTimestamp: unknown;
  lastTimestamp: unknown;
  eventTime: unknown;
  count: number;
  series: Json | undefined;
  involvedObject: Json;
  type: string;
  reason: string;
  message: string;
  source: Json;
  reportingController: string;
  reportingInstance: string;
}

function coreEventView(e: Json): EventView {
  return {
    name: str(obj(e.metadata).name),
    firstTimestamp: e.firstTimestamp,
    lastTimestamp: e.lastTimestamp,
    eventTime: e.eventTime,
    count: int(e.count),
    series: isSet(e.series) ? obj(e.series) : undefined,
    involvedObject: obj(e.involvedObject),
    type: str(e.type),
    reason: str(e.reason),
    message: str(e.message),
    source: obj(e.source),
    reportingController: str(e.reportingComponent),
    reportingInstance: str(e.reportingInstance),
  };
}

/** events.k8s.io/v1 → core (pkg/apis/events/v1 conversion's field mapping). */
function eventsV1EventView(e: Json): EventView {
  return {
    name: str(obj(e.metadata).name),
    firstTimestamp: e.deprecatedFirstTimestamp,
    lastTimestamp: e.deprecatedLastTimestamp,
    eventTime: e.eventTime,
    count: int(e.deprecatedCount),
    series: isSet(e.series) ? obj(e.series) : undefined,
    involvedObject: obj(e.regarding),
    type: str(e.type),
    reason: str(e.reason),
    message: str(e.note),
    source: obj(e.deprecatedSource),
    reportingController: str(e.reportingController),
    reportingInstance: str(e.reportingInstance),
  };
}

/** translateTimestampSince of a zero-able time: is it the zero time (unset, null or "")? */
const isZeroTime = (t: unknown): boolean => typeof t !== 'string' || t === '' || t === 'null';

/** formatEventSource: component (else reportingController), `, host` (else reportingInstance). */
function formatEventSource(source: Json, reportingController: string, reportingInstance: string) {
  const component = str(source.component) || reportingController;
  const instance = str(source.host) || reportingInstance;
  return instance.length === 0 ? component : `${component}, ${instance}`;
}

function printEventView(e: EventView, object: Json, now: number): TableRow[] {
  let firstTimestamp = translateTimestampSince(e.firstTimestamp, now);
  if (isZeroTime(e.firstTimestamp)) firstTimestamp = translateTimestampSince(e.eventTime, now);
  let lastTimestamp = translateTimestampSince(e.lastTimestamp, now);
  if (isZeroTime(e.lastTimestamp)) lastTimestamp = firstTimestamp;
  let count = e.count;
  if (e.series !== undefined) {
    lastTimestamp = translateTimestampSince(e.series.lastObservedTime, now);
    count = int(e.series.count);
  } else if (count === 0) count = 1; // Singleton events don't have a count set in the new API.
  const kind = str(e.involvedObject.kind).toLowerCase();
  const involvedName = str(e.involvedObject.name);
  const target = involvedName.length > 0 ? `${kind}/${involvedName}` : kind;
  return row(object, [
    lastTimestamp,
    e.type,
    e.reason,
    target,
    str(e.involvedObject.fieldPath),
    formatEventSource(e.source, e.reportingController, e.reportingInstance),
    e.message.trim(),
    firstTimestamp,
    count,
    e.name,
  ]);
}

/** printEvent for a core/v1 Event. */
export function printEvent(event: Json, now: number): TableRow[] {
  return printEventView(coreEventView(event), event, now);
}

/**
 * printEvent for an events.k8s.io/v1 Event (event-conversion.ts has already converted one stored
 * through core/v1; one that still has involvedObject reads as a core Event).
 */
export function printEventsV1Event(event: Json, now: number): TableRow[] {
  const view = isSet(event.involvedObject) ? coreEventView(event) : eventsV1EventView(event);
  return printEventView(view, event, now);
}

/** net.JoinHostPort: an IPv6 host in brackets. */
function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** formatEndpoints with ports=nil: up to three host:port (or IP) entries, `+ N more...`. */
export function formatEndpoints(endpoints: Json): string {
  const subsets = arr(endpoints.subsets);
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const ss of subsets) {
    const addresses = arr(ss.addresses);
    const ports = arr(ss.ports);
    if (ports.length === 0) {
      // Headless services with no ports.
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(str(a.ip));
      }
      continue;
    }
    for (const port of ports) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(joinHostPort(str(a.ip), int(port.port)));
      }
    }
  }
  const ret = list.join(',');
  return more ? `${ret} + ${count - max} more...` : ret;
}

/** printEndpoints. */
export function printEndpoints(ep: Json, now: number): TableRow[] {
  const meta = obj(ep.metadata);
  return row(ep, [
    str(meta.name),
    formatEndpoints(ep),
    translateTimestampSince(meta.creationTimestamp, now),
  ]);
}

const labelNodeRolePrefix = 'node-role.kubernetes.io/';
const nodeLabelRole = 'kubernetes.io/role';

/** findNodeRoles: node-role.kubernetes.io/<role> keys and kubernetes.io/role values, sorted. */
function findNodeRoles(labels: Json): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(labels)) {
    if (k.startsWith(labelNodeRolePrefix)) {
      const role = k.slice(labelNodeRolePrefix.length);
      if (role.length > 0) roles.add(role);
    } else if (k === nodeLabelRole && str(v) !== '') roles.add(str(v));
  }
  return [...roles].sort();
}

function nodeAddress(addresses: Json[], type: string): string {
  const a = addresses.find((x) => x.type === type);
  return a === undefined ? '<none>' : str(a.address);
}

/** printNode: STATUS from the Ready condition, SchedulingDisabled when unschedulable. */
export function printNode(node: Json, now: number): TableRow[] {
  const meta = obj(node.metadata);
  const status = obj(node.status);
  const status_: string[] = [];
  // The last condition of a type wins, as the condition map does.
  let ready: Json | undefined;
  for (const c of arr(status.conditions)) if (c.type === 'Ready') ready = c;
  if (ready !== undefined) status_.push(ready.status === 'True' ? 'Ready' : 'NotReady');
  if (status_.length === 0) status_.push('Unknown');
  if (obj(node.spec).unschedulable === true) status_.push('SchedulingDisabled');
  const roles = findNodeRoles(obj(meta.labels)).join(',') || '<none>';
  const info = obj(status.nodeInfo);
  const addresses = arr(status.addresses);
  return row(node, [
    str(meta.name),
    status_.join(','),
    roles,
    translateTimestampSince(meta.creationTimestamp, now),
    str(info.kubeletVersion),
    nodeAddress(addresses, 'InternalIP'),
    nodeAddress(addresses, 'ExternalIP'),
    str(info.osImage) || '<unknown>',
    str(info.kernelVersion) || '<unknown>',
    str(info.containerRuntimeVersion) || '<unknown>',
  ]);
}

/** helper.GetAccessModesAsString: RWO, ROX, RWX, RWOP in that order. */
function getAccessModesAsString(modes: unknown): string {
  const m = Array.isArray(modes) ? modes : [];
  const out: string[] = [];
  if (m.includes('ReadWriteOnce')) out.push('RWO');
  if (m.includes('ReadOnlyMany')) out.push('ROX');
  if (m.includes('ReadWriteMany')) out.push('RWX');
  if (m.includes('ReadWriteOncePod')) out.push('RWOP');
  return out.join(',');
}

/** printPersistentVolumeClaim. */
export function printPersistentVolumeClaim(pvc: Json, now: number): TableRow[] {
  const meta = obj(pvc.metadata);
  const spec = obj(pvc.spec);
  const status = obj(pvc.status);
  const phase = isSet(meta.deletionTimestamp) ? 'Terminating' : str(status.phase);
  const volumeName = str(spec.volumeName);
  let capacity = '';
  let accessModes = '';
  if (volumeName !== '') {
    accessModes = getAccessModesAsString(status.accessModes);
    // A missing quantity is the zero Quantity, "0".
    capacity = quantityOrZero(obj(status.capacity).storage);
  }
  // helper.GetPersistentVolumeClaimClass: the beta annotation wins over storageClassName.
  const annotations = obj(meta.annotations);
  const betaClass = 'volume.beta.kubernetes.io/storage-class';
  const storageClass =
    betaClass in annotations ? str(annotations[betaClass]) : str(spec.storageClassName);
  return row(pvc, [
    str(meta.name),
    phase,
    volumeName,
    capacity,
    accessModes,
    storageClass,
    typeof spec.volumeAttributesClassName === 'string' ? spec.volumeAttributesClassName : '<unset>',
    translateTimestampSince(meta.creationTimestamp, now),
    typeof spec.volumeMode === 'string' ? spec.volumeMode : '<unset>',
  ]);
}

/** printResourceQuota: `resource: used/hard` in resource order, limits.* in LIMIT. */
export function printResourceQuota(rq: Json, now: number): TableRow[] {
  const meta = obj(rq.metadata);
  const status = obj(rq.status);
  const hard = obj(status.hard);
  const used = obj(status.used);
  const request: string[] = [];
  const limit: string[] = [];
  for (const resource of Object.keys(hard).sort()) {
    const pieces = resource.split('.');
    const w = pieces.length > 1 && pieces[0] === 'limits' ? limit : request;
    w.push(`${resource}: ${quantityOrZero(used[resource])}/${quantityOrZero(hard[resource])}`);
  }
  return row(rq, [
    str(meta.name),
    request.join(', '),
    limit.join(', '),
    translateTimestampSince(meta.creationTimestamp, now),
  ]);
}
