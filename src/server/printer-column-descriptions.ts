// The swagger doc strings (k8s.io/api types_swagger_doc_generated.go, SwaggerDoc()[field]) that
// kubernetes/kubernetes pkg/printers/internalversion/printers.go AddHandlers gives its columns as
// descriptions. Deliberate difference: where upstream reads a retired version's type
// (extensions/v1beta1, apps/v1beta1, autoscaling/v2beta1, discovery/v1beta1, batch/v1beta1,
// rbac/v1beta1), the text here is the served version's (apps/v1, autoscaling/v2, ...).

/** Column descriptions by type and field. */
export const swaggerDoc = {
  deploymentSpecReplicas:
    'Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.',
  deploymentStatusUpdatedReplicas:
    'Total number of non-terminated pods targeted by this deployment that have the desired template spec.',
  deploymentStatusAvailableReplicas:
    'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.',
  replicaSetSpecReplicas:
    'Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller',
  replicaSetStatusReplicas:
    'Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller',
  replicaSetStatusReadyReplicas:
    'readyReplicas is the number of pods targeted by this ReplicaSet with a Ready Condition.',
  daemonSetStatusDesired:
    'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/',
  daemonSetStatusCurrent:
    'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/',
  daemonSetStatusReady:
    'numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.',
  daemonSetStatusUpdated: 'The total number of nodes that are running updated daemon pod',
  daemonSetStatusAvailable:
    'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)',
  podSpecNodeSelector:
    "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/",
  controllerRevisionRevision: 'Revision indicates the revision of the state represented by Data.',
  jobStatusSucceeded: 'The number of pods which reached phase Succeeded.',
  cronJobSpecSchedule: 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.',
  cronJobSpecTimeZone:
    'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones',
  cronJobSpecSuspend:
    'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.',
  cronJobStatusActive: 'A list of pointers to currently running jobs.',
  serviceSpecType:
    'type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. "ClusterIP" allocates a cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by manual construction of an Endpoints object or EndpointSlice objects. If clusterIP is "None", no virtual IP is allocated and the endpoints are published as a set of endpoints rather than a virtual IP. "NodePort" builds on ClusterIP and allocates a port on every node which routes to the same endpoints as the clusterIP. "LoadBalancer" builds on NodePort and creates an external load-balancer (if supported in the current cloud) which routes to the same endpoints as the clusterIP. "ExternalName" aliases this service to the specified externalName. Several other fields do not apply to ExternalName services. More info: https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types',
  serviceSpecClusterIP:
    'clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be blank) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).  Valid values are "None", empty string (""), or a valid IP address. Setting this to "None" makes a "headless service" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies',
  serviceSpecExternalIPs:
    'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.  These IPs are not managed by Kubernetes.  The user is responsible for ensuring that traffic arrives at a node with this IP.  A common example is external load-balancers that are not part of the Kubernetes system.',
  serviceSpecPorts:
    'The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies',
  serviceSpecSelector:
    'Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/',
  endpointsSubsets:
    'The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share. A single address with multiple ports, some of which are ready and some of which are not (because they come from different containers) will result in the address being displayed in different subsets for the different ports. No address will appear in both Addresses and NotReadyAddresses in the same subset. Sets of addresses and ports that comprise a service.',
  nodeSystemInfoKubeletVersion: 'Kubelet Version reported by the node.',
  nodeStatusAddresses:
    "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/concepts/nodes/node/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).",
  nodeSystemInfoOSImage:
    'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).',
  nodeSystemInfoKernelVersion:
    "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
  nodeSystemInfoContainerRuntimeVersion:
    'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).',
  eventType: 'Type of this event (Normal, Warning), new types could be added in the future',
  eventReason:
    "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
  objectReferenceFieldPath:
    'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.',
  eventMessage: 'A human-readable description of the status of this operation.',
  eventCount: 'The number of times this event has occurred.',
  secretType:
    'Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types',
  secretData:
    "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4",
  serviceAccountSecrets:
    'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. Pods are only limited to this list if this service account has a "kubernetes.io/enforce-mountable-secrets" annotation set to "true". This field should not be used to find auto-generated service account token secrets for use outside of pods. Instead, tokens can be requested directly using the TokenRequest API, or service account token secrets can be manually created. More info: https://kubernetes.io/docs/concepts/configuration/secret',
  pvcStatusPhase: 'phase represents the current phase of PersistentVolumeClaim.',
  pvcSpecVolumeName:
    'volumeName is the binding reference to the PersistentVolume backing this claim.',
  pvcStatusCapacity: 'capacity represents the actual resources of the underlying volume.',
  pvcStatusAccessModes:
    'accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1',
  pvcSpecVolumeMode:
    'volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.',
  rcSpecReplicas:
    'Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller',
  rcStatusReplicas:
    'Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller',
  rcStatusReadyReplicas: 'The number of ready replicas for this replication controller.',
  rcSpecSelector:
    'Selector is a label query over pods that should match the Replicas count. If Selector is empty, it is defaulted to the labels present on the Pod template. Label keys and values that must match in order to be controlled by this replication controller, if empty defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
  leaseSpecHolderIdentity: 'holderIdentity contains the identity of the holder of a current lease.',
  hpaSpecMetrics:
    'metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).  The desired replica count is calculated multiplying the ratio between the target value and the current value by the current number of pods.  Ergo, metrics used must decrease as the pod count is increased, and vice-versa.  See the individual metric source types for more information about how each type of metric must respond. If not set, the default metric will be set to 80% average CPU utilization.',
  hpaSpecMinReplicas:
    'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate HPAScaleToZero is enabled and at least one Object or External metric is configured.  Scaling is active as long as at least one metric value is available.',
  hpaSpecMaxReplicas:
    'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot be less that minReplicas.',
  hpaStatusCurrentReplicas:
    'currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.',
  endpointSliceAddressType:
    'addressType specifies the type of address carried by this EndpointSlice. All addresses in this slice must be the same type. This field is immutable after creation. The following address types are currently supported: * IPv4: Represents an IPv4 Address. * IPv6: Represents an IPv6 Address. * FQDN: Represents a Fully Qualified Domain Name.',
  endpointSlicePorts:
    'ports specifies the list of network ports exposed by each endpoint in this slice. Each port must have a unique name. When ports is empty, it indicates that there are no defined ports. When a port is defined with a nil port value, it indicates "all ports". Each slice may include a maximum of 100 ports.',
  endpointSliceEndpoints:
    'endpoints is a list of unique endpoints in this slice. Each slice may include a maximum of 1000 endpoints.',
  deploymentSpecSelector:
    "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment. It must match the pod template's labels.",
  replicaSetSpecSelector:
    "Selector is a label query over pods that should match the replica count. Label keys and values that must match in order to be controlled by this replica set. It must match the pod template's labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
  daemonSetSpecSelector:
    "A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template's labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
  jobSpecSelector:
    'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
  cronJobStatusLastScheduleTime:
    'Information when was the last time the job was successfully scheduled.',
  eventLastTimestamp: 'The time at which the most recent occurrence of this event was recorded.',
  eventInvolvedObject: 'The object that this event is about.',
  eventSource:
    'The component reporting this event. Should be a short machine understandable string.',
  eventFirstTimestamp:
    'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)',
  networkPolicySpecPodSelector:
    "podSelector selects the pods to which this NetworkPolicy object applies. The array of rules is applied to any pods selected by this field. An empty selector matches all pods in the policy's namespace. Multiple network policies can select the same set of pods. In this case, the ingress rules for each are combined additively. This field is optional. If it is not specified, it defaults to an empty selector.",
  roleBindingRoleRef:
    'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.',
  clusterRoleBindingRoleRef:
    'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.',
  hpaSpecScaleTargetRef:
    'scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count.',
} as const;
