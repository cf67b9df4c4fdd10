// Mirrors kubernetes pkg/apis/core/v1/defaults.go (release-1.36) and the generated
// zz_generated.defaults.go walk over a PodSpec: SetDefaults_PodSpec, SetDefaults_Container (with
// parsers.ParseImageName's tag), SetDefaults_ContainerPort, SetDefaults_Probe, SetDefaults_HTTPGetAction,
// SetDefaults_ObjectFieldSelector, SetDefaults_Volume and its sources' defaultMode, SetDefaults_Service
// and SetDefaults_Secret, with Convert_v1_Secret_To_core_Secret's stringData merge (a conversion
// upstream; here it runs beside the defaults, at the same moment: when a body is decoded).
// SetDefaults_Pod adds what only a Pod gets (enableServiceLinks, requests from limits, hostPorts
// under host networking). Deliberate differences: defaults behind alpha feature gates, pod-level
// resources and the resize policy of InPlacePodVerticalScaling are not applied.
import { setOwn } from '../../engine/http-face';

type Loose = Record<string, unknown>;

/** v1.DefaultTerminationGracePeriodSeconds. */
const defaultTerminationGracePeriodSeconds = 30;
/** v1.DefaultSchedulerName. */
const defaultSchedulerName = 'default-scheduler';
/** v1.TerminationMessagePathDefault. */
const terminationMessagePathDefault = '/dev/termination-log';
/** v1.DefaultClientIPServiceAffinitySeconds: three hours. */
const defaultClientIPServiceAffinitySeconds = 10800;
/** The mode a secret, configMap, projected or downwardAPI volume's files get (0644). */
const defaultVolumeMode = 0o644;

export function objectOf(v: unknown): Loose | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Loose) : undefined;
}

/** The object at `key` of `o`, created empty when absent or null. */
export function ensureObject(o: Loose, key: string): Loose {
  const v = objectOf(o[key]);
  if (v) return v;
  const created: Loose = {};
  o[key] = created;
  return created;
}

function each(v: unknown, f: (o: Loose) => void): void {
  if (Array.isArray(v)) for (const x of v) if (objectOf(x)) f(x as Loose);
}

const unset = (v: unknown): boolean => v === undefined || v === null || v === '';

/** parsers.ParseImageName's tag: `latest` when the reference names neither a tag nor a digest. */
export function imageTag(image: string): string {
  const at = image.indexOf('@');
  const name = at >= 0 ? image.slice(0, at) : image;
  const slash = name.lastIndexOf('/');
  const colon = name.lastIndexOf(':');
  const tag = colon > slash ? name.slice(colon + 1) : '';
  return tag === '' && at < 0 ? 'latest' : tag;
}

function setDefaultsProbe(p: Loose | undefined): void {
  if (!p) return;
  if (unset(p.timeoutSeconds)) p.timeoutSeconds = 1;
  if (unset(p.periodSeconds)) p.periodSeconds = 10;
  if (unset(p.successThreshold)) p.successThreshold = 1;
  if (unset(p.failureThreshold)) p.failureThreshold = 3;
  setDefaultsHTTPGetAction(objectOf(p.httpGet));
  const grpc = objectOf(p.grpc);
  // SetDefaults_GRPCAction: the service name defaults to "" (upstream sets the pointer).
  if (grpc && grpc.service === undefined) grpc.service = '';
}

function setDefaultsHTTPGetAction(h: Loose | undefined): void {
  if (!h) return;
  if (unset(h.path)) h.path = '/';
  if (unset(h.scheme)) h.scheme = 'HTTP';
}

function setDefaultsLifecycleHandler(h: Loose | undefined): void {
  if (h) setDefaultsHTTPGetAction(objectOf(h.httpGet));
}

function setDefaultsFieldRef(env: unknown): void {
  each(env, (e) => {
    const ref = objectOf(objectOf(e.valueFrom)?.fieldRef);
    if (ref && unset(ref.apiVersion)) ref.apiVersion = 'v1';
  });
}

/** SetDefaults_Container with what the generated defaulter does to its parts. */
export function setDefaultsContainer(c: Loose): void {
  if (unset(c.imagePullPolicy))
    c.imagePullPolicy =
      imageTag(typeof c.image === 'string' ? c.image : '') === 'latest' ? 'Always' : 'IfNotPresent';
  if (unset(c.terminationMessagePath)) c.terminationMessagePath = terminationMessagePathDefault;
  if (unset(c.terminationMessagePolicy)) c.terminationMessagePolicy = 'File';
  each(c.ports, (p) => {
    if (unset(p.protocol)) p.protocol = 'TCP';
  });
  setDefaultsFieldRef(c.env);
  setDefaultsProbe(objectOf(c.livenessProbe));
  setDefaultsProbe(objectOf(c.readinessProbe));
  setDefaultsProbe(objectOf(c.startupProbe));
  const lifecycle = objectOf(c.lifecycle);
  if (lifecycle) {
    setDefaultsLifecycleHandler(objectOf(lifecycle.postStart));
    setDefaultsLifecycleHandler(objectOf(lifecycle.preStop));
  }
  // The typed round trip: ResourceRequirements is no pointer, so it is always written.
  if (!objectOf(c.resources)) c.resources = {};
}

const volumeSources = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs',
  'iscsi', 'glusterfs', 'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs',
  'flocker', 'downwardAPI', 'fc', 'azureFile', 'configMap', 'vsphereVolume', 'quobyte',
  'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume', 'scaleIO', 'storageos',
  'csi', 'ephemeral', 'image',
]; // prettier-ignore

/** SetDefaults_Volume (no source: an emptyDir) and the sources' own defaults. */
function setDefaultsVolume(v: Loose): void {
  if (!volumeSources.some((s) => v[s] !== undefined && v[s] !== null)) v.emptyDir = {};
  for (const s of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    const src = objectOf(v[s]);
    if (src && unset(src.defaultMode)) src.defaultMode = defaultVolumeMode;
  }
  const hostPath = objectOf(v.hostPath);
  if (hostPath && hostPath.type === undefined) hostPath.type = '';
  each(objectOf(v.downwardAPI)?.items, (i) => setDefaultsFieldRef([{ valueFrom: i }]));
}

/** SetDefaults_PodSpec and the generated walk over its containers and volumes. */
export function setDefaultsPodSpec(spec: Loose): void {
  if (unset(spec.dnsPolicy)) spec.dnsPolicy = 'ClusterFirst';
  if (unset(spec.restartPolicy)) spec.restartPolicy = 'Always';
  if (!objectOf(spec.securityContext)) spec.securityContext = {};
  if (unset(spec.terminationGracePeriodSeconds))
    spec.terminationGracePeriodSeconds = defaultTerminationGracePeriodSeconds;
  if (unset(spec.schedulerName)) spec.schedulerName = defaultSchedulerName;
  each(spec.initContainers, setDefaultsContainer);
  each(spec.containers, setDefaultsContainer);
  each(spec.ephemeralContainers, setDefaultsContainer);
  each(spec.volumes, setDefaultsVolume);
}

/** v1.DefaultEnableServiceLinks. */
const defaultEnableServiceLinks = true;

/** Each container's requests default to its limits (only on a Pod, not a PodTemplate). */
function requestsFromLimits(containers: unknown): void {
  each(containers, (c) => {
    const resources = objectOf(c.resources);
    const limits = objectOf(resources?.limits);
    if (!resources || !limits) return;
    const requests = ensureObject(resources, 'requests');
    for (const [k, v] of Object.entries(limits))
      if (!Object.hasOwn(requests, k)) setOwn(requests, k, v);
  });
}

/** defaultHostNetworkPorts: with host networking every container port is also a host port. */
function defaultHostNetworkPorts(containers: unknown): void {
  each(containers, (c) =>
    each(c.ports, (p) => {
      if (unset(p.hostPort) || p.hostPort === 0) p.hostPort = p.containerPort;
    }),
  );
}

/** SetDefaults_Pod, then the generated walk's SetDefaults_PodSpec and the rest of the spec. */
export function setDefaultsPod(obj: Loose): void {
  const spec = ensureObject(obj, 'spec');
  requestsFromLimits(spec.containers);
  requestsFromLimits(spec.initContainers);
  if (spec.enableServiceLinks === undefined || spec.enableServiceLinks === null)
    spec.enableServiceLinks = defaultEnableServiceLinks;
  if (spec.hostNetwork === true) {
    defaultHostNetworkPorts(spec.containers);
    defaultHostNetworkPorts(spec.initContainers);
  }
  setDefaultsPodSpec(spec);
}

/** The defaults of a PodTemplateSpec at `o[key]` (its spec's; the template itself has none). */
export function setDefaultsPodTemplate(o: Loose | undefined, key = 'template'): void {
  const template = objectOf(o?.[key]);
  if (template) setDefaultsPodSpec(ensureObject(template, 'spec'));
}

/** service.ExternallyAccessible: reachable from outside the cluster. */
function externallyAccessible(spec: Loose): boolean {
  return (
    spec.type === 'LoadBalancer' ||
    spec.type === 'NodePort' ||
    (spec.type === 'ClusterIP' && Array.isArray(spec.externalIPs) && spec.externalIPs.length > 0)
  );
}

/** SetDefaults_Service. */
export function setDefaultsService(obj: Loose): void {
  const spec = ensureObject(obj, 'spec');
  if (unset(spec.sessionAffinity)) spec.sessionAffinity = 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const clientIP = objectOf(objectOf(spec.sessionAffinityConfig)?.clientIP);
    if (clientIP?.timeoutSeconds === undefined || clientIP.timeoutSeconds === null)
      spec.sessionAffinityConfig = {
        clientIP: { timeoutSeconds: defaultClientIPServiceAffinitySeconds },
      };
  }
  if (unset(spec.type)) spec.type = 'ClusterIP';
  each(spec.ports, (p) => {
    if (unset(p.protocol)) p.protocol = 'TCP';
    // intstr.FromInt32(0) or FromString(""): the target is the port.
    if (
      p.targetPort === undefined ||
      p.targetPort === null ||
      p.targetPort === 0 ||
      p.targetPort === ''
    )
      p.targetPort = p.port;
  });
  if (externallyAccessible(spec) && unset(spec.externalTrafficPolicy))
    spec.externalTrafficPolicy = 'Cluster';
  if (
    unset(spec.internalTrafficPolicy) &&
    (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP')
  )
    spec.internalTrafficPolicy = 'Cluster';
  if (spec.type === 'LoadBalancer' && unset(spec.allocateLoadBalancerNodePorts))
    spec.allocateLoadBalancerNodePorts = true;
  if (spec.type === 'LoadBalancer')
    each(objectOf(objectOf(obj.status)?.loadBalancer)?.ingress, (ing) => {
      if (!unset(ing.ip) && unset(ing.ipMode)) ing.ipMode = 'VIP';
    });
}

/**
 * SetDefaults_Secret (type Opaque), after Convert_v1_Secret_To_core_Secret: each stringData value
 * overwrites data's (base64 of its UTF-8 bytes) and stringData is gone (the internal type has none).
 */
export function setDefaultsSecret(obj: Loose): void {
  const stringData = objectOf(obj.stringData);
  if (stringData) {
    const data: Loose = {};
    for (const [k, v] of Object.entries(objectOf(obj.data) ?? {})) setOwn(data, k, v);
    for (const [k, v] of Object.entries(stringData))
      setOwn(data, k, Buffer.from(typeof v === 'string' ? v : '', 'utf8').toString('base64'));
    if (Object.keys(data).length > 0) obj.data = data;
  }
  delete obj.stringData;
  if (unset(obj.type)) obj.type = 'Opaque';
}
