// Mirrors k8s.io/apimachinery pkg/util/strategicpatch/meta.go (PatchMeta, LookupPatchMeta, PatchMetaFromStruct) and forkedjson.LookupPatchMetadataForStruct, over the patchStrategy/patchMergeKey struct tags of k8s.io/api core/v1 and apimachinery meta/v1 types.go (release-1.36).
// The tables list only the fields on a path to a tagged field (what a patch can act on
// differently); every other field merges as a plain map or is replaced as a plain list, which is
// what upstream does with an untagged field. Deliberate difference: a field the table does not
// know is treated as untagged, where upstream fails with `unable to find api field in struct …`
// (its original comes from a typed object, which has no unknown fields; ours may).

import { builtInDefinitionName } from './openapi-definitions';
import { PatchMetaFromOpenAPI } from './patch-meta-from-openapi';

/** strategicpatch.PatchMeta: the patch strategies and merge key of one field. */
export interface PatchMeta {
  patchStrategies: readonly string[];
  patchMergeKey: string;
}

/** strategicpatch.LookupPatchMeta: the schema of the value being merged. */
export interface LookupPatchMeta {
  /** The schema and patch metadata of a field holding a map (an object). */
  lookupPatchMetadataForStruct(key: string): [LookupPatchMeta, PatchMeta];
  /** The schema of the elements and the patch metadata of a field holding a list. */
  lookupPatchMetadataForSlice(key: string): [LookupPatchMeta, PatchMeta];
  /** The Go kind of the type (`struct`), as errors print it. */
  name(): string;
}

/**
 * One field: its Go kind (`slice` of structs, `struct`, `pointer` to a struct), the struct type
 * (of the field or of the list's elements; '' for a list of scalars), and its struct tags.
 */
export type FieldTag = readonly [
  kind: 'struct' | 'slice' | 'pointer',
  type: string,
  patchStrategy?: string,
  patchMergeKey?: string,
];

/** Struct name -> JSON field name -> tag. */
export type StructTags = Readonly<Record<string, Readonly<Record<string, FieldTag>>>>;

const noMeta: PatchMeta = { patchStrategies: [], patchMergeKey: '' };

/** strategicpatch.PatchMetaFromStruct over a table of struct tags. */
export class PatchMetaFromStruct implements LookupPatchMeta {
  /** kind is the Go kind of the type: a struct, or a slice/pointer when a list field's type. */
  constructor(
    private readonly tags: StructTags,
    private readonly type: string,
    private readonly kind: 'struct' | 'slice' | 'pointer' = 'struct',
  ) {}

  private field(key: string): FieldTag | undefined {
    const fields = this.tags[this.type];
    return fields && Object.prototype.hasOwnProperty.call(fields, key) ? fields[key] : undefined;
  }

  lookupPatchMetadataForStruct(key: string): [LookupPatchMeta, PatchMeta] {
    if (this.kind === 'slice')
      throw new Error('merging an object in json but data type is not struct, instead is: slice');
    const f = this.field(key);
    if (!f) return [new PatchMetaFromStruct(this.tags, ''), noMeta];
    return [
      new PatchMetaFromStruct(this.tags, f[1], f[0]),
      {
        // strings.Split of the tag: an untagged field has the one strategy "".
        patchStrategies: (f[2] ?? '').split(','),
        patchMergeKey: f[3] ?? '',
      },
    ];
  }

  lookupPatchMetadataForSlice(key: string): [LookupPatchMeta, PatchMeta] {
    const [sub, meta] = this.lookupPatchMetadataForStruct(key);
    const f = this.field(key);
    // A struct-typed field is not a list; upstream prints the kind of the type holding it.
    if (f && f[0] === 'struct')
      throw new Error(`expected slice or array type, but got: ${this.name()}`);
    return [f ? new PatchMetaFromStruct(this.tags, f[1]) : sub, meta];
  }

  name(): string {
    return this.kind === 'slice' ? 'slice' : 'struct';
  }
}

/** The tagged fields of core/v1 Pod, ConfigMap and Namespace and of meta/v1 ObjectMeta. */
export const coreV1StructTags: StructTags = {
  ObjectMeta: {
    ownerReferences: ['slice', 'OwnerReference', 'merge', 'uid'],
    finalizers: ['slice', '', 'merge'],
  },
  Pod: {
    metadata: ['struct', 'ObjectMeta'],
    spec: ['struct', 'PodSpec'],
    status: ['struct', 'PodStatus'],
  },
  PodSpec: {
    volumes: ['slice', 'Volume', 'merge,retainKeys', 'name'],
    initContainers: ['slice', 'Container', 'merge', 'name'],
    containers: ['slice', 'Container', 'merge', 'name'],
    ephemeralContainers: ['slice', 'EphemeralContainer', 'merge', 'name'],
    imagePullSecrets: ['slice', 'LocalObjectReference', 'merge', 'name'],
    hostAliases: ['slice', 'HostAlias', 'merge', 'ip'],
    topologySpreadConstraints: ['slice', 'TopologySpreadConstraint', 'merge', 'topologyKey'],
    schedulingGates: ['slice', 'PodSchedulingGate', 'merge', 'name'],
    resourceClaims: ['slice', 'PodResourceClaim', 'merge,retainKeys', 'name'],
  },
  Container: {
    ports: ['slice', 'ContainerPort', 'merge', 'containerPort'],
    env: ['slice', 'EnvVar', 'merge', 'name'],
    volumeMounts: ['slice', 'VolumeMount', 'merge', 'mountPath'],
    volumeDevices: ['slice', 'VolumeDevice', 'merge', 'devicePath'],
  },
  EphemeralContainer: {
    ports: ['slice', 'ContainerPort', 'merge', 'containerPort'],
    env: ['slice', 'EnvVar', 'merge', 'name'],
    volumeMounts: ['slice', 'VolumeMount', 'merge', 'mountPath'],
    volumeDevices: ['slice', 'VolumeDevice', 'merge', 'devicePath'],
  },
  Volume: { ephemeral: ['struct', 'EphemeralVolumeSource'] },
  EphemeralVolumeSource: { volumeClaimTemplate: ['struct', 'PersistentVolumeClaimTemplate'] },
  PersistentVolumeClaimTemplate: { metadata: ['struct', 'ObjectMeta'] },
  PodStatus: {
    conditions: ['slice', 'PodCondition', 'merge', 'type'],
    hostIPs: ['slice', 'HostIP', 'merge', 'ip'],
    podIPs: ['slice', 'PodIP', 'merge', 'ip'],
    initContainerStatuses: ['slice', 'ContainerStatus'],
    containerStatuses: ['slice', 'ContainerStatus'],
    ephemeralContainerStatuses: ['slice', 'ContainerStatus'],
    resourceClaimStatuses: ['slice', 'PodResourceClaimStatus', 'merge,retainKeys', 'name'],
  },
  ContainerStatus: {
    volumeMounts: ['slice', 'VolumeMountStatus', 'merge', 'mountPath'],
    allocatedResourcesStatus: ['slice', 'ResourceStatus', 'merge', 'name'],
  },
  ConfigMap: { metadata: ['struct', 'ObjectMeta'] },
  Namespace: { metadata: ['struct', 'ObjectMeta'], status: ['struct', 'NamespaceStatus'] },
  NamespaceStatus: { conditions: ['slice', 'NamespaceCondition', 'merge', 'type'] },
};

/**
 * The schema of a built-in kind: the core group's from the struct tags above (and apiextensions'
 * CustomResourceDefinition's, whose types tag no field but ObjectMeta's), every other built-in's
 * from its OpenAPI definition (patch-meta-from-openapi.ts); undefined for a kind no definition
 * names, a custom resource (Unstructured upstream: no struct tags, so no strategic merge patch).
 * A core kind without a table entry still knows ObjectMeta's tags.
 */
export function patchMetaForKind(
  group: string,
  version: string,
  kind: string,
): LookupPatchMeta | undefined {
  if (group === 'apiextensions.k8s.io' && kind === 'CustomResourceDefinition')
    return new PatchMetaFromStruct(
      { ...coreV1StructTags, [kind]: { metadata: ['struct', 'ObjectMeta'] } },
      kind,
    );
  if (group !== '') {
    const definition = builtInDefinitionName(group, version, kind);
    return definition ? PatchMetaFromOpenAPI.forDefinition(definition) : undefined;
  }
  if (Object.prototype.hasOwnProperty.call(coreV1StructTags, kind))
    return new PatchMetaFromStruct(coreV1StructTags, kind);
  return new PatchMetaFromStruct(
    { ...coreV1StructTags, [kind]: { metadata: ['struct', 'ObjectMeta'] } },
    kind,
  );
}
