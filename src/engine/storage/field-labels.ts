// Mirrors kubernetes pkg/apis/core/v1/conversion.go and pkg/apis/events/v1/conversion.go (field label conversions), pkg/registry/core/{pod,namespace,node,replicationcontroller,secret,service,event}/strategy.go (GetAttrs, ToSelectableFields) and apimachinery runtime.DefaultMetaV1FieldSelectorConversion (release-1.36).
// Which fields a field selector may name, and the field values an object offers to it.
import type { Fields } from './fields';
import { quote } from './go-strings';
import type { Labels } from './labels';
import type { KubeObject, Pod } from './objects';

/** Converts a field label of a selector, or throws (the HTTP layer turns that into a 400). */
export type FieldLabelConversionFunc = (label: string, value: string) => [string, string];

const podFieldLabels = new Set([
  'metadata.name',
  'metadata.namespace',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.schedulerName',
  'spec.serviceAccountName',
  'spec.hostNetwork',
  'status.phase',
  'status.podIP',
  'status.podIPs',
  'status.nominatedNodeName',
]);

function podFieldLabelConversion(label: string, value: string): [string, string] {
  if (podFieldLabels.has(label)) return [label, value];
  // Backwards compatibility with old v1 clients that send spec.host.
  if (label === 'spec.host') return ['spec.nodeName', value];
  throw new Error(`field label not supported: ${label}`);
}

// core/v1 AddFieldLabelConversionsForNamespace: status.phase and metadata.name only.
function namespaceFieldLabelConversion(label: string, value: string): [string, string] {
  if (label === 'status.phase' || label === 'metadata.name') return [label, value];
  throw new Error(`field label not supported: ${label}`);
}

/** A conversion that accepts `labels` as they are (AddFieldLabelConversionFunc's switch). */
function fieldLabelsOf(...labels: string[]): FieldLabelConversionFunc {
  const known = new Set(labels);
  return (label, value) => {
    if (known.has(label)) return [label, value];
    throw new Error(`field label not supported: ${label}`);
  };
}

// core/v1 AddFieldLabelConversionsForEvent.
const eventFieldLabelConversion = fieldLabelsOf(
  'involvedObject.kind',
  'involvedObject.namespace',
  'involvedObject.name',
  'involvedObject.uid',
  'involvedObject.apiVersion',
  'involvedObject.resourceVersion',
  'involvedObject.fieldPath',
  'reason',
  'reportingComponent',
  'source',
  'type',
  'metadata.namespace',
  'metadata.name',
);

// events.k8s.io/v1 AddFieldLabelConversionsForEvent: its names mapped to the core fieldset.
const eventsV1FieldLabels: Readonly<Record<string, string>> = {
  reason: 'reason',
  'regarding.kind': 'involvedObject.kind',
  'regarding.namespace': 'involvedObject.namespace',
  'regarding.name': 'involvedObject.name',
  'regarding.uid': 'involvedObject.uid',
  'regarding.apiVersion': 'involvedObject.apiVersion',
  'regarding.resourceVersion': 'involvedObject.resourceVersion',
  'regarding.fieldPath': 'involvedObject.fieldPath',
  reportingController: 'reportingComponent',
  source: 'source',
  type: 'type',
  'metadata.namespace': 'metadata.namespace',
  'metadata.name': 'metadata.name',
};

function eventsV1FieldLabelConversion(label: string, value: string): [string, string] {
  if (Object.hasOwn(eventsV1FieldLabels, label)) return [eventsV1FieldLabels[label], value];
  throw new Error(`field label not supported: ${label}`);
}

/** runtime.DefaultMetaV1FieldSelectorConversion: only metadata.name and metadata.namespace. */
export function defaultMetaV1FieldSelectorConversion(
  label: string,
  value: string,
): [string, string] {
  if (label === 'metadata.name' || label === 'metadata.namespace') return [label, value];
  throw new Error(
    `${quote(label)} is not a known field selector: only "metadata.name", "metadata.namespace"`,
  );
}

// Per-resource conversions registered upstream with AddFieldLabelConversionFunc, by
// `<group>/<resource>` ('' for core).
const fieldLabelConversionFuncs: ReadonlyMap<string, FieldLabelConversionFunc> = new Map([
  ['/pods', podFieldLabelConversion],
  ['/namespaces', namespaceFieldLabelConversion],
  ['/nodes', fieldLabelsOf('metadata.name', 'spec.unschedulable')],
  [
    '/replicationcontrollers',
    fieldLabelsOf('metadata.name', 'metadata.namespace', 'status.replicas'),
  ],
  ['/events', eventFieldLabelConversion],
  ['/secrets', fieldLabelsOf('type', 'metadata.namespace', 'metadata.name')],
  [
    '/services',
    fieldLabelsOf('metadata.namespace', 'metadata.name', 'spec.clusterIP', 'spec.type'),
  ],
  ['events.k8s.io/events', eventsV1FieldLabelConversion],
]);

/**
 * Scheme.ConvertFieldLabel for a resource (e.g. 'pods') of a group ('' for core); other
 * resources get the metadata default.
 */
export function convertFieldLabel(
  resource: string,
  label: string,
  value: string,
  group = '',
): [string, string] {
  const fn =
    fieldLabelConversionFuncs.get(`${group}/${resource}`) ?? defaultMetaV1FieldSelectorConversion;
  return fn(label, value);
}

/** The labels and selectable fields of an object (storage.AttrFunc's result). */
export interface ObjectAttributes {
  labels: Labels;
  fields: Fields;
}

const noLabels: Labels = Object.freeze({});

/** pod.ToSelectableFields: the pod-specific fields plus metadata.name/namespace. */
export function podSelectableFields(pod: Pod): Record<string, string> {
  const spec = pod.spec ?? { containers: null };
  const status = pod.status ?? {};
  // v1 -> internal conversion fills podIPs from podIP; ToSelectableFields reads podIPs[0].
  const podIP =
    status.podIPs && status.podIPs.length > 0 ? status.podIPs[0].ip : (status.podIP ?? '');
  return {
    'spec.nodeName': spec.nodeName ?? '',
    'spec.restartPolicy': spec.restartPolicy ?? '',
    'spec.schedulerName': spec.schedulerName ?? '',
    'spec.serviceAccountName': spec.serviceAccountName ?? '',
    'spec.hostNetwork': spec.hostNetwork ? 'true' : 'false',
    'status.phase': status.phase ?? '',
    'status.podIP': podIP,
    'status.nominatedNodeName': status.nominatedNodeName ?? '',
    'metadata.name': pod.metadata?.name ?? '',
    'metadata.namespace': pod.metadata?.namespace ?? '',
  };
}

/**
 * The labels and field set a selector is matched against: pod.GetAttrs for 'pods',
 * namespace.GetAttrs for 'namespaces', storage.DefaultNamespaceScopedAttr (metadata.name,
 * metadata.namespace) otherwise.
 */
export function getAttrs(obj: KubeObject, resource = 'pods'): ObjectAttributes {
  const labels = obj.metadata?.labels ?? noLabels;
  if (resource === 'pods') return { labels, fields: podSelectableFields(obj as Pod) };
  if (resource === 'namespaces') {
    // namespace.NamespaceToSelectableFields: cluster-scoped metadata fields, status.phase, and
    // `name` (kept upstream for backward compatibility).
    const name = obj.metadata?.name ?? '';
    const phase = (obj as { status?: { phase?: string } }).status?.phase ?? '';
    return { labels, fields: { 'metadata.name': name, 'status.phase': phase, name } };
  }
  const meta = {
    'metadata.name': obj.metadata?.name ?? '',
    'metadata.namespace': obj.metadata?.namespace ?? '',
  };
  const selectable = kindSelectableFields[resource]?.(obj as unknown as Loose);
  return { labels, fields: selectable ? { ...selectable, ...meta } : meta };
}

type Loose = Record<string, unknown>;

const objectOf = (v: unknown): Loose =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Loose) : {};
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * event.ToSelectableFields (pkg/registry/core/event/strategy.go) of a core/v1 Event, or of an
 * events.k8s.io/v1 one read through its storage (regarding is involvedObject, reportingController
 * reportingComponent, deprecatedSource source), as upstream selects on the internal Event.
 */
function eventSelectableFields(event: Loose): Record<string, string> {
  const v1 = event.apiVersion === 'events.k8s.io/v1';
  const ref = objectOf(v1 ? event.regarding : event.involvedObject);
  // core/v1 names ReportingController `reportingComponent` in JSON.
  const reportingController = text(v1 ? event.reportingController : event.reportingComponent);
  const component = text(objectOf(v1 ? event.deprecatedSource : event.source).component);
  return {
    'involvedObject.kind': text(ref.kind),
    'involvedObject.namespace': text(ref.namespace),
    'involvedObject.name': text(ref.name),
    'involvedObject.uid': text(ref.uid),
    'involvedObject.apiVersion': text(ref.apiVersion),
    'involvedObject.resourceVersion': text(ref.resourceVersion),
    'involvedObject.fieldPath': text(ref.fieldPath),
    reason: text(event.reason),
    reportingComponent: reportingController,
    source: component === '' ? reportingController : component,
    type: text(event.type),
  };
}

/** The fields each kind's ToSelectableFields adds to its ObjectMeta's, by resource. */
const kindSelectableFields: Readonly<Record<string, (obj: Loose) => Record<string, string>>> = {
  events: eventSelectableFields,
  // node.ToSelectableFields: fmt.Sprint of the bool.
  nodes: (node) => ({ 'spec.unschedulable': String(objectOf(node.spec).unschedulable === true) }),
  // replicationcontroller.ToSelectableFields: strconv.Itoa(status.replicas).
  replicationcontrollers: (rc) => {
    const replicas = objectOf(rc.status).replicas;
    return { 'status.replicas': String(typeof replicas === 'number' ? replicas : 0) };
  },
  secrets: (secret) => ({ type: text(secret.type) }),
  services: (service) => ({
    'spec.clusterIP': text(objectOf(service.spec).clusterIP),
    'spec.type': text(objectOf(service.spec).type),
  }),
};
