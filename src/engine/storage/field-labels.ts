// Mirrors kubernetes pkg/apis/core/v1/conversion.go (field label conversions), pkg/registry/core/pod/strategy.go (GetAttrs, ToSelectableFields), pkg/registry/core/namespace/strategy.go (GetAttrs) and apimachinery runtime.DefaultMetaV1FieldSelectorConversion (release-1.36).
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

// Per-resource conversions registered upstream with AddFieldLabelConversionFunc (v1 core subset).
const fieldLabelConversionFuncs: ReadonlyMap<string, FieldLabelConversionFunc> = new Map([
  ['pods', podFieldLabelConversion],
  ['namespaces', namespaceFieldLabelConversion],
]);

/** Scheme.ConvertFieldLabel for a resource (e.g. 'pods'); other resources get the metadata default. */
export function convertFieldLabel(
  resource: string,
  label: string,
  value: string,
): [string, string] {
  const fn = fieldLabelConversionFuncs.get(resource) ?? defaultMetaV1FieldSelectorConversion;
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
  return {
    labels,
    fields: {
      'metadata.name': obj.metadata?.name ?? '',
      'metadata.namespace': obj.metadata?.namespace ?? '',
    },
  };
}
