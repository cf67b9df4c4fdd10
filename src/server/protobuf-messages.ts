// Mirrors the generated.proto messages of k8s.io/api (core, apps, batch, networking, policy, rbac,
// scheduling, authentication, authorization, coordination, events, discovery: v1; autoscaling/v2)
// and k8s.io/apimachinery (meta/v1, util/intstr, api/resource, runtime) at release-1.36, as facts
// of the wire format: per message, its fields in Go declaration order (the order encoding/json
// writes them), each as `number jsonName type [flags] [GoName]`. Derived from the types' `protobuf:`
// and `json:` struct tags and checked field by field against the generated.proto files; not a copy
// of them. The kinds: what kubectl's typed commands send, and every other built-in kind the served
// table has (client-go controllers send protobuf too), apiextensions' CustomResourceDefinition aside
// (kubectl applies CRDs as JSON). Two packages' messages of one name are `package_Name`.
//
// type: string | bool | int32 | int64 | bytes | a message below | []T (repeated) | map<string,T>.
// flags (none: a value field with omitempty):
//   p  a pointer: present only when set (absent is omitted)
//   e  no omitempty: emitted even when empty (nil slices and maps as null)
//   z  omitzero: omitted when zero
//   i  inlined into the parent's JSON object (`json:",inline"`); jsonName is `-`
// GoName: the Go field name where it is not the jsonName capitalised (gogo's wrong-wireType errors
// name the Go field).

/** The messages of the built-in kinds this server decodes from protobuf. */
export const protobufMessages: Readonly<Record<string, string>> = {
  ConfigMap: `1 metadata ObjectMeta ObjectMeta; 4 immutable bool p; 2 data map<string,string>;
    3 binaryData map<string,bytes>`,
  Namespace: `1 metadata ObjectMeta ObjectMeta; 2 spec NamespaceSpec; 3 status NamespaceStatus`,
  Secret: `1 metadata ObjectMeta ObjectMeta; 5 immutable bool p; 2 data map<string,bytes>;
    4 stringData map<string,string>; 3 type string`,
  Service: `1 metadata ObjectMeta ObjectMeta; 2 spec ServiceSpec; 3 status ServiceStatus`,
  ServiceAccount: `1 metadata ObjectMeta ObjectMeta; 2 secrets []ObjectReference;
    3 imagePullSecrets []LocalObjectReference; 4 automountServiceAccountToken bool p`,
  ResourceQuota: `1 metadata ObjectMeta ObjectMeta; 2 spec ResourceQuotaSpec;
    3 status ResourceQuotaStatus`,
  Pod: `1 metadata ObjectMeta ObjectMeta; 2 spec PodSpec; 3 status PodStatus`,
  Deployment: `1 metadata ObjectMeta ObjectMeta; 2 spec DeploymentSpec; 3 status DeploymentStatus`,
  Job: `1 metadata ObjectMeta ObjectMeta; 2 spec JobSpec; 3 status JobStatus`,
  CronJob: `1 metadata ObjectMeta ObjectMeta; 2 spec CronJobSpec; 3 status CronJobStatus`,
  Ingress: `1 metadata ObjectMeta ObjectMeta; 2 spec IngressSpec; 3 status IngressStatus`,
  PodDisruptionBudget: `1 metadata ObjectMeta ObjectMeta; 2 spec PodDisruptionBudgetSpec;
    3 status PodDisruptionBudgetStatus`,
  Role: `1 metadata ObjectMeta ObjectMeta; 2 rules []PolicyRule e`,
  RoleBinding: `1 metadata ObjectMeta ObjectMeta; 2 subjects []Subject; 3 roleRef RoleRef e`,
  ClusterRole: `1 metadata ObjectMeta ObjectMeta; 2 rules []PolicyRule e;
    3 aggregationRule AggregationRule p`,
  ClusterRoleBinding: `1 metadata ObjectMeta ObjectMeta; 2 subjects []Subject; 3 roleRef RoleRef e`,
  PriorityClass: `1 metadata ObjectMeta ObjectMeta; 2 value int32 e; 3 globalDefault bool;
    4 description string; 5 preemptionPolicy string p`,
  TokenRequest: `1 metadata ObjectMeta ObjectMeta; 2 spec TokenRequestSpec e;
    3 status TokenRequestStatus`,
  SelfSubjectReview: `1 metadata ObjectMeta ObjectMeta; 2 status SelfSubjectReviewStatus`,
  SelfSubjectAccessReview: `1 metadata ObjectMeta ObjectMeta;
    2 spec SelfSubjectAccessReviewSpec e; 3 status SubjectAccessReviewStatus`,
  SelfSubjectRulesReview: `1 metadata ObjectMeta ObjectMeta; 2 spec SelfSubjectRulesReviewSpec e;
    3 status SubjectRulesReviewStatus`,
  Eviction: `1 metadata ObjectMeta ObjectMeta; 2 deleteOptions DeleteOptions p`,
  Lease: `1 metadata ObjectMeta ObjectMeta; 2 spec LeaseSpec`,
  core_Event: `1 metadata ObjectMeta e ObjectMeta; 2 involvedObject ObjectReference e;
    3 reason string; 4 message string; 5 source EventSource; 6 firstTimestamp Time;
    7 lastTimestamp Time; 8 count int32; 9 type string; 10 eventTime MicroTime;
    11 series core_EventSeries p; 12 action string; 13 related ObjectReference p;
    14 reportingComponent string e ReportingController; 15 reportingInstance string e`,
  events_Event: `1 metadata ObjectMeta e ObjectMeta; 2 eventTime MicroTime e;
    3 series events_EventSeries p; 4 reportingController string; 5 reportingInstance string;
    6 action string; 7 reason string; 8 regarding ObjectReference; 9 related ObjectReference p;
    10 note string; 11 type string; 12 deprecatedSource EventSource;
    13 deprecatedFirstTimestamp Time; 14 deprecatedLastTimestamp Time; 15 deprecatedCount int32`,
  ControllerRevision: `1 metadata ObjectMeta ObjectMeta; 2 data RawExtension; 3 revision int64 e`,
  Endpoints: `1 metadata ObjectMeta ObjectMeta; 2 subsets []EndpointSubset`,
  Node: `1 metadata ObjectMeta ObjectMeta; 2 spec NodeSpec; 3 status NodeStatus`,
  PersistentVolume: `1 metadata ObjectMeta ObjectMeta; 2 spec PersistentVolumeSpec;
    3 status PersistentVolumeStatus`,
  PersistentVolumeClaim: `1 metadata ObjectMeta ObjectMeta; 2 spec PersistentVolumeClaimSpec;
    3 status PersistentVolumeClaimStatus`,
  ReplicationController: `1 metadata ObjectMeta ObjectMeta; 2 spec ReplicationControllerSpec;
    3 status ReplicationControllerStatus`,
  PodTemplate: `1 metadata ObjectMeta ObjectMeta; 2 template PodTemplateSpec`,
  LimitRange: `1 metadata ObjectMeta ObjectMeta; 2 spec LimitRangeSpec`,
  ReplicaSet: `1 metadata ObjectMeta ObjectMeta; 2 spec ReplicaSetSpec; 3 status ReplicaSetStatus`,
  StatefulSet: `1 metadata ObjectMeta ObjectMeta; 2 spec StatefulSetSpec;
    3 status StatefulSetStatus`,
  DaemonSet: `1 metadata ObjectMeta ObjectMeta; 2 spec DaemonSetSpec; 3 status DaemonSetStatus`,
  EndpointSlice: `1 metadata ObjectMeta ObjectMeta; 4 addressType string e;
    2 endpoints []Endpoint e; 3 ports []discovery_EndpointPort e`,
  NetworkPolicy: `1 metadata ObjectMeta ObjectMeta; 2 spec NetworkPolicySpec`,
  HorizontalPodAutoscaler: `1 metadata ObjectMeta ObjectMeta; 2 spec HorizontalPodAutoscalerSpec;
    3 status HorizontalPodAutoscalerStatus`,
  ObjectMeta: `1 name string; 2 generateName string; 3 namespace string; 4 selfLink string;
    5 uid string UID; 6 resourceVersion string; 7 generation int64; 8 creationTimestamp Time z;
    9 deletionTimestamp Time p; 10 deletionGracePeriodSeconds int64 p;
    11 labels map<string,string>; 12 annotations map<string,string>;
    13 ownerReferences []OwnerReference; 14 finalizers []string;
    17 managedFields []ManagedFieldsEntry`,
  NamespaceSpec: `1 finalizers []string`,
  NamespaceStatus: `1 phase string; 2 conditions []NamespaceCondition`,
  ServiceSpec: `1 ports []ServicePort; 2 selector map<string,string>; 3 clusterIP string;
    18 clusterIPs []string; 4 type string; 5 externalIPs []string; 7 sessionAffinity string;
    8 loadBalancerIP string; 9 loadBalancerSourceRanges []string; 10 externalName string;
    11 externalTrafficPolicy string; 12 healthCheckNodePort int32;
    13 publishNotReadyAddresses bool; 14 sessionAffinityConfig SessionAffinityConfig p;
    19 ipFamilies []string IPFamilies; 17 ipFamilyPolicy string p IPFamilyPolicy;
    20 allocateLoadBalancerNodePorts bool p; 21 loadBalancerClass string p;
    22 internalTrafficPolicy string p; 23 trafficDistribution string p`,
  ServiceStatus: `1 loadBalancer LoadBalancerStatus; 2 conditions []Condition`,
  ObjectReference: `1 kind string; 2 namespace string; 3 name string; 4 uid string UID;
    5 apiVersion string APIVersion; 6 resourceVersion string; 7 fieldPath string`,
  LocalObjectReference: `1 name string`,
  ResourceQuotaSpec: `1 hard map<string,Quantity>; 2 scopes []string;
    3 scopeSelector ScopeSelector p`,
  ResourceQuotaStatus: `1 hard map<string,Quantity>; 2 used map<string,Quantity>`,
  PodSpec: `1 volumes []Volume; 20 initContainers []Container; 2 containers []Container e;
    34 ephemeralContainers []EphemeralContainer; 3 restartPolicy string;
    4 terminationGracePeriodSeconds int64 p; 5 activeDeadlineSeconds int64 p;
    6 dnsPolicy string DNSPolicy; 7 nodeSelector map<string,string>; 8 serviceAccountName string;
    9 serviceAccount string DeprecatedServiceAccount; 21 automountServiceAccountToken bool p;
    10 nodeName string; 11 hostNetwork bool; 12 hostPID bool; 13 hostIPC bool;
    27 shareProcessNamespace bool p; 14 securityContext PodSecurityContext p;
    15 imagePullSecrets []LocalObjectReference; 16 hostname string; 17 subdomain string;
    18 affinity Affinity p; 19 schedulerName string; 22 tolerations []Toleration;
    23 hostAliases []HostAlias; 24 priorityClassName string; 25 priority int32 p;
    26 dnsConfig PodDNSConfig p DNSConfig; 28 readinessGates []PodReadinessGate;
    29 runtimeClassName string p; 30 enableServiceLinks bool p; 31 preemptionPolicy string p;
    32 overhead map<string,Quantity>; 33 topologySpreadConstraints []TopologySpreadConstraint;
    35 setHostnameAsFQDN bool p; 36 os PodOS p OS; 37 hostUsers bool p;
    38 schedulingGates []PodSchedulingGate; 39 resourceClaims []PodResourceClaim;
    40 resources ResourceRequirements p; 41 hostnameOverride string p;
    43 schedulingGroup PodSchedulingGroup p`,
  PodStatus: `17 observedGeneration int64; 1 phase string; 2 conditions []PodCondition;
    3 message string; 4 reason string; 11 nominatedNodeName string; 5 hostIP string;
    16 hostIPs []HostIP; 6 podIP string; 12 podIPs []PodIP; 7 startTime Time p;
    10 initContainerStatuses []ContainerStatus; 8 containerStatuses []ContainerStatus;
    9 qosClass string QOSClass; 13 ephemeralContainerStatuses []ContainerStatus; 14 resize string;
    15 resourceClaimStatuses []PodResourceClaimStatus;
    18 extendedResourceClaimStatus PodExtendedResourceClaimStatus p;
    19 allocatedResources map<string,Quantity>; 20 resources ResourceRequirements p;
    21 nodeAllocatableResourceClaimStatuses []NodeAllocatableResourceClaimStatus`,
  DeploymentSpec: `1 replicas int32 p; 2 selector LabelSelector pe; 3 template PodTemplateSpec e;
    4 strategy DeploymentStrategy; 5 minReadySeconds int32; 6 revisionHistoryLimit int32 p;
    7 paused bool; 9 progressDeadlineSeconds int32 p`,
  DeploymentStatus: `1 observedGeneration int64; 2 replicas int32; 3 updatedReplicas int32;
    7 readyReplicas int32; 4 availableReplicas int32; 5 unavailableReplicas int32;
    9 terminatingReplicas int32 p; 6 conditions []DeploymentCondition; 8 collisionCount int32 p`,
  JobSpec: `1 parallelism int32 p; 2 completions int32 p; 3 activeDeadlineSeconds int64 p;
    11 podFailurePolicy PodFailurePolicy p; 16 successPolicy SuccessPolicy p;
    7 backoffLimit int32 p; 12 backoffLimitPerIndex int32 p; 13 maxFailedIndexes int32 p;
    4 selector LabelSelector p; 5 manualSelector bool p; 6 template PodTemplateSpec e;
    8 ttlSecondsAfterFinished int32 p TTLSecondsAfterFinished; 9 completionMode string p;
    10 suspend bool p; 14 podReplacementPolicy string p; 15 managedBy string p`,
  JobStatus: `1 conditions []JobCondition; 2 startTime Time p; 3 completionTime Time p;
    4 active int32; 5 succeeded int32; 6 failed int32; 11 terminating int32 p;
    7 completedIndexes string; 10 failedIndexes string p;
    8 uncountedTerminatedPods UncountedTerminatedPods p; 9 ready int32 p`,
  CronJobSpec: `1 schedule string e; 8 timeZone string p; 2 startingDeadlineSeconds int64 p;
    3 concurrencyPolicy string; 4 suspend bool p; 5 jobTemplate JobTemplateSpec e;
    6 successfulJobsHistoryLimit int32 p; 7 failedJobsHistoryLimit int32 p`,
  CronJobStatus: `1 active []ObjectReference; 4 lastScheduleTime Time p;
    5 lastSuccessfulTime Time p`,
  IngressSpec: `4 ingressClassName string p; 1 defaultBackend IngressBackend p;
    2 tls []IngressTLS TLS; 3 rules []IngressRule`,
  IngressStatus: `1 loadBalancer IngressLoadBalancerStatus`,
  PodDisruptionBudgetSpec: `1 minAvailable IntOrString p; 2 selector LabelSelector p;
    3 maxUnavailable IntOrString p; 4 unhealthyPodEvictionPolicy string p`,
  PodDisruptionBudgetStatus: `1 observedGeneration int64; 2 disruptedPods map<string,Time>;
    3 disruptionsAllowed int32 e; 4 currentHealthy int32 e; 5 desiredHealthy int32 e;
    6 expectedPods int32 e; 7 conditions []Condition`,
  PolicyRule: `1 verbs []string e; 2 apiGroups []string APIGroups; 3 resources []string;
    4 resourceNames []string; 5 nonResourceURLs []string`,
  Subject: `1 kind string e; 2 apiGroup string APIGroup; 3 name string e; 4 namespace string`,
  RoleRef: `1 apiGroup string e APIGroup; 2 kind string e; 3 name string e`,
  AggregationRule: `1 clusterRoleSelectors []LabelSelector`,
  TokenRequestSpec: `1 audiences []string e; 4 expirationSeconds int64 pe;
    3 boundObjectRef BoundObjectReference pe`,
  TokenRequestStatus: `1 token string e; 2 expirationTimestamp Time e`,
  SelfSubjectReviewStatus: `1 userInfo UserInfo`,
  // extra (4, map<string,ExtraValue>) is left out: a review's request never carries it, and a
  // field the table lacks is refused, not dropped.
  UserInfo: `1 username string; 2 uid string UID; 3 groups []string`,
  SelfSubjectAccessReviewSpec: `1 resourceAttributes ResourceAttributes p;
    2 nonResourceAttributes NonResourceAttributes p`,
  SubjectAccessReviewStatus: `1 allowed bool e; 4 denied bool; 2 reason string;
    3 evaluationError string`,
  SelfSubjectRulesReviewSpec: `1 namespace string`,
  SubjectRulesReviewStatus: `1 resourceRules []ResourceRule e;
    2 nonResourceRules []NonResourceRule e; 3 incomplete bool e; 4 evaluationError string`,
  DeleteOptions: `1 gracePeriodSeconds int64 p; 2 preconditions Preconditions p;
    3 orphanDependents bool p; 4 propagationPolicy string p; 5 dryRun []string;
    6 ignoreStoreReadErrorWithClusterBreakingPotential bool p`,
  LeaseSpec: `1 holderIdentity string p; 2 leaseDurationSeconds int32 p;
    3 acquireTime MicroTime p; 4 renewTime MicroTime p; 5 leaseTransitions int32 p;
    6 strategy string p; 7 preferredHolder string p`,
  EventSource: `1 component string; 2 host string`,
  core_EventSeries: `1 count int32; 2 lastObservedTime MicroTime`,
  events_EventSeries: `1 count int32 e; 2 lastObservedTime MicroTime e`,
  EndpointSubset: `1 addresses []EndpointAddress; 2 notReadyAddresses []EndpointAddress;
    3 ports []core_EndpointPort`,
  NodeSpec: `1 podCIDR string; 7 podCIDRs []string; 3 providerID string; 4 unschedulable bool;
    5 taints []Taint; 6 configSource NodeConfigSource p; 2 externalID string DoNotUseExternalID`,
  NodeStatus: `1 capacity map<string,Quantity>; 2 allocatable map<string,Quantity>;
    3 phase string; 4 conditions []NodeCondition; 5 addresses []NodeAddress;
    6 daemonEndpoints NodeDaemonEndpoints; 7 nodeInfo NodeSystemInfo; 8 images []ContainerImage;
    9 volumesInUse []string; 10 volumesAttached []AttachedVolume; 11 config NodeConfigStatus p;
    12 runtimeHandlers []NodeRuntimeHandler; 13 features NodeFeatures p;
    14 declaredFeatures []string`,
  PersistentVolumeSpec: `1 capacity map<string,Quantity>; 2 - PersistentVolumeSource i;
    3 accessModes []string; 4 claimRef ObjectReference p; 5 persistentVolumeReclaimPolicy string;
    6 storageClassName string; 7 mountOptions []string; 8 volumeMode string p;
    9 nodeAffinity VolumeNodeAffinity p; 10 volumeAttributesClassName string p`,
  PersistentVolumeStatus: `1 phase string; 2 message string; 3 reason string;
    4 lastPhaseTransitionTime Time p`,
  PersistentVolumeClaimSpec: `1 accessModes []string; 4 selector LabelSelector p;
    2 resources VolumeResourceRequirements; 3 volumeName string; 5 storageClassName string p;
    6 volumeMode string p; 7 dataSource TypedLocalObjectReference p;
    8 dataSourceRef TypedObjectReference p; 9 volumeAttributesClassName string p`,
  PersistentVolumeClaimStatus: `1 phase string; 2 accessModes []string;
    3 capacity map<string,Quantity>; 4 conditions []PersistentVolumeClaimCondition;
    5 allocatedResources map<string,Quantity>; 7 allocatedResourceStatuses map<string,string>;
    8 currentVolumeAttributesClassName string p; 9 modifyVolumeStatus ModifyVolumeStatus p`,
  ReplicationControllerSpec: `1 replicas int32 p; 4 minReadySeconds int32;
    2 selector map<string,string>; 3 template PodTemplateSpec p`,
  ReplicationControllerStatus: `1 replicas int32 e; 2 fullyLabeledReplicas int32;
    4 readyReplicas int32; 5 availableReplicas int32; 3 observedGeneration int64;
    6 conditions []ReplicationControllerCondition`,
  PodTemplateSpec: `1 metadata ObjectMeta ObjectMeta; 2 spec PodSpec`,
  LimitRangeSpec: `1 limits []LimitRangeItem e`,
  ReplicaSetSpec: `1 replicas int32 p; 4 minReadySeconds int32; 2 selector LabelSelector pe;
    3 template PodTemplateSpec`,
  ReplicaSetStatus: `1 replicas int32 e; 2 fullyLabeledReplicas int32; 4 readyReplicas int32;
    5 availableReplicas int32; 7 terminatingReplicas int32 p; 3 observedGeneration int64;
    6 conditions []ReplicaSetCondition`,
  StatefulSetSpec: `1 replicas int32 p; 2 selector LabelSelector pe; 3 template PodTemplateSpec e;
    4 volumeClaimTemplates []PersistentVolumeClaim; 5 serviceName string e;
    6 podManagementPolicy string; 7 updateStrategy StatefulSetUpdateStrategy;
    8 revisionHistoryLimit int32 p; 9 minReadySeconds int32;
    10 persistentVolumeClaimRetentionPolicy StatefulSetPersistentVolumeClaimRetentionPolicy p;
    11 ordinals StatefulSetOrdinals p`,
  StatefulSetStatus: `1 observedGeneration int64; 2 replicas int32 e; 3 readyReplicas int32;
    4 currentReplicas int32; 5 updatedReplicas int32; 6 currentRevision string;
    7 updateRevision string; 9 collisionCount int32 p; 10 conditions []StatefulSetCondition;
    11 availableReplicas int32 e`,
  DaemonSetSpec: `1 selector LabelSelector pe; 2 template PodTemplateSpec e;
    3 updateStrategy DaemonSetUpdateStrategy; 4 minReadySeconds int32;
    6 revisionHistoryLimit int32 p`,
  DaemonSetStatus: `1 currentNumberScheduled int32 e; 2 numberMisscheduled int32 e;
    3 desiredNumberScheduled int32 e; 4 numberReady int32 e; 5 observedGeneration int64;
    6 updatedNumberScheduled int32; 7 numberAvailable int32; 8 numberUnavailable int32;
    9 collisionCount int32 p; 10 conditions []DaemonSetCondition`,
  Endpoint: `1 addresses []string e; 2 conditions EndpointConditions; 3 hostname string p;
    4 targetRef ObjectReference p; 5 deprecatedTopology map<string,string>; 6 nodeName string p;
    7 zone string p; 8 hints EndpointHints p`,
  discovery_EndpointPort: `1 name string p; 2 protocol string p; 3 port int32 p;
    4 appProtocol string p`,
  NetworkPolicySpec: `1 podSelector LabelSelector e; 2 ingress []NetworkPolicyIngressRule;
    3 egress []NetworkPolicyEgressRule; 4 policyTypes []string`,
  HorizontalPodAutoscalerSpec: `1 scaleTargetRef CrossVersionObjectReference e;
    2 minReplicas int32 p; 3 maxReplicas int32 e; 4 metrics []MetricSpec;
    5 behavior HorizontalPodAutoscalerBehavior p`,
  HorizontalPodAutoscalerStatus: `1 observedGeneration int64 p; 2 lastScaleTime Time p;
    3 currentReplicas int32; 4 desiredReplicas int32 e; 5 currentMetrics []MetricStatus e;
    6 conditions []HorizontalPodAutoscalerCondition`,
  OwnerReference: `5 apiVersion string e APIVersion; 1 kind string e; 3 name string e;
    4 uid string e UID; 6 controller bool p; 7 blockOwnerDeletion bool p`,
  ManagedFieldsEntry: `1 manager string; 2 operation string; 3 apiVersion string APIVersion;
    4 time Time p; 6 fieldsType string; 7 fieldsV1 FieldsV1 p; 8 subresource string`,
  NamespaceCondition: `1 type string e; 2 status string e; 4 lastTransitionTime Time;
    5 reason string; 6 message string`,
  ServicePort: `1 name string; 2 protocol string; 6 appProtocol string p; 3 port int32 e;
    4 targetPort IntOrString; 5 nodePort int32`,
  SessionAffinityConfig: `1 clientIP ClientIPConfig p`,
  LoadBalancerStatus: `1 ingress []LoadBalancerIngress`,
  Condition: `1 type string e; 2 status string e; 3 observedGeneration int64;
    4 lastTransitionTime Time e; 5 reason string e; 6 message string e`,
  ScopeSelector: `1 matchExpressions []ScopedResourceSelectorRequirement`,
  Volume: `1 name string e; 2 - VolumeSource i`,
  Container: `1 name string e; 2 image string; 3 command []string; 4 args []string;
    5 workingDir string; 6 ports []ContainerPort; 19 envFrom []EnvFromSource; 7 env []EnvVar;
    8 resources ResourceRequirements; 23 resizePolicy []ContainerResizePolicy;
    24 restartPolicy string p; 25 restartPolicyRules []ContainerRestartRule;
    9 volumeMounts []VolumeMount; 21 volumeDevices []VolumeDevice; 10 livenessProbe Probe p;
    11 readinessProbe Probe p; 22 startupProbe Probe p; 12 lifecycle Lifecycle p;
    13 terminationMessagePath string; 20 terminationMessagePolicy string;
    14 imagePullPolicy string; 15 securityContext SecurityContext p; 16 stdin bool;
    17 stdinOnce bool; 18 tty bool TTY`,
  EphemeralContainer: `1 - EphemeralContainerCommon i; 2 targetContainerName string`,
  PodSecurityContext: `1 seLinuxOptions SELinuxOptions p SELinuxOptions;
    8 windowsOptions WindowsSecurityContextOptions p; 2 runAsUser int64 p; 6 runAsGroup int64 p;
    3 runAsNonRoot bool p; 4 supplementalGroups []int64; 12 supplementalGroupsPolicy string p;
    5 fsGroup int64 p FSGroup; 7 sysctls []Sysctl;
    9 fsGroupChangePolicy string p FSGroupChangePolicy; 10 seccompProfile SeccompProfile p;
    11 appArmorProfile AppArmorProfile p; 13 seLinuxChangePolicy string p SELinuxChangePolicy`,
  Affinity: `1 nodeAffinity NodeAffinity p; 2 podAffinity PodAffinity p;
    3 podAntiAffinity PodAntiAffinity p`,
  Toleration: `1 key string; 2 operator string; 3 value string; 4 effect string;
    5 tolerationSeconds int64 p`,
  HostAlias: `1 ip string e IP; 2 hostnames []string`,
  PodDNSConfig: `1 nameservers []string; 2 searches []string; 3 options []PodDNSConfigOption`,
  PodReadinessGate: `1 conditionType string e`,
  TopologySpreadConstraint: `1 maxSkew int32 e; 2 topologyKey string e;
    3 whenUnsatisfiable string e; 4 labelSelector LabelSelector p; 5 minDomains int32 p;
    6 nodeAffinityPolicy string p; 7 nodeTaintsPolicy string p; 8 matchLabelKeys []string`,
  PodOS: `1 name string e`,
  PodSchedulingGate: `1 name string e`,
  PodResourceClaim: `1 name string e; 3 resourceClaimName string p;
    4 resourceClaimTemplateName string p`,
  ResourceRequirements: `1 limits map<string,Quantity>; 2 requests map<string,Quantity>;
    3 claims []ResourceClaim`,
  PodSchedulingGroup: `1 podGroupName string p`,
  PodCondition: `1 type string e; 7 observedGeneration int64; 2 status string e;
    3 lastProbeTime Time; 4 lastTransitionTime Time; 5 reason string; 6 message string`,
  HostIP: `1 ip string e IP`,
  PodIP: `1 ip string e IP`,
  ContainerStatus: `1 name string e; 2 state ContainerState;
    3 lastState ContainerState LastTerminationState; 4 ready bool e; 5 restartCount int32 e;
    6 image string e; 7 imageID string e; 8 containerID string; 9 started bool p;
    10 allocatedResources map<string,Quantity>; 11 resources ResourceRequirements p;
    12 volumeMounts []VolumeMountStatus; 13 user ContainerUser p;
    14 allocatedResourcesStatus []ResourceStatus; 15 stopSignal string p`,
  PodResourceClaimStatus: `1 name string e; 2 resourceClaimName string p`,
  PodExtendedResourceClaimStatus: `1 requestMappings []ContainerExtendedResourceRequest e;
    2 resourceClaimName string e`,
  NodeAllocatableResourceClaimStatus: `1 resourceClaimName string e; 2 containers []string;
    3 resources map<string,Quantity> e`,
  LabelSelector: `1 matchLabels map<string,string>; 2 matchExpressions []LabelSelectorRequirement`,
  DeploymentStrategy: `1 type string; 2 rollingUpdate RollingUpdateDeployment p`,
  DeploymentCondition: `1 type string e; 2 status string e; 6 lastUpdateTime Time;
    7 lastTransitionTime Time; 4 reason string; 5 message string`,
  PodFailurePolicy: `1 rules []PodFailurePolicyRule e`,
  SuccessPolicy: `1 rules []SuccessPolicyRule e`,
  JobCondition: `1 type string e; 2 status string e; 3 lastProbeTime Time;
    4 lastTransitionTime Time; 5 reason string; 6 message string`,
  UncountedTerminatedPods: `1 succeeded []string; 2 failed []string`,
  JobTemplateSpec: `1 metadata ObjectMeta ObjectMeta; 2 spec JobSpec`,
  IngressBackend: `4 service IngressServiceBackend p; 3 resource TypedLocalObjectReference p`,
  IngressTLS: `1 hosts []string; 2 secretName string`,
  IngressRule: `1 host string; 2 - IngressRuleValue i`,
  IngressLoadBalancerStatus: `1 ingress []IngressLoadBalancerIngress`,
  BoundObjectReference: `1 kind string; 2 apiVersion string APIVersion; 3 name string;
    4 uid string UID`,
  ResourceAttributes: `1 namespace string; 2 verb string; 3 group string; 4 version string;
    5 resource string; 6 subresource string; 7 name string;
    8 fieldSelector FieldSelectorAttributes p; 9 labelSelector LabelSelectorAttributes p`,
  NonResourceAttributes: `1 path string; 2 verb string`,
  ResourceRule: `1 verbs []string e; 2 apiGroups []string APIGroups; 3 resources []string;
    4 resourceNames []string`,
  NonResourceRule: `1 verbs []string e; 2 nonResourceURLs []string`,
  Preconditions: `1 uid string p UID; 2 resourceVersion string p`,
  EndpointAddress: `1 ip string e IP; 3 hostname string; 4 nodeName string p;
    2 targetRef ObjectReference p`,
  core_EndpointPort: `1 name string; 2 port int32 e; 3 protocol string; 4 appProtocol string p`,
  Taint: `1 key string e; 2 value string; 3 effect string e; 4 timeAdded Time p`,
  NodeConfigSource: `2 configMap ConfigMapNodeConfigSource p`,
  NodeCondition: `1 type string e; 2 status string e; 3 lastHeartbeatTime Time;
    4 lastTransitionTime Time; 5 reason string; 6 message string`,
  NodeAddress: `1 type string e; 2 address string e`,
  NodeDaemonEndpoints: `1 kubeletEndpoint DaemonEndpoint`,
  NodeSystemInfo: `1 machineID string e; 2 systemUUID string e; 3 bootID string e;
    4 kernelVersion string e; 5 osImage string e OSImage; 6 containerRuntimeVersion string e;
    7 kubeletVersion string e; 8 kubeProxyVersion string e; 9 operatingSystem string e;
    10 architecture string e; 11 swap NodeSwapStatus p`,
  ContainerImage: `1 names []string e; 2 sizeBytes int64`,
  AttachedVolume: `1 name string e; 2 devicePath string e`,
  NodeConfigStatus: `1 assigned NodeConfigSource p; 2 active NodeConfigSource p;
    3 lastKnownGood NodeConfigSource p; 4 error string`,
  NodeRuntimeHandler: `1 name string e; 2 features NodeRuntimeHandlerFeatures p`,
  NodeFeatures: `1 supplementalGroupsPolicy bool p`,
  PersistentVolumeSource: `1 gcePersistentDisk GCEPersistentDiskVolumeSource p GCEPersistentDisk;
    2 awsElasticBlockStore AWSElasticBlockStoreVolumeSource p AWSElasticBlockStore;
    3 hostPath HostPathVolumeSource p; 4 glusterfs GlusterfsPersistentVolumeSource p;
    5 nfs NFSVolumeSource p NFS; 6 rbd RBDPersistentVolumeSource p RBD;
    7 iscsi ISCSIPersistentVolumeSource p ISCSI; 8 cinder CinderPersistentVolumeSource p;
    9 cephfs CephFSPersistentVolumeSource p CephFS; 10 fc FCVolumeSource p FC;
    11 flocker FlockerVolumeSource p; 12 flexVolume FlexPersistentVolumeSource p;
    13 azureFile AzureFilePersistentVolumeSource p;
    14 vsphereVolume VsphereVirtualDiskVolumeSource p; 15 quobyte QuobyteVolumeSource p;
    16 azureDisk AzureDiskVolumeSource p;
    17 photonPersistentDisk PhotonPersistentDiskVolumeSource p;
    18 portworxVolume PortworxVolumeSource p; 19 scaleIO ScaleIOPersistentVolumeSource p;
    20 local LocalVolumeSource p; 21 storageos StorageOSPersistentVolumeSource p StorageOS;
    22 csi CSIPersistentVolumeSource p CSI`,
  VolumeNodeAffinity: `1 required NodeSelector p`,
  VolumeResourceRequirements: `1 limits map<string,Quantity>; 2 requests map<string,Quantity>`,
  TypedLocalObjectReference: `1 apiGroup string pe APIGroup; 2 kind string e; 3 name string e`,
  TypedObjectReference: `1 apiGroup string pe APIGroup; 2 kind string e; 3 name string e;
    4 namespace string p`,
  PersistentVolumeClaimCondition: `1 type string e; 2 status string e; 3 lastProbeTime Time;
    4 lastTransitionTime Time; 5 reason string; 6 message string`,
  ModifyVolumeStatus: `1 targetVolumeAttributesClassName string; 2 status string e`,
  ReplicationControllerCondition: `1 type string e; 2 status string e; 3 lastTransitionTime Time;
    4 reason string; 5 message string`,
  LimitRangeItem: `1 type string e; 2 max map<string,Quantity>; 3 min map<string,Quantity>;
    4 default map<string,Quantity>; 5 defaultRequest map<string,Quantity>;
    6 maxLimitRequestRatio map<string,Quantity>`,
  ReplicaSetCondition: `1 type string e; 2 status string e; 3 lastTransitionTime Time;
    4 reason string; 5 message string`,
  StatefulSetUpdateStrategy: `1 type string; 2 rollingUpdate RollingUpdateStatefulSetStrategy p`,
  StatefulSetPersistentVolumeClaimRetentionPolicy: `1 whenDeleted string; 2 whenScaled string`,
  StatefulSetOrdinals: `1 start int32 e`,
  StatefulSetCondition: `1 type string e; 2 status string e; 3 lastTransitionTime Time;
    4 reason string; 5 message string`,
  DaemonSetUpdateStrategy: `1 type string; 2 rollingUpdate RollingUpdateDaemonSet p`,
  DaemonSetCondition: `1 type string e; 2 status string e; 3 lastTransitionTime Time;
    4 reason string; 5 message string`,
  EndpointConditions: `1 ready bool p; 2 serving bool p; 3 terminating bool p`,
  EndpointHints: `1 forZones []ForZone; 2 forNodes []ForNode`,
  NetworkPolicyIngressRule: `1 ports []NetworkPolicyPort; 2 from []NetworkPolicyPeer`,
  NetworkPolicyEgressRule: `1 ports []NetworkPolicyPort; 2 to []NetworkPolicyPeer`,
  CrossVersionObjectReference: `1 kind string e; 2 name string e; 3 apiVersion string APIVersion`,
  MetricSpec: `1 type string e; 2 object ObjectMetricSource p; 3 pods PodsMetricSource p;
    4 resource ResourceMetricSource p; 7 containerResource ContainerResourceMetricSource p;
    5 external ExternalMetricSource p`,
  HorizontalPodAutoscalerBehavior: `1 scaleUp HPAScalingRules p; 2 scaleDown HPAScalingRules p`,
  MetricStatus: `1 type string e; 2 object ObjectMetricStatus p; 3 pods PodsMetricStatus p;
    4 resource ResourceMetricStatus p; 7 containerResource ContainerResourceMetricStatus p;
    5 external ExternalMetricStatus p`,
  HorizontalPodAutoscalerCondition: `1 type string e; 2 status string e;
    3 lastTransitionTime Time; 4 reason string; 5 message string`,
  ClientIPConfig: `1 timeoutSeconds int32 p`,
  LoadBalancerIngress: `1 ip string IP; 2 hostname string; 3 ipMode string p IPMode;
    4 ports []PortStatus`,
  ScopedResourceSelectorRequirement: `1 scopeName string e; 2 operator string e; 3 values []string`,
  VolumeSource: `1 hostPath HostPathVolumeSource p; 2 emptyDir EmptyDirVolumeSource p;
    3 gcePersistentDisk GCEPersistentDiskVolumeSource p GCEPersistentDisk;
    4 awsElasticBlockStore AWSElasticBlockStoreVolumeSource p AWSElasticBlockStore;
    5 gitRepo GitRepoVolumeSource p; 6 secret SecretVolumeSource p; 7 nfs NFSVolumeSource p NFS;
    8 iscsi ISCSIVolumeSource p ISCSI; 9 glusterfs GlusterfsVolumeSource p;
    10 persistentVolumeClaim PersistentVolumeClaimVolumeSource p; 11 rbd RBDVolumeSource p RBD;
    12 flexVolume FlexVolumeSource p; 13 cinder CinderVolumeSource p;
    14 cephfs CephFSVolumeSource p CephFS; 15 flocker FlockerVolumeSource p;
    16 downwardAPI DownwardAPIVolumeSource p; 17 fc FCVolumeSource p FC;
    18 azureFile AzureFileVolumeSource p; 19 configMap ConfigMapVolumeSource p;
    20 vsphereVolume VsphereVirtualDiskVolumeSource p; 21 quobyte QuobyteVolumeSource p;
    22 azureDisk AzureDiskVolumeSource p;
    23 photonPersistentDisk PhotonPersistentDiskVolumeSource p;
    26 projected ProjectedVolumeSource p; 24 portworxVolume PortworxVolumeSource p;
    25 scaleIO ScaleIOVolumeSource p; 27 storageos StorageOSVolumeSource p StorageOS;
    28 csi CSIVolumeSource p CSI; 29 ephemeral EphemeralVolumeSource p;
    30 image ImageVolumeSource p`,
  ContainerPort: `1 name string; 2 hostPort int32; 3 containerPort int32 e; 4 protocol string;
    5 hostIP string`,
  EnvFromSource: `1 prefix string; 2 configMapRef ConfigMapEnvSource p;
    3 secretRef SecretEnvSource p`,
  EnvVar: `1 name string e; 2 value string; 3 valueFrom EnvVarSource p`,
  ContainerResizePolicy: `1 resourceName string e; 2 restartPolicy string e`,
  ContainerRestartRule: `1 action string; 2 exitCodes ContainerRestartRuleOnExitCodes p`,
  VolumeMount: `1 name string e; 2 readOnly bool; 7 recursiveReadOnly string p;
    3 mountPath string e; 4 subPath string; 5 mountPropagation string p; 6 subPathExpr string`,
  VolumeDevice: `1 name string e; 2 devicePath string e`,
  Probe: `1 - ProbeHandler i; 2 initialDelaySeconds int32; 3 timeoutSeconds int32;
    4 periodSeconds int32; 5 successThreshold int32; 6 failureThreshold int32;
    7 terminationGracePeriodSeconds int64 p`,
  Lifecycle: `1 postStart LifecycleHandler p; 2 preStop LifecycleHandler p; 3 stopSignal string p`,
  SecurityContext: `1 capabilities Capabilities p; 2 privileged bool p;
    3 seLinuxOptions SELinuxOptions p SELinuxOptions;
    10 windowsOptions WindowsSecurityContextOptions p; 4 runAsUser int64 p; 8 runAsGroup int64 p;
    5 runAsNonRoot bool p; 6 readOnlyRootFilesystem bool p; 7 allowPrivilegeEscalation bool p;
    9 procMount string p; 11 seccompProfile SeccompProfile p; 12 appArmorProfile AppArmorProfile p`,
  EphemeralContainerCommon: `1 name string e; 2 image string; 3 command []string; 4 args []string;
    5 workingDir string; 6 ports []ContainerPort; 19 envFrom []EnvFromSource; 7 env []EnvVar;
    8 resources ResourceRequirements; 23 resizePolicy []ContainerResizePolicy;
    24 restartPolicy string p; 25 restartPolicyRules []ContainerRestartRule;
    9 volumeMounts []VolumeMount; 21 volumeDevices []VolumeDevice; 10 livenessProbe Probe p;
    11 readinessProbe Probe p; 22 startupProbe Probe p; 12 lifecycle Lifecycle p;
    13 terminationMessagePath string; 20 terminationMessagePolicy string;
    14 imagePullPolicy string; 15 securityContext SecurityContext p; 16 stdin bool;
    17 stdinOnce bool; 18 tty bool TTY`,
  SELinuxOptions: `1 user string; 2 role string; 3 type string; 4 level string`,
  WindowsSecurityContextOptions: `1 gmsaCredentialSpecName string p GMSACredentialSpecName;
    2 gmsaCredentialSpec string p GMSACredentialSpec; 3 runAsUserName string p;
    4 hostProcess bool p`,
  Sysctl: `1 name string e; 2 value string e`,
  SeccompProfile: `1 type string e; 2 localhostProfile string p`,
  AppArmorProfile: `1 type string e; 2 localhostProfile string p`,
  NodeAffinity: `1 requiredDuringSchedulingIgnoredDuringExecution NodeSelector p;
    2 preferredDuringSchedulingIgnoredDuringExecution []PreferredSchedulingTerm`,
  PodAffinity: `1 requiredDuringSchedulingIgnoredDuringExecution []PodAffinityTerm;
    2 preferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm`,
  PodAntiAffinity: `1 requiredDuringSchedulingIgnoredDuringExecution []PodAffinityTerm;
    2 preferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm`,
  PodDNSConfigOption: `1 name string; 2 value string p`,
  ResourceClaim: `1 name string e; 2 request string`,
  ContainerState: `1 waiting ContainerStateWaiting p; 2 running ContainerStateRunning p;
    3 terminated ContainerStateTerminated p`,
  VolumeMountStatus: `1 name string e; 2 mountPath string e; 3 readOnly bool;
    4 recursiveReadOnly string p; 5 volumeStatus VolumeStatus p`,
  ContainerUser: `1 linux LinuxContainerUser p`,
  ResourceStatus: `1 name string e; 2 resources []ResourceHealth`,
  ContainerExtendedResourceRequest: `1 containerName string e; 2 resourceName string e;
    3 requestName string e`,
  LabelSelectorRequirement: `1 key string e; 2 operator string e; 3 values []string`,
  RollingUpdateDeployment: `1 maxUnavailable IntOrString p; 2 maxSurge IntOrString p`,
  PodFailurePolicyRule: `1 action string e;
    2 onExitCodes PodFailurePolicyOnExitCodesRequirement p;
    3 onPodConditions []PodFailurePolicyOnPodConditionsPattern`,
  SuccessPolicyRule: `1 succeededIndexes string p; 2 succeededCount int32 p`,
  IngressServiceBackend: `1 name string e; 2 port ServiceBackendPort`,
  IngressRuleValue: `1 http HTTPIngressRuleValue p HTTP`,
  IngressLoadBalancerIngress: `1 ip string IP; 2 hostname string; 4 ports []IngressPortStatus`,
  FieldSelectorAttributes: `1 rawSelector string; 2 requirements []FieldSelectorRequirement`,
  LabelSelectorAttributes: `1 rawSelector string; 2 requirements []LabelSelectorRequirement`,
  ConfigMapNodeConfigSource: `1 namespace string e; 2 name string e; 3 uid string UID;
    4 resourceVersion string; 5 kubeletConfigKey string e`,
  DaemonEndpoint: `1 Port int32 e`,
  NodeSwapStatus: `1 capacity int64 p`,
  NodeRuntimeHandlerFeatures: `1 recursiveReadOnlyMounts bool p; 2 userNamespaces bool p`,
  GCEPersistentDiskVolumeSource: `1 pdName string e PDName; 2 fsType string FSType;
    3 partition int32; 4 readOnly bool`,
  AWSElasticBlockStoreVolumeSource: `1 volumeID string e; 2 fsType string FSType;
    3 partition int32; 4 readOnly bool`,
  HostPathVolumeSource: `1 path string e; 2 type string p`,
  GlusterfsPersistentVolumeSource: `1 endpoints string e EndpointsName; 2 path string e;
    3 readOnly bool; 4 endpointsNamespace string p`,
  NFSVolumeSource: `1 server string e; 2 path string e; 3 readOnly bool`,
  RBDPersistentVolumeSource: `1 monitors []string e CephMonitors; 2 image string e RBDImage;
    3 fsType string FSType; 4 pool string RBDPool; 5 user string RadosUser; 6 keyring string;
    7 secretRef SecretReference p; 8 readOnly bool`,
  ISCSIPersistentVolumeSource: `1 targetPortal string e; 2 iqn string e IQN; 3 lun int32 e;
    4 iscsiInterface string ISCSIInterface; 5 fsType string FSType; 6 readOnly bool;
    7 portals []string; 8 chapAuthDiscovery bool DiscoveryCHAPAuth;
    11 chapAuthSession bool SessionCHAPAuth; 10 secretRef SecretReference p;
    12 initiatorName string p`,
  CinderPersistentVolumeSource: `1 volumeID string e; 2 fsType string FSType; 3 readOnly bool;
    4 secretRef SecretReference p`,
  CephFSPersistentVolumeSource: `1 monitors []string e; 2 path string; 3 user string;
    4 secretFile string; 5 secretRef SecretReference p; 6 readOnly bool`,
  FCVolumeSource: `1 targetWWNs []string; 2 lun int32 p; 3 fsType string FSType; 4 readOnly bool;
    5 wwids []string WWIDs`,
  FlockerVolumeSource: `1 datasetName string; 2 datasetUUID string`,
  FlexPersistentVolumeSource: `1 driver string e; 2 fsType string FSType;
    3 secretRef SecretReference p; 4 readOnly bool; 5 options map<string,string>`,
  AzureFilePersistentVolumeSource: `1 secretName string e; 2 shareName string e; 3 readOnly bool;
    4 secretNamespace string pe`,
  VsphereVirtualDiskVolumeSource: `1 volumePath string e; 2 fsType string FSType;
    3 storagePolicyName string; 4 storagePolicyID string`,
  QuobyteVolumeSource: `1 registry string e; 2 volume string e; 3 readOnly bool; 4 user string;
    5 group string; 6 tenant string`,
  AzureDiskVolumeSource: `1 diskName string e; 2 diskURI string e DataDiskURI;
    3 cachingMode string p; 4 fsType string p FSType; 5 readOnly bool p; 6 kind string p`,
  PhotonPersistentDiskVolumeSource: `1 pdID string e; 2 fsType string FSType`,
  PortworxVolumeSource: `1 volumeID string e; 2 fsType string FSType; 3 readOnly bool`,
  ScaleIOPersistentVolumeSource: `1 gateway string e; 2 system string e;
    3 secretRef SecretReference pe; 4 sslEnabled bool SSLEnabled; 5 protectionDomain string;
    6 storagePool string; 7 storageMode string; 8 volumeName string; 9 fsType string FSType;
    10 readOnly bool`,
  LocalVolumeSource: `1 path string e; 2 fsType string p FSType`,
  StorageOSPersistentVolumeSource: `1 volumeName string; 2 volumeNamespace string;
    3 fsType string FSType; 4 readOnly bool; 5 secretRef ObjectReference p`,
  CSIPersistentVolumeSource: `1 driver string e; 2 volumeHandle string e; 3 readOnly bool;
    4 fsType string FSType; 5 volumeAttributes map<string,string>;
    6 controllerPublishSecretRef SecretReference p; 7 nodeStageSecretRef SecretReference p;
    8 nodePublishSecretRef SecretReference p; 9 controllerExpandSecretRef SecretReference p;
    10 nodeExpandSecretRef SecretReference p`,
  NodeSelector: `1 nodeSelectorTerms []NodeSelectorTerm e`,
  RollingUpdateStatefulSetStrategy: `1 partition int32 p; 2 maxUnavailable IntOrString p`,
  RollingUpdateDaemonSet: `1 maxUnavailable IntOrString p; 2 maxSurge IntOrString p`,
  ForZone: `1 name string e`,
  ForNode: `1 name string e`,
  NetworkPolicyPort: `1 protocol string p; 2 port IntOrString p; 3 endPort int32 p`,
  NetworkPolicyPeer: `1 podSelector LabelSelector p; 2 namespaceSelector LabelSelector p;
    3 ipBlock IPBlock p IPBlock`,
  ObjectMetricSource: `1 describedObject CrossVersionObjectReference e; 2 target MetricTarget e;
    3 metric MetricIdentifier e`,
  PodsMetricSource: `1 metric MetricIdentifier e; 2 target MetricTarget e`,
  ResourceMetricSource: `1 name string e; 2 target MetricTarget e`,
  ContainerResourceMetricSource: `1 name string e; 2 target MetricTarget e; 3 container string e`,
  ExternalMetricSource: `1 metric MetricIdentifier e; 2 target MetricTarget e`,
  HPAScalingRules: `3 stabilizationWindowSeconds int32 p; 1 selectPolicy string p;
    2 policies []HPAScalingPolicy; 4 tolerance Quantity p`,
  ObjectMetricStatus: `1 metric MetricIdentifier e; 2 current MetricValueStatus e;
    3 describedObject CrossVersionObjectReference e`,
  PodsMetricStatus: `1 metric MetricIdentifier e; 2 current MetricValueStatus e`,
  ResourceMetricStatus: `1 name string e; 2 current MetricValueStatus e`,
  ContainerResourceMetricStatus: `1 name string e; 2 current MetricValueStatus e;
    3 container string e`,
  ExternalMetricStatus: `1 metric MetricIdentifier e; 2 current MetricValueStatus e`,
  PortStatus: `1 port int32 e; 2 protocol string e; 3 error string p`,
  EmptyDirVolumeSource: `1 medium string; 2 sizeLimit Quantity p`,
  GitRepoVolumeSource: `1 repository string e; 2 revision string; 3 directory string`,
  SecretVolumeSource: `1 secretName string; 2 items []KeyToPath; 3 defaultMode int32 p;
    4 optional bool p`,
  ISCSIVolumeSource: `1 targetPortal string e; 2 iqn string e IQN; 3 lun int32 e;
    4 iscsiInterface string ISCSIInterface; 5 fsType string FSType; 6 readOnly bool;
    7 portals []string; 8 chapAuthDiscovery bool DiscoveryCHAPAuth;
    11 chapAuthSession bool SessionCHAPAuth; 10 secretRef LocalObjectReference p;
    12 initiatorName string p`,
  GlusterfsVolumeSource: `1 endpoints string e EndpointsName; 2 path string e; 3 readOnly bool`,
  PersistentVolumeClaimVolumeSource: `1 claimName string e; 2 readOnly bool`,
  RBDVolumeSource: `1 monitors []string e CephMonitors; 2 image string e RBDImage;
    3 fsType string FSType; 4 pool string RBDPool; 5 user string RadosUser; 6 keyring string;
    7 secretRef LocalObjectReference p; 8 readOnly bool`,
  FlexVolumeSource: `1 driver string e; 2 fsType string FSType;
    3 secretRef LocalObjectReference p; 4 readOnly bool; 5 options map<string,string>`,
  CinderVolumeSource: `1 volumeID string e; 2 fsType string FSType; 3 readOnly bool;
    4 secretRef LocalObjectReference p`,
  CephFSVolumeSource: `1 monitors []string e; 2 path string; 3 user string; 4 secretFile string;
    5 secretRef LocalObjectReference p; 6 readOnly bool`,
  DownwardAPIVolumeSource: `1 items []DownwardAPIVolumeFile; 2 defaultMode int32 p`,
  AzureFileVolumeSource: `1 secretName string e; 2 shareName string e; 3 readOnly bool`,
  ConfigMapVolumeSource: `1 - LocalObjectReference i; 2 items []KeyToPath; 3 defaultMode int32 p;
    4 optional bool p`,
  ProjectedVolumeSource: `1 sources []VolumeProjection e; 2 defaultMode int32 p`,
  ScaleIOVolumeSource: `1 gateway string e; 2 system string e;
    3 secretRef LocalObjectReference pe; 4 sslEnabled bool SSLEnabled; 5 protectionDomain string;
    6 storagePool string; 7 storageMode string; 8 volumeName string; 9 fsType string FSType;
    10 readOnly bool`,
  StorageOSVolumeSource: `1 volumeName string; 2 volumeNamespace string; 3 fsType string FSType;
    4 readOnly bool; 5 secretRef LocalObjectReference p`,
  CSIVolumeSource: `1 driver string e; 2 readOnly bool p; 3 fsType string p FSType;
    4 volumeAttributes map<string,string>; 5 nodePublishSecretRef LocalObjectReference p`,
  EphemeralVolumeSource: `1 volumeClaimTemplate PersistentVolumeClaimTemplate p`,
  ImageVolumeSource: `1 reference string; 2 pullPolicy string`,
  ConfigMapEnvSource: `1 - LocalObjectReference i; 2 optional bool p`,
  SecretEnvSource: `1 - LocalObjectReference i; 2 optional bool p`,
  EnvVarSource: `1 fieldRef ObjectFieldSelector p; 2 resourceFieldRef ResourceFieldSelector p;
    3 configMapKeyRef ConfigMapKeySelector p; 4 secretKeyRef SecretKeySelector p;
    5 fileKeyRef FileKeySelector p`,
  ContainerRestartRuleOnExitCodes: `1 operator string; 2 values []int32`,
  ProbeHandler: `1 exec ExecAction p; 2 httpGet HTTPGetAction p HTTPGet;
    3 tcpSocket TCPSocketAction p TCPSocket; 4 grpc GRPCAction p GRPC`,
  LifecycleHandler: `1 exec ExecAction p; 2 httpGet HTTPGetAction p HTTPGet;
    3 tcpSocket TCPSocketAction p TCPSocket; 4 sleep SleepAction p`,
  Capabilities: `1 add []string; 2 drop []string`,
  PreferredSchedulingTerm: `1 weight int32 e; 2 preference NodeSelectorTerm e`,
  PodAffinityTerm: `1 labelSelector LabelSelector p; 2 namespaces []string;
    3 topologyKey string e; 4 namespaceSelector LabelSelector p; 5 matchLabelKeys []string;
    6 mismatchLabelKeys []string`,
  WeightedPodAffinityTerm: `1 weight int32 e; 2 podAffinityTerm PodAffinityTerm e`,
  ContainerStateWaiting: `1 reason string; 2 message string`,
  ContainerStateRunning: `1 startedAt Time`,
  ContainerStateTerminated: `1 exitCode int32 e; 2 signal int32; 3 reason string;
    4 message string; 5 startedAt Time; 6 finishedAt Time; 7 containerID string`,
  VolumeStatus: `1 image ImageVolumeStatus p`,
  LinuxContainerUser: `1 uid int64 e UID; 2 gid int64 e GID; 3 supplementalGroups []int64`,
  ResourceHealth: `1 resourceID string e; 2 health string; 6 message string p`,
  PodFailurePolicyOnExitCodesRequirement: `1 containerName string p; 2 operator string e;
    3 values []int32 e`,
  PodFailurePolicyOnPodConditionsPattern: `1 type string e; 2 status string e`,
  ServiceBackendPort: `1 name string; 2 number int32`,
  HTTPIngressRuleValue: `1 paths []HTTPIngressPath e`,
  IngressPortStatus: `1 port int32 e; 2 protocol string e; 3 error string p`,
  FieldSelectorRequirement: `1 key string e; 2 operator string e; 3 values []string`,
  SecretReference: `1 name string; 2 namespace string`,
  NodeSelectorTerm: `1 matchExpressions []NodeSelectorRequirement;
    2 matchFields []NodeSelectorRequirement`,
  IPBlock: `1 cidr string e CIDR; 2 except []string`,
  MetricTarget: `1 type string e; 2 value Quantity p; 3 averageValue Quantity p;
    4 averageUtilization int32 p`,
  MetricIdentifier: `1 name string e; 2 selector LabelSelector p`,
  HPAScalingPolicy: `1 type string e; 2 value int32 e; 3 periodSeconds int32 e`,
  MetricValueStatus: `1 value Quantity p; 2 averageValue Quantity p; 3 averageUtilization int32 p`,
  KeyToPath: `1 key string e; 2 path string e; 3 mode int32 p`,
  DownwardAPIVolumeFile: `1 path string e; 2 fieldRef ObjectFieldSelector p;
    3 resourceFieldRef ResourceFieldSelector p; 4 mode int32 p`,
  VolumeProjection: `1 secret SecretProjection p; 2 downwardAPI DownwardAPIProjection p;
    3 configMap ConfigMapProjection p; 4 serviceAccountToken ServiceAccountTokenProjection p;
    5 clusterTrustBundle ClusterTrustBundleProjection p;
    6 podCertificate PodCertificateProjection p`,
  PersistentVolumeClaimTemplate: `1 metadata ObjectMeta ObjectMeta;
    2 spec PersistentVolumeClaimSpec e`,
  ObjectFieldSelector: `1 apiVersion string APIVersion; 2 fieldPath string e`,
  ResourceFieldSelector: `1 containerName string; 2 resource string e; 3 divisor Quantity`,
  ConfigMapKeySelector: `1 - LocalObjectReference i; 2 key string e; 3 optional bool p`,
  SecretKeySelector: `1 - LocalObjectReference i; 2 key string e; 3 optional bool p`,
  FileKeySelector: `1 volumeName string e; 2 path string e; 3 key string e; 4 optional bool p`,
  ExecAction: `1 command []string`,
  HTTPGetAction: `1 path string; 2 port IntOrString e; 3 host string; 4 scheme string;
    5 httpHeaders []HTTPHeader HTTPHeaders`,
  TCPSocketAction: `1 port IntOrString e; 2 host string`,
  GRPCAction: `1 port int32 e; 2 service string pe`,
  SleepAction: `1 seconds int64 e`,
  ImageVolumeStatus: `1 imageRef string`,
  HTTPIngressPath: `1 path string; 3 pathType string pe; 2 backend IngressBackend e`,
  NodeSelectorRequirement: `1 key string e; 2 operator string e; 3 values []string`,
  SecretProjection: `1 - LocalObjectReference i; 2 items []KeyToPath; 4 optional bool p`,
  DownwardAPIProjection: `1 items []DownwardAPIVolumeFile`,
  ConfigMapProjection: `1 - LocalObjectReference i; 2 items []KeyToPath; 4 optional bool p`,
  ServiceAccountTokenProjection: `1 audience string; 2 expirationSeconds int64 p; 3 path string e`,
  ClusterTrustBundleProjection: `1 name string p; 2 signerName string p;
    3 labelSelector LabelSelector p; 5 optional bool p; 4 path string e`,
  PodCertificateProjection: `1 signerName string; 2 keyType string;
    3 maxExpirationSeconds int32 p; 4 credentialBundlePath string; 5 keyPath string;
    6 certificateChainPath string; 7 userAnnotations map<string,string>`,
  HTTPHeader: `1 name string e; 2 value string e`,
  // k8s.io/apimachinery's messages with their own JSON form (protobuf-body.ts converts them).
  Time: `1 seconds int64; 2 nanos int32`,
  MicroTime: `1 seconds int64; 2 nanos int32`,
  IntOrString: `1 type int64; 2 intVal int32; 3 strVal string`,
  Quantity: `1 string string String_`,
  RawExtension: `1 raw bytes`,
  FieldsV1: `1 Raw bytes`,
};

/** The top-level message of each kind, by `group/version/Kind` (core: `/v1/Kind`). */
export const protobufKinds: Readonly<Record<string, string>> = {
  '/v1/ConfigMap': 'ConfigMap',
  '/v1/Endpoints': 'Endpoints',
  '/v1/Event': 'core_Event',
  '/v1/LimitRange': 'LimitRange',
  '/v1/Namespace': 'Namespace',
  '/v1/Node': 'Node',
  '/v1/PersistentVolume': 'PersistentVolume',
  '/v1/PersistentVolumeClaim': 'PersistentVolumeClaim',
  '/v1/Pod': 'Pod',
  '/v1/PodTemplate': 'PodTemplate',
  '/v1/ReplicationController': 'ReplicationController',
  '/v1/ResourceQuota': 'ResourceQuota',
  '/v1/Secret': 'Secret',
  '/v1/Service': 'Service',
  '/v1/ServiceAccount': 'ServiceAccount',
  'apps/v1/ControllerRevision': 'ControllerRevision',
  'apps/v1/DaemonSet': 'DaemonSet',
  'apps/v1/Deployment': 'Deployment',
  'apps/v1/ReplicaSet': 'ReplicaSet',
  'apps/v1/StatefulSet': 'StatefulSet',
  'authentication.k8s.io/v1/SelfSubjectReview': 'SelfSubjectReview',
  'authentication.k8s.io/v1/TokenRequest': 'TokenRequest',
  'authorization.k8s.io/v1/SelfSubjectAccessReview': 'SelfSubjectAccessReview',
  'authorization.k8s.io/v1/SelfSubjectRulesReview': 'SelfSubjectRulesReview',
  'autoscaling/v2/HorizontalPodAutoscaler': 'HorizontalPodAutoscaler',
  'batch/v1/CronJob': 'CronJob',
  'batch/v1/Job': 'Job',
  'coordination.k8s.io/v1/Lease': 'Lease',
  'discovery.k8s.io/v1/EndpointSlice': 'EndpointSlice',
  'events.k8s.io/v1/Event': 'events_Event',
  'networking.k8s.io/v1/Ingress': 'Ingress',
  'networking.k8s.io/v1/NetworkPolicy': 'NetworkPolicy',
  'policy/v1/Eviction': 'Eviction',
  'policy/v1/PodDisruptionBudget': 'PodDisruptionBudget',
  'rbac.authorization.k8s.io/v1/ClusterRole': 'ClusterRole',
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': 'ClusterRoleBinding',
  'rbac.authorization.k8s.io/v1/Role': 'Role',
  'rbac.authorization.k8s.io/v1/RoleBinding': 'RoleBinding',
  'scheduling.k8s.io/v1/PriorityClass': 'PriorityClass',
};
