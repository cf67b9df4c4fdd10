// The OpenAPI definitions of the built-in kinds this server serves (Pod, ConfigMap, Namespace and
// the meta/v1 types they use), a compact hand-written subset of kube-apiserver's generated
// definitions (kubernetes/kubernetes pkg/generated/openapi, release-1.36): the same definition
// names, descriptions of the top-level kinds, and every strategic-merge-patch key
// (x-kubernetes-patch-merge-key / -patch-strategy) and list-type of the fields present, which is
// what `kubectl apply` and `explain` read. Fields kube-apiserver has and this subset lacks are
// simply absent. References are written `#/definitions/<name>`; the v3 document rewrites them.

export type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/definitions/${name}` });
const str = (description: string): Schema => ({ type: 'string', description });
const int = (description: string, format = 'int64'): Schema => ({
  type: 'integer',
  format,
  description,
});
const bool = (description: string): Schema => ({ type: 'boolean', description });
const stringMap = (description: string): Schema => ({
  type: 'object',
  description,
  additionalProperties: { type: 'string', default: '' },
});
const stringList = (description: string): Schema => ({
  type: 'array',
  description,
  items: { type: 'string', default: '' },
  'x-kubernetes-list-type': 'atomic',
});
/** A list merged by a key under strategic merge patch (`patchStrategy:"merge" patchMergeKey:…`). */
const mergeList = (description: string, item: string, key: string, mapKeys = [key]): Schema => ({
  type: 'array',
  description,
  items: { ...ref(item), default: {} },
  'x-kubernetes-list-map-keys': mapKeys,
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-patch-merge-key': key,
  'x-kubernetes-patch-strategy': 'merge',
});
const gvk = (kind: string): Schema => ({
  'x-kubernetes-group-version-kind': [{ group: '', kind, version: 'v1' }],
});

const meta = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const core = 'io.k8s.api.core.v1';

const apiVersion = str(
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
);
const kind = str(
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
);
const objectMeta = {
  ...ref(`${meta}.ObjectMeta`),
  default: {},
  description:
    "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
};

/** The name every served kind's metadata references. */
export const objectMetaDefinition = `${meta}.ObjectMeta`;
export const listMetaDefinition = `${meta}.ListMeta`;
/** The body of every PATCH and the answer of a delete. */
export const patchDefinition = `${meta}.Patch`;
export const statusDefinition = `${meta}.Status`;

/** The definitions written out in full. */
const modelled: Record<string, Schema> = {
  [`${meta}.Time`]: {
    type: 'string',
    format: 'date-time',
    description:
      'Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.  Wrappers are provided for many of the factory methods that the time package offers.',
  },
  [`${meta}.ListMeta`]: {
    type: 'object',
    description:
      'ListMeta describes metadata that synthetic resources must have, including lists and various status objects. A resource may have only one of {ObjectMeta, ListMeta}.',
    properties: {
      continue: str(
        'continue may be set if the user set a limit on the number of items returned, and indicates that the server has more data available.',
      ),
      remainingItemCount: int(
        'remainingItemCount is the number of subsequent items in the list which are not included in this list response.',
      ),
      resourceVersion: str(
        "String that identifies the server's internal version of this object that can be used by clients to determine when objects have changed.",
      ),
    },
  },
  [`${meta}.Patch`]: {
    type: 'object',
    description:
      'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.',
  },
  [`${meta}.Status`]: {
    type: 'object',
    description: "Status is a return value for calls that don't return other objects.",
    properties: {
      apiVersion,
      code: int('Suggested HTTP return code for this status, 0 if not set.', 'int32'),
      kind,
      message: str('A human-readable description of the status of this operation.'),
      metadata: { ...ref(`${meta}.ListMeta`), default: {} },
      reason: str(
        'A machine-readable description of why this operation is in the "Failure" status.',
      ),
      status: str('Status of the operation. One of: "Success" or "Failure".'),
    },
    'x-kubernetes-group-version-kind': [{ group: '', kind: 'Status', version: 'v1' }],
  },
  [`${meta}.OwnerReference`]: {
    type: 'object',
    description:
      'OwnerReference contains enough information to let you identify an owning object. An owning object must be in the same namespace as the dependent, or be cluster-scoped, so there is no namespace field.',
    required: ['apiVersion', 'kind', 'name', 'uid'],
    properties: {
      apiVersion: str('API version of the referent.'),
      blockOwnerDeletion: bool(
        'If true, AND if the owner has the "foregroundDeletion" finalizer, then the owner cannot be deleted from the key-value store until this reference is removed.',
      ),
      controller: bool('If true, this reference points to the managing controller.'),
      kind: str('Kind of the referent.'),
      name: str('Name of the referent.'),
      uid: str('UID of the referent.'),
    },
    'x-kubernetes-map-type': 'atomic',
  },
  [`${meta}.ObjectMeta`]: {
    type: 'object',
    description:
      'ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.',
    properties: {
      annotations: stringMap(
        'Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata. They are not queryable and should be preserved when modifying objects. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/annotations',
      ),
      creationTimestamp: {
        ...ref(`${meta}.Time`),
        description:
          'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.',
      },
      deletionGracePeriodSeconds: int(
        'Number of seconds allowed for this object to gracefully terminate before it will be removed from the system. Only set when deletionTimestamp is also set. May only be shortened. Read-only.',
      ),
      deletionTimestamp: {
        ...ref(`${meta}.Time`),
        description:
          'DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted. This field is set by the server when a graceful deletion is requested by the user, and is not directly settable by a client.',
      },
      finalizers: {
        type: 'array',
        description:
          'Must be empty before the object is deleted from the resources. Each entry is an identifier for the responsible component that will remove the entry from the list.',
        items: { type: 'string', default: '' },
        'x-kubernetes-list-type': 'set',
        'x-kubernetes-patch-strategy': 'merge',
      },
      generateName: str(
        'GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided.',
      ),
      generation: int(
        'A sequence number representing a specific generation of the desired state. Populated by the system. Read-only.',
      ),
      labels: stringMap(
        'Map of string keys and values that can be used to organize and categorize (scope and select) objects. May match selectors of replication controllers and services. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels',
      ),
      name: str(
        'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
      ),
      namespace: str(
        'Namespace defines the space within which each name must be unique. An empty namespace is equivalent to the "default" namespace, but "default" is the canonical representation. Not all objects are required to be scoped to a namespace - the value of this field for those objects will be empty.',
      ),
      ownerReferences: mergeList(
        'List of objects depended by this object. If ALL objects in the list have been deleted, this object will be garbage collected.',
        `${meta}.OwnerReference`,
        'uid',
      ),
      resourceVersion: str(
        'An opaque value that represents the internal version of this object that can be used by clients to determine when objects have changed. Populated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency',
      ),
      uid: str(
        'UID is the unique in time and space value for this object. It is typically generated by the server on successful creation of a resource and is not allowed to change on PUT operations. Populated by the system. Read-only. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#uids',
      ),
    },
  },
  [`${core}.ContainerPort`]: {
    type: 'object',
    description: 'ContainerPort represents a network port in a single container.',
    required: ['containerPort'],
    properties: {
      containerPort: int(
        "Number of port to expose on the pod's IP address. This must be a valid port number, 0 < x < 65536.",
        'int32',
      ),
      hostPort: int('Number of port to expose on the host.', 'int32'),
      name: str('If specified, this must be an IANA_SVC_NAME and unique within the pod.'),
      protocol: {
        ...str('Protocol for port. Must be UDP, TCP, or SCTP. Defaults to "TCP".'),
        default: 'TCP',
        enum: ['SCTP', 'TCP', 'UDP'],
      },
    },
  },
  [`${core}.EnvVar`]: {
    type: 'object',
    description: 'EnvVar represents an environment variable present in a Container.',
    required: ['name'],
    properties: {
      name: str('Name of the environment variable.'),
      value: str(
        'Variable references $(VAR_NAME) are expanded using the previously defined environment variables in the container and any service environment variables.',
      ),
    },
  },
  [`${core}.VolumeMount`]: {
    type: 'object',
    description: 'VolumeMount describes a mounting of a Volume within a container.',
    required: ['name', 'mountPath'],
    properties: {
      mountPath: str(
        "Path within the container at which the volume should be mounted.  Must not contain ':'.",
      ),
      name: str('This must match the Name of a Volume.'),
      readOnly: bool(
        'Mounted read-only if true, read-write otherwise (false or unspecified). Defaults to false.',
      ),
    },
  },
  [`${core}.Container`]: {
    type: 'object',
    description: 'A single application container that you want to run within a pod.',
    required: ['name'],
    properties: {
      args: stringList(
        "Arguments to the entrypoint. The container image's CMD is used if this is not provided.",
      ),
      command: stringList(
        "Entrypoint array. Not executed within a shell. The container image's ENTRYPOINT is used if this is not provided.",
      ),
      env: mergeList(
        'List of environment variables to set in the container. Cannot be updated.',
        `${core}.EnvVar`,
        'name',
      ),
      image: str(
        'Container image name. More info: https://kubernetes.io/docs/concepts/containers/images',
      ),
      imagePullPolicy: {
        ...str('Image pull policy. One of Always, Never, IfNotPresent.'),
        enum: ['Always', 'IfNotPresent', 'Never'],
      },
      name: str(
        'Name of the container specified as a DNS_LABEL. Each container in a pod must have a unique name (DNS_LABEL). Cannot be updated.',
      ),
      ports: mergeList(
        'List of ports to expose from the container.',
        `${core}.ContainerPort`,
        'containerPort',
        ['containerPort', 'protocol'],
      ),
      volumeMounts: mergeList(
        "Pod volumes to mount into the container's filesystem. Cannot be updated.",
        `${core}.VolumeMount`,
        'mountPath',
      ),
      workingDir: str("Container's working directory."),
    },
  },
  [`${core}.PodSpec`]: {
    type: 'object',
    description: 'PodSpec is a description of a pod.',
    required: ['containers'],
    properties: {
      containers: mergeList(
        'List of containers belonging to the pod. Containers cannot currently be added or removed. There must be at least one container in a Pod. Cannot be updated.',
        `${core}.Container`,
        'name',
      ),
      hostname: str(
        "Specifies the hostname of the Pod If not specified, the pod's hostname will be set to a system-defined value.",
      ),
      initContainers: mergeList(
        'List of initialization containers belonging to the pod.',
        `${core}.Container`,
        'name',
      ),
      nodeName: str(
        'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName.',
      ),
      nodeSelector: {
        ...stringMap('NodeSelector is a selector which must be true for the pod to fit on a node.'),
        'x-kubernetes-map-type': 'atomic',
      },
      restartPolicy: {
        ...str(
          'Restart policy for all containers within the pod. One of Always, OnFailure, Never. Default to Always.',
        ),
        enum: ['Always', 'Never', 'OnFailure'],
      },
      schedulerName: str(
        'If specified, the pod will be dispatched by specified scheduler. If not specified, the pod will be dispatched by default scheduler.',
      ),
      serviceAccountName: str(
        'ServiceAccountName is the name of the ServiceAccount to use to run this pod.',
      ),
      terminationGracePeriodSeconds: int(
        'Optional duration in seconds the pod needs to terminate gracefully. Defaults to 30 seconds.',
      ),
    },
  },
  [`${core}.PodCondition`]: {
    type: 'object',
    description: 'PodCondition contains details for the current condition of this pod.',
    required: ['type', 'status'],
    properties: {
      lastTransitionTime: {
        ...ref(`${meta}.Time`),
        description: 'Last time the condition transitioned from one status to another.',
      },
      message: str('Human-readable message indicating details about last transition.'),
      reason: str("Unique, one-word, CamelCase reason for the condition's last transition."),
      status: str('Status is the status of the condition. Can be True, False, Unknown.'),
      type: str('Type is the type of the condition.'),
    },
  },
  [`${core}.PodStatus`]: {
    type: 'object',
    description:
      'PodStatus represents information about the status of a pod. Status may trail the actual state of a system, especially if the node that hosts the pod cannot contact the control plane.',
    properties: {
      conditions: mergeList('Current service state of pod.', `${core}.PodCondition`, 'type'),
      hostIP: str('hostIP holds the IP address of the host to which the pod is assigned.'),
      message: str(
        'A human readable message indicating details about why the pod is in this condition.',
      ),
      phase: {
        ...str(
          'The phase of a Pod is a simple, high-level summary of where the Pod is in its lifecycle.',
        ),
        enum: ['Failed', 'Pending', 'Running', 'Succeeded', 'Unknown'],
      },
      podIP: str(
        'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.',
      ),
      reason: str(
        "A brief CamelCase message indicating details about why the pod is in this state. e.g. 'Evicted'",
      ),
      startTime: {
        ...ref(`${meta}.Time`),
        description:
          'RFC 3339 date and time at which the object was acknowledged by the Kubelet. This is before the Kubelet pulled the container image(s) for the pod.',
      },
    },
  },
  [`${core}.Pod`]: {
    type: 'object',
    description:
      'Pod is a collection of containers that can run on a host. This resource is created by clients and scheduled onto hosts.',
    properties: {
      apiVersion,
      kind,
      metadata: objectMeta,
      spec: {
        ...ref(`${core}.PodSpec`),
        default: {},
        description:
          'Specification of the desired behavior of the pod. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status',
      },
      status: {
        ...ref(`${core}.PodStatus`),
        default: {},
        description:
          'Most recently observed status of the pod. This data may not be up to date. Populated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status',
      },
    },
    ...gvk('Pod'),
  },
  [`${core}.ConfigMap`]: {
    type: 'object',
    description: 'ConfigMap holds configuration data for pods to consume.',
    properties: {
      apiVersion,
      binaryData: {
        type: 'object',
        description:
          "BinaryData contains the binary data. Each key must consist of alphanumeric characters, '-', '_' or '.'. BinaryData can contain byte sequences that are not in the UTF-8 range.",
        additionalProperties: { type: 'string', format: 'byte' },
      },
      data: stringMap(
        "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field.",
      ),
      immutable: bool(
        'Immutable, if set to true, ensures that data stored in the ConfigMap cannot be updated (only object metadata can be modified). If not set to true, the field can be modified at any time. Defaulted to nil.',
      ),
      kind,
      metadata: objectMeta,
    },
    ...gvk('ConfigMap'),
  },
  [`${core}.NamespaceSpec`]: {
    type: 'object',
    description: 'NamespaceSpec describes the attributes on a Namespace.',
    properties: {
      finalizers: stringList(
        'Finalizers is an opaque list of values that must be empty to permanently remove object from storage.',
      ),
    },
  },
  [`${core}.NamespaceStatus`]: {
    type: 'object',
    description: 'NamespaceStatus is information about the current status of a Namespace.',
    properties: {
      phase: {
        ...str('Phase is the current lifecycle phase of the namespace.'),
        enum: ['Active', 'Terminating'],
      },
    },
  },
  [`${core}.Namespace`]: {
    type: 'object',
    description: 'Namespace provides a scope for Names. Use of multiple namespaces is optional.',
    properties: {
      apiVersion,
      kind,
      metadata: objectMeta,
      spec: {
        ...ref(`${core}.NamespaceSpec`),
        default: {},
        description:
          'Spec defines the behavior of the Namespace. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status',
      },
      status: {
        ...ref(`${core}.NamespaceStatus`),
        default: {},
        description:
          'Status describes the current status of a Namespace. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status',
      },
    },
    ...gvk('Namespace'),
  },
};

// The fields of each type that the subset does not model, so that validation (kubectl's
// client-side, with the v2 document) knows them: a schema without type or properties is an
// arbitrary value to kube-openapi. A list keeps its strategic-merge key and strategy, so
// `kubectl apply` merges it as upstream does.
const opaque: Schema = {};
const opaqueList = (key?: string, strategy = 'merge'): Schema =>
  key
    ? {
        type: 'array',
        items: {},
        'x-kubernetes-patch-merge-key': key,
        'x-kubernetes-patch-strategy': strategy,
      }
    : { type: 'array', items: {}, 'x-kubernetes-list-type': 'atomic' };
const unmodelled: Record<string, Record<string, Schema>> = {
  [`${meta}.ObjectMeta`]: { managedFields: opaqueList(), selfLink: opaque },
  [`${core}.Container`]: {
    envFrom: opaqueList(),
    lifecycle: opaque,
    livenessProbe: opaque,
    readinessProbe: opaque,
    resizePolicy: opaqueList(),
    resources: opaque,
    restartPolicy: opaque,
    restartPolicyRules: opaqueList(),
    securityContext: opaque,
    startupProbe: opaque,
    stdin: opaque,
    stdinOnce: opaque,
    terminationMessagePath: opaque,
    terminationMessagePolicy: opaque,
    tty: opaque,
    volumeDevices: opaqueList('devicePath'),
  },
  [`${core}.PodSpec`]: {
    activeDeadlineSeconds: opaque,
    affinity: opaque,
    automountServiceAccountToken: opaque,
    dnsConfig: opaque,
    dnsPolicy: opaque,
    enableServiceLinks: opaque,
    ephemeralContainers: opaqueList('name'),
    hostAliases: opaqueList('ip'),
    hostIPC: opaque,
    hostNetwork: opaque,
    hostPID: opaque,
    hostUsers: opaque,
    hostnameOverride: opaque,
    imagePullSecrets: opaqueList('name'),
    os: opaque,
    overhead: opaque,
    preemptionPolicy: opaque,
    priority: opaque,
    priorityClassName: opaque,
    readinessGates: opaqueList(),
    resourceClaims: opaqueList('name', 'merge,retainKeys'),
    resources: opaque,
    runtimeClassName: opaque,
    schedulingGates: opaqueList('name'),
    securityContext: opaque,
    serviceAccount: opaque,
    setHostnameAsFQDN: opaque,
    shareProcessNamespace: opaque,
    subdomain: opaque,
    tolerations: opaqueList(),
    topologySpreadConstraints: opaqueList('topologyKey'),
    volumes: opaqueList('name', 'merge,retainKeys'),
  },
  [`${core}.PodStatus`]: {
    containerStatuses: opaqueList(),
    ephemeralContainerStatuses: opaqueList(),
    hostIPs: opaqueList('ip'),
    initContainerStatuses: opaqueList(),
    nominatedNodeName: opaque,
    observedGeneration: opaque,
    podIPs: opaqueList('ip'),
    qosClass: opaque,
    resize: opaque,
    resourceClaimStatuses: opaqueList('name', 'merge,retainKeys'),
  },
  [`${core}.NamespaceStatus`]: { conditions: opaqueList('type') },
};

/** Definitions by name, as /openapi/v2 lists them: properties in name order. */
export const builtInDefinitions: Readonly<Record<string, Schema>> = Object.fromEntries(
  Object.entries(modelled).map(([name, def]) => {
    const properties = { ...(def.properties as Record<string, Schema>), ...unmodelled[name] };
    if (!def.properties) return [name, def];
    const sorted = Object.fromEntries(
      Object.keys(properties)
        .sort()
        .map((k) => [k, properties[k]]),
    );
    return [name, { ...def, properties: sorted }];
  }),
);

/** The definition of a built-in kind: `io.k8s.api.core.v1.<Kind>`. */
export function builtInDefinitionName(kind: string): string {
  return `${core}.${kind}`;
}

/** Every definition `name` references, itself included, in name order. */
export function definitionClosure(
  names: readonly string[],
  definitions: Readonly<Record<string, Schema>>,
): string[] {
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name) || !definitions[name]) return;
    seen.add(name);
    walkRefs(definitions[name], visit);
  };
  names.forEach(visit);
  return [...seen].sort();
}

function walkRefs(node: unknown, onRef: (name: string) => void): void {
  if (Array.isArray(node)) node.forEach((n) => walkRefs(n, onRef));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') onRef(v.replace('#/definitions/', ''));
      else walkRefs(v, onRef);
    }
  }
}
