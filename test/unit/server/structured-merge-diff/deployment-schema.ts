// A fixture: the OpenAPI v3 definitions of apps/v1 Deployment and what it references, cut down to
// the fields the tests use but with kube-apiserver 1.36's list types, map types, merge keys and
// defaults on them (Container.ports keyed by containerPort+protocol with protocol defaulted to
// TCP, containers and env keyed by name, finalizers a set, args atomic, LabelSelector atomic).
import type { OpenAPISchema } from '../../../../src/server/structured-merge-diff/schema-from-openapi';

const ref = (name: string): OpenAPISchema => ({
  allOf: [{ $ref: `#/components/schemas/${name}` }],
  default: {},
});
const str: OpenAPISchema = { type: 'string', default: '' };
const int: OpenAPISchema = { type: 'integer', format: 'int32' };
const stringMap: OpenAPISchema = {
  type: 'object',
  additionalProperties: { type: 'string', default: '' },
};
const atomicStrings: OpenAPISchema = {
  type: 'array',
  items: str,
  'x-kubernetes-list-type': 'atomic',
};
const meta = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const core = 'io.k8s.api.core.v1';
const apps = 'io.k8s.api.apps.v1';

export const deploymentModels: Record<string, OpenAPISchema> = {
  [`${apps}.Deployment`]: {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: ref(`${meta}.ObjectMeta`),
      spec: ref(`${apps}.DeploymentSpec`),
      status: ref(`${apps}.DeploymentStatus`),
    },
    'x-kubernetes-group-version-kind': [{ group: 'apps', kind: 'Deployment', version: 'v1' }],
  },
  [`${apps}.DeploymentSpec`]: {
    type: 'object',
    required: ['selector', 'template'],
    properties: {
      replicas: int,
      selector: { allOf: [{ $ref: `#/components/schemas/${meta}.LabelSelector` }] },
      template: ref(`${core}.PodTemplateSpec`),
      paused: { type: 'boolean' },
    },
  },
  [`${apps}.DeploymentStatus`]: {
    type: 'object',
    properties: {
      replicas: int,
      readyReplicas: int,
      observedGeneration: { type: 'integer', format: 'int64' },
    },
  },
  [`${core}.PodTemplateSpec`]: {
    type: 'object',
    properties: { metadata: ref(`${meta}.ObjectMeta`), spec: ref(`${core}.PodSpec`) },
  },
  [`${core}.PodSpec`]: {
    type: 'object',
    required: ['containers'],
    properties: {
      containers: {
        type: 'array',
        items: ref(`${core}.Container`),
        'x-kubernetes-list-map-keys': ['name'],
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-patch-merge-key': 'name',
        'x-kubernetes-patch-strategy': 'merge',
      },
      nodeSelector: { ...stringMap, 'x-kubernetes-map-type': 'atomic' },
      serviceAccountName: { type: 'string' },
    },
  },
  [`${core}.Container`]: {
    type: 'object',
    required: ['name'],
    properties: {
      name: str,
      image: { type: 'string' },
      args: atomicStrings,
      command: atomicStrings,
      env: {
        type: 'array',
        items: ref(`${core}.EnvVar`),
        'x-kubernetes-list-map-keys': ['name'],
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-patch-merge-key': 'name',
        'x-kubernetes-patch-strategy': 'merge',
      },
      ports: {
        type: 'array',
        items: ref(`${core}.ContainerPort`),
        'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-patch-merge-key': 'containerPort',
        'x-kubernetes-patch-strategy': 'merge',
      },
    },
  },
  [`${core}.EnvVar`]: {
    type: 'object',
    required: ['name'],
    properties: { name: str, value: { type: 'string' } },
  },
  [`${core}.ContainerPort`]: {
    type: 'object',
    required: ['containerPort'],
    properties: {
      name: { type: 'string' },
      containerPort: { ...int, default: 0 },
      protocol: { type: 'string', default: 'TCP' },
    },
  },
  [`${meta}.LabelSelector`]: {
    type: 'object',
    properties: {
      matchLabels: stringMap,
      matchExpressions: {
        type: 'array',
        items: { type: 'object' },
        'x-kubernetes-list-type': 'atomic',
      },
    },
    'x-kubernetes-map-type': 'atomic',
  },
  [`${meta}.ObjectMeta`]: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      namespace: { type: 'string' },
      uid: { type: 'string' },
      resourceVersion: { type: 'string' },
      generation: { type: 'integer', format: 'int64' },
      creationTimestamp: { allOf: [{ $ref: `#/components/schemas/${meta}.Time` }] },
      labels: stringMap,
      annotations: stringMap,
      finalizers: {
        type: 'array',
        items: str,
        'x-kubernetes-list-type': 'set',
        'x-kubernetes-patch-strategy': 'merge',
      },
      managedFields: {
        type: 'array',
        items: ref(`${meta}.ManagedFieldsEntry`),
        'x-kubernetes-list-type': 'atomic',
      },
    },
  },
  [`${meta}.ManagedFieldsEntry`]: {
    type: 'object',
    properties: {
      manager: { type: 'string' },
      operation: { type: 'string' },
      apiVersion: { type: 'string' },
      time: { allOf: [{ $ref: `#/components/schemas/${meta}.Time` }] },
      fieldsType: { type: 'string' },
      fieldsV1: { allOf: [{ $ref: `#/components/schemas/${meta}.FieldsV1` }] },
      subresource: { type: 'string' },
    },
  },
  [`${meta}.FieldsV1`]: { type: 'object' },
  [`${meta}.Time`]: { type: 'string', format: 'date-time' },
};
