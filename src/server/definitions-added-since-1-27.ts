// No upstream counterpart: the fields k8s.io/api release-1.36 (types.go of core/v1, apps/v1, batch/v1,
// networking/v1, policy/v1, autoscaling/v1 and v2, rbac/v1, coordination/v1, discovery/v1, events/v1)
// declares that the OpenAPI definitions in this tree (Kubernetes 1.27's, openapi-definitions.ts) lack,
// read from the struct tags by name. Strict field validation accepts them; a field whose type is no
// definition here is free-form (`{}`: nothing below it is checked).
import type { Schema } from './openapi-definitions';

/** By definition name, the properties added since 1.27 and their schema. */
export const addedSince127: Readonly<Record<string, Readonly<Record<string, Schema>>>> = {
  'io.k8s.api.apps.v1.DeploymentStatus': {
    terminatingReplicas: {},
  },
  'io.k8s.api.apps.v1.ReplicaSetStatus': {
    terminatingReplicas: {},
  },
  'io.k8s.api.autoscaling.v2.HPAScalingRules': {
    tolerance: {},
  },
  'io.k8s.api.batch.v1.JobSpec': {
    backoffLimitPerIndex: {},
    managedBy: {},
    maxFailedIndexes: {},
    podReplacementPolicy: {},
    successPolicy: {},
  },
  'io.k8s.api.batch.v1.JobStatus': {
    failedIndexes: {},
    terminating: {},
  },
  'io.k8s.api.coordination.v1.LeaseSpec': {
    preferredHolder: {},
    strategy: {},
  },
  'io.k8s.api.core.v1.Container': {
    restartPolicy: {},
    restartPolicyRules: {},
  },
  'io.k8s.api.core.v1.ContainerStatus': {
    allocatedResourcesStatus: {},
    stopSignal: {},
    user: {},
    volumeMounts: {},
  },
  'io.k8s.api.core.v1.EnvVarSource': {
    fileKeyRef: {},
  },
  'io.k8s.api.core.v1.EphemeralContainer': {
    restartPolicy: {},
    restartPolicyRules: {},
  },
  'io.k8s.api.core.v1.Lifecycle': {
    stopSignal: {},
  },
  'io.k8s.api.core.v1.LifecycleHandler': {
    sleep: {},
  },
  'io.k8s.api.core.v1.LoadBalancerIngress': {
    ipMode: {},
  },
  'io.k8s.api.core.v1.NodeStatus': {
    declaredFeatures: {},
    features: {},
    runtimeHandlers: {},
  },
  'io.k8s.api.core.v1.NodeSystemInfo': {
    swap: {},
  },
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec': {
    volumeAttributesClassName: {},
  },
  'io.k8s.api.core.v1.PersistentVolumeClaimStatus': {
    allocatedResourceStatuses: {},
    currentVolumeAttributesClassName: {},
    modifyVolumeStatus: {},
  },
  'io.k8s.api.core.v1.PersistentVolumeSpec': {
    volumeAttributesClassName: {},
  },
  'io.k8s.api.core.v1.PersistentVolumeStatus': {
    lastPhaseTransitionTime: {},
  },
  'io.k8s.api.core.v1.PodAffinityTerm': {
    matchLabelKeys: {},
    mismatchLabelKeys: {},
  },
  'io.k8s.api.core.v1.PodCondition': {
    observedGeneration: {},
  },
  'io.k8s.api.core.v1.PodResourceClaim': {
    resourceClaimName: {},
    resourceClaimTemplateName: {},
  },
  'io.k8s.api.core.v1.PodSecurityContext': {
    appArmorProfile: {},
    seLinuxChangePolicy: {},
    supplementalGroupsPolicy: {},
  },
  'io.k8s.api.core.v1.PodSpec': {
    hostnameOverride: {},
    resources: { $ref: '#/definitions/io.k8s.api.core.v1.ResourceRequirements' },
    schedulingGroup: {},
  },
  'io.k8s.api.core.v1.PodStatus': {
    allocatedResources: {},
    extendedResourceClaimStatus: {},
    hostIPs: {},
    nodeAllocatableResourceClaimStatuses: {},
    observedGeneration: {},
    resourceClaimStatuses: {},
    resources: { $ref: '#/definitions/io.k8s.api.core.v1.ResourceRequirements' },
  },
  'io.k8s.api.core.v1.ResourceClaim': {
    request: {},
  },
  'io.k8s.api.core.v1.SecurityContext': {
    appArmorProfile: {},
  },
  'io.k8s.api.core.v1.ServiceSpec': {
    trafficDistribution: {},
  },
  'io.k8s.api.core.v1.Volume': {
    image: {},
  },
  'io.k8s.api.core.v1.VolumeMount': {
    recursiveReadOnly: {},
  },
  'io.k8s.api.core.v1.VolumeProjection': {
    clusterTrustBundle: {},
    podCertificate: {},
  },
  'io.k8s.api.discovery.v1.EndpointHints': {
    forNodes: {},
  },
};
