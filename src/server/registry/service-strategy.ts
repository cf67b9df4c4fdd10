// Mirrors kubernetes pkg/registry/core/service/strategy.go and storage/{storage.go,alloc.go}
// (release-1.36): no generation, unconditional updates; on create the IP family fields
// (initIPFamilyFields on a single-stack IPv4 cluster: ipFamilyPolicy SingleStack, or
// RequireDualStack for a headless Service without a selector; ipFamilies [IPv4]), a clusterIP and
// clusterIPs (normalizeClusterIPs, then allocated: service-allocators.ts) and, for NodePort and
// LoadBalancer, nodePorts; on update the allocated values a client left out are kept
// (patchAllocatedValues) and clusterIPs may not change. ValidateService as far as a client
// notices it: the type, the ports (required but for headless and ExternalName, each in range with
// a supported protocol, names when there are several), externalName for ExternalName.
// Deliberate difference: allocation happens in PrepareForCreate/PrepareForUpdate, on a dry run too
// (a Service keeps its address for the life of the process, so a later real create gets the same).
import type { KubeObject } from '../../engine';
import {
  FieldPath,
  invalid,
  newInvalid,
  notSupported,
  required,
  type FieldError,
} from '../../engine/http-face';
import { nameIsDNS1035Label, validateObjectMetaAccessor } from '../object-meta';
import { AllocationError, type ServiceAllocators } from './service-allocators';
import { fixedKind, strategyDefaults, type ObjectStrategy } from './strategy';

type Loose = Record<string, unknown>;

const objectOf = (v: unknown): Loose | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Loose) : undefined;
const specOf = (obj: KubeObject): Loose => {
  const o = obj as unknown as Loose;
  if (!objectOf(o.spec)) o.spec = {};
  return o.spec as Loose;
};
const portsOf = (spec: Loose): Loose[] =>
  Array.isArray(spec.ports)
    ? (spec.ports as unknown[]).filter((p): p is Loose => !!objectOf(p))
    : [];
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** api.ClusterIPNone. */
const clusterIPNone = 'None';

const isHeadless = (spec: Loose): boolean => spec.clusterIP === clusterIPNone;
const needsNodePorts = (spec: Loose): boolean =>
  spec.type === 'NodePort' || spec.type === 'LoadBalancer';

const owner = (obj: KubeObject): string =>
  `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;

function allocationFailed(obj: KubeObject, errs: FieldError[]): never {
  throw newInvalid({ group: '', kind: 'Service' }, obj.metadata.name ?? '', errs);
}

/** normalizeClusterIPs: clusterIP and clusterIPs[0] say the same (create, or update from `old`). */
function normalizeClusterIPs(spec: Loose, old: Loose | undefined): void {
  const ip = typeof spec.clusterIP === 'string' ? spec.clusterIP : '';
  const ips = strings(spec.clusterIPs);
  if (!old) {
    if (ip !== '' && ips.length === 0) spec.clusterIPs = [ip];
    else if (ip === '' && ips.length > 0) spec.clusterIP = ips[0];
    return;
  }
  const oldIPs = strings(old.clusterIPs);
  const sameIPs = ips.length === oldIPs.length && ips.every((x, i) => x === oldIPs[i]);
  if ((old.clusterIP ?? '') !== ip && sameIPs) {
    if (ip === '') delete spec.clusterIPs;
    else spec.clusterIPs = [ip];
  } else if (ip === '' && ips.length > 0) spec.clusterIP = ips[0];
}

/** initIPFamilyFields for a single-stack IPv4 cluster. */
function initIPFamilyFields(spec: Loose, old: Loose | undefined): void {
  if (spec.type === 'ExternalName') return;
  if (spec.ipFamilyPolicy === undefined || spec.ipFamilyPolicy === null) {
    if (old && typeof old.ipFamilyPolicy === 'string') spec.ipFamilyPolicy = old.ipFamilyPolicy;
    else if (isHeadless(spec) && Object.keys(objectOf(spec.selector) ?? {}).length === 0)
      spec.ipFamilyPolicy = 'RequireDualStack';
    else spec.ipFamilyPolicy = 'SingleStack';
  }
  const families = strings(spec.ipFamilies);
  if (families.length === 0) {
    spec.ipFamilies = ['IPv4'];
    // A headless selectorless Service that is not single-stack lists both families.
    if (
      isHeadless(spec) &&
      Object.keys(objectOf(spec.selector) ?? {}).length === 0 &&
      spec.ipFamilyPolicy !== 'SingleStack'
    )
      spec.ipFamilies = ['IPv4', 'IPv6'];
  }
}

/** allocClusterIPs: the primary address (none for ExternalName and headless Services). */
function allocClusterIPs(allocators: ServiceAllocators, obj: KubeObject, spec: Loose): void {
  if (spec.type === 'ExternalName') return;
  const ips = strings(spec.clusterIPs);
  if (ips[0] === clusterIPNone) return;
  try {
    if ((ips[0] ?? '') === '') {
      const ip = allocators.allocateNextIP(owner(obj));
      spec.clusterIPs = [ip];
      spec.clusterIP = ip;
    } else allocators.allocateIP(owner(obj), ips[0]);
  } catch (e) {
    if (!(e instanceof AllocationError)) throw e;
    allocationFailed(obj, [
      invalid(
        FieldPath.of('spec', 'clusterIPs'),
        ips,
        `failed to allocate IP ${ips[0] ?? ''}: ${e.message}`,
      ),
    ]);
  }
}

/** initNodePorts: each port of a NodePort or LoadBalancer Service gets one (one per port number). */
function initNodePorts(allocators: ServiceAllocators, obj: KubeObject, spec: Loose): void {
  if (!needsNodePorts(spec)) return;
  const allocate = spec.type === 'NodePort' || spec.allocateLoadBalancerNodePorts !== false;
  const byPort = new Map<unknown, number>();
  portsOf(spec).forEach((p, i) => {
    const asked = typeof p.nodePort === 'number' ? p.nodePort : 0;
    if (asked === 0 && !allocate) return;
    const known = byPort.get(p.port);
    if (asked === 0 && known !== undefined) {
      p.nodePort = known;
      return;
    }
    const who = `${owner(obj)}#${String(p.port)}/${String(p.protocol)}`;
    try {
      if (asked !== 0) allocators.allocateNodePort(who, asked);
      else p.nodePort = allocators.allocateNextNodePort(who);
    } catch (e) {
      if (!(e instanceof AllocationError)) throw e;
      allocationFailed(obj, [
        invalid(FieldPath.of('spec', 'ports').index(i).child('nodePort'), asked, e.message),
      ]);
    }
    byPort.set(p.port, p.nodePort as number);
  });
}

/** patchAllocatedValues: what an update left out of the allocated fields, from the stored object. */
function patchAllocatedValues(spec: Loose, old: Loose): void {
  if (spec.type !== 'ExternalName' && old.type !== 'ExternalName') {
    if ((spec.clusterIP ?? '') === '' && old.clusterIP !== undefined)
      spec.clusterIP = old.clusterIP;
    if (strings(spec.clusterIPs).length === 0 && strings(old.clusterIPs).length > 0)
      spec.clusterIPs = old.clusterIPs;
  }
  if (needsNodePorts(spec) && needsNodePorts(old)) {
    const used = new Set(
      portsOf(spec)
        .map((p) => p.nodePort)
        .filter((n) => typeof n === 'number'),
    );
    const byName = new Map(portsOf(old).map((p) => [p.name ?? '', p.nodePort]));
    for (const p of portsOf(spec)) {
      const oldValue = byName.get(p.name ?? '');
      if ((p.nodePort ?? 0) === 0 && typeof oldValue === 'number' && !used.has(oldValue))
        p.nodePort = oldValue;
    }
  }
}

const serviceTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const protocols = ['SCTP', 'TCP', 'UDP'];

/** ValidateService's checks of the type, the ports and externalName. */
function validateServiceSpec(obj: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const path = FieldPath.of('spec');
  const errs: FieldError[] = [];
  const ports = portsOf(spec);
  if (ports.length === 0 && !isHeadless(spec) && spec.type !== 'ExternalName')
    errs.push(required(path.child('ports'), ''));
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const portPath = path.child('ports').index(i);
    const name = typeof p.name === 'string' ? p.name : '';
    if (ports.length > 1 && name === '') errs.push(required(portPath.child('name'), ''));
    else if (name !== '') {
      if (names.has(name)) errs.push(invalid(portPath.child('name'), name, 'Duplicate value'));
      names.add(name);
    }
    const port = typeof p.port === 'number' ? p.port : 0;
    if (port < 1 || port > 65535)
      errs.push(invalid(portPath.child('port'), port, 'must be between 1 and 65535, inclusive'));
    if (!protocols.includes(String(p.protocol)))
      errs.push(notSupported(portPath.child('protocol'), p.protocol ?? '', protocols));
  });
  if (!serviceTypes.includes(String(spec.type)))
    errs.push(notSupported(path.child('type'), spec.type ?? '', serviceTypes));
  if (
    spec.type === 'ExternalName' &&
    (typeof spec.externalName !== 'string' || spec.externalName === '')
  )
    errs.push(required(path.child('externalName'), ''));
  return errs;
}

/** validateUpgradeDowngradeClusterIPs: the primary clusterIP may not change once set. */
function validateClusterIPsUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const before = specOf(old);
  if (spec.type === 'ExternalName' || before.type === 'ExternalName') return [];
  if (isHeadless(spec) && isHeadless(before)) return [];
  const ips = strings(spec.clusterIPs);
  const oldIPs = strings(before.clusterIPs);
  const path = FieldPath.of('spec', 'clusterIPs');
  const errs: FieldError[] = [];
  if (oldIPs.length === ips.length)
    oldIPs.forEach((ip, i) => {
      if (ip !== ips[i]) errs.push(invalid(path.index(i), ips, 'may not change once set'));
    });
  else if (oldIPs.length > ips.length) {
    if (ips.length === 0)
      errs.push(invalid(path.index(0), ips, 'primary clusterIP can not be unset'));
    else if (ips[0] !== oldIPs[0])
      errs.push(invalid(path.index(0), ips, 'may not change once set'));
  } else if (oldIPs.length > 0 && ips[0] !== oldIPs[0])
    errs.push(invalid(path.index(0), ips, 'may not change once set'));
  return errs;
}

/** service.Strategy with the storage REST's allocation from one server's `allocators`. */
export const serviceStrategy = (allocators: ServiceAllocators): ObjectStrategy => ({
  ...strategyDefaults,
  groupKind: fixedKind('', 'Service'),
  namespaceScoped: true,
  allowUnconditionalUpdate: true,
  prepareForCreate(obj) {
    const spec = specOf(obj);
    initIPFamilyFields(spec, undefined);
    normalizeClusterIPs(spec, undefined);
    allocClusterIPs(allocators, obj, spec);
    initNodePorts(allocators, obj, spec);
  },
  prepareForUpdate(obj, old) {
    const spec = specOf(obj);
    const before = specOf(old);
    patchAllocatedValues(spec, before);
    normalizeClusterIPs(spec, before);
    initIPFamilyFields(spec, before);
    if (strings(before.clusterIPs).length === 0) allocClusterIPs(allocators, obj, spec);
    initNodePorts(allocators, obj, spec);
  },
  // ValidateService: ValidateObjectMeta(ValidateServiceName, a DNS-1035 label), then the spec.
  validate: (obj) => [
    ...validateObjectMetaAccessor(obj.metadata, true, nameIsDNS1035Label),
    ...validateServiceSpec(obj),
  ],
  validateUpdate: (obj, old) => [
    ...validateClusterIPsUpdate(obj, old),
    ...validateServiceSpec(obj),
  ],
  resetFields: () => ({}),
});
