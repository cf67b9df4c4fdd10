// Mirrors kubernetes pkg/registry/core/service/strategy.go and storage/{storage.go,alloc.go}
// (release-1.36): no generation, unconditional updates. As upstream's Store runs BeginCreate and
// BeginUpdate (allocation) before BeforeCreate/BeforeUpdate (PrepareFor*, then Validate), a create
// first normalizes clusterIP(s) (normalizeClusterIPs), then initIPFamilyFields on a single-stack
// IPv4 cluster (its loose pre-validation, ValidateServiceClusterIPsRelatedFields, and the family
// rules answer before anything else), allocates the clusterIP (service-allocators.ts), the
// nodePorts of NodePort and LoadBalancer Services and the healthCheckNodePort of a LoadBalancer
// with externalTrafficPolicy Local; an update first keeps the allocated values a client left out
// (patchAllocatedValues), and PrepareForUpdate wipes what the old type allocated and the new does
// not use (dropTypeDependentFields). Validation is service-validation.ts; the name is an RFC 1123
// label (RelaxedServiceNameValidation is beta and on in 1.36). Deliberate differences: allocation
// happens in PrepareForCreate/PrepareForUpdate, on a dry run too (a Service keeps its address for
// the life of the process, so a later real create gets the same); nothing is released on a type
// change; status.loadBalancer is not cleared when a Service stops being a LoadBalancer.
import type { KubeObject } from '../../engine';
import {
  FieldPath,
  invalid,
  NamedString,
  newInternalError,
  newInvalid,
  type FieldError,
} from '../../engine/http-face';
import { isIPv6String } from '../net-ip';
import { nameIsDNSLabel, validateObjectMetaAccessor } from '../object-meta';
import { AllocationError, type ServiceAllocators } from './service-allocators';
import {
  clusterIPNone,
  externallyAccessible,
  needsHealthCheck,
  validateService,
  validateServiceClusterIPsRelatedFields,
  validateLoadBalancerStatus,
  validateServiceUpdate,
} from './service-validation';
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

/** The one family this cluster serves (--service-cluster-ip-range is IPv4 only). */
const servedFamily = 'IPv4';

const sameStrings = (a: unknown, b: unknown): boolean => {
  const x = strings(a);
  const y = strings(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
};
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

/**
 * initIPFamilyFields for a single-stack IPv4 cluster: the policy's default, then the loose
 * pre-validation (ValidateServiceClusterIPsRelatedFields) and the family rules, each refused as
 * upstream refuses it before anything is allocated.
 */
function initIPFamilyFields(obj: KubeObject, spec: Loose, old: Loose | undefined): void {
  if (spec.type === 'ExternalName') return;
  const selectorless = Object.keys(objectOf(spec.selector) ?? {}).length === 0;
  if (spec.ipFamilyPolicy === undefined || spec.ipFamilyPolicy === null) {
    if (old && typeof old.ipFamilyPolicy === 'string') spec.ipFamilyPolicy = old.ipFamilyPolicy;
    else if (spec.clusterIP === clusterIPNone && selectorless)
      spec.ipFamilyPolicy = 'RequireDualStack';
    else spec.ipFamilyPolicy = 'SingleStack';
  }
  const pre = validateServiceClusterIPsRelatedFields(spec, old);
  if (pre.length > 0) allocationFailed(obj, pre);
  const policyPath = FieldPath.of('spec', 'ipFamilyPolicy');
  const policy = new NamedString(String(spec.ipFamilyPolicy));
  const errs: FieldError[] = [];
  if (old) {
    if (spec.ipFamilyPolicy === 'SingleStack') {
      // Setting the policy to single-stack with unchanged fields is clear intent.
      if (sameStrings(old.clusterIPs, spec.clusterIPs) && strings(spec.clusterIPs).length > 1)
        spec.clusterIPs = strings(spec.clusterIPs).slice(0, 1);
      if (sameStrings(old.ipFamilies, spec.ipFamilies) && strings(spec.ipFamilies).length > 1)
        spec.ipFamilies = strings(spec.ipFamilies).slice(0, 1);
    } else {
      const reduced = (k: string): boolean =>
        strings(spec[k]).length > 0 && strings(spec[k]).length < strings(old[k]).length;
      if (reduced('clusterIPs'))
        errs.push(
          invalid(policyPath, policy, "must be 'SingleStack' to release the secondary cluster IP"),
        );
      if (reduced('ipFamilies'))
        errs.push(
          invalid(policyPath, policy, "must be 'SingleStack' to release the secondary IP family"),
        );
    }
  }
  const ips = strings(spec.clusterIPs);
  const families = strings(spec.ipFamilies);
  if (spec.ipFamilyPolicy === 'SingleStack') {
    const why = "must be 'RequireDualStack' or 'PreferDualStack' when multiple";
    if (ips.length === 2)
      errs.push(invalid(policyPath, policy, `${why} cluster IPs are specified`));
    if (families.length === 2)
      errs.push(invalid(policyPath, policy, `${why} IP families are specified`));
  }
  // ipFamilies from clusterIPs, already validated as addresses.
  for (const [i, ip] of ips.entries()) {
    if (ip === clusterIPNone) break;
    if (i < families.length) continue;
    const family = isIPv6String(ip) ? 'IPv6' : 'IPv4';
    if (family !== servedFamily)
      errs.push(
        invalid(
          FieldPath.of('spec', 'clusterIPs').index(i),
          ips,
          `${family} is not configured on this cluster`,
        ),
      );
    else families.push(family);
  }
  if (errs.length > 0) allocationFailed(obj, errs);
  // A headless selectorless Service may list both families on a single-stack cluster.
  if (spec.clusterIP === clusterIPNone && selectorless) {
    if (families.length === 0) families.push(servedFamily);
    if (families.length < 2 && spec.ipFamilyPolicy !== 'SingleStack')
      families.push(families[0] === 'IPv4' ? 'IPv6' : 'IPv4');
    spec.ipFamilies = families;
    return;
  }
  if (spec.ipFamilyPolicy === 'RequireDualStack')
    errs.push(
      invalid(policyPath, policy, 'this cluster is not configured for dual-stack services'),
    );
  families.forEach((family, i) => {
    if (family !== servedFamily)
      errs.push(
        invalid(
          FieldPath.of('spec', 'ipFamilies').index(i),
          new NamedString(family),
          'not configured on this cluster',
        ),
      );
  });
  if (errs.length > 0) allocationFailed(obj, errs);
  if (families.length === 0) families.push(servedFamily);
  spec.ipFamilies = families;
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
  if (needsHealthCheck(spec) && needsHealthCheck(old) && (spec.healthCheckNodePort ?? 0) === 0)
    spec.healthCheckNodePort = old.healthCheckNodePort;
}

/** allocHealthCheckNodePort: the one asked for, or the next free one (a 500 when it fails). */
function allocHealthCheckNodePort(
  allocators: ServiceAllocators,
  obj: KubeObject,
  spec: Loose,
): void {
  const asked = typeof spec.healthCheckNodePort === 'number' ? spec.healthCheckNodePort : 0;
  const who = `${owner(obj)}#healthCheckNodePort`;
  try {
    if (asked !== 0) allocators.allocateNodePort(who, asked);
    else spec.healthCheckNodePort = allocators.allocateNextNodePort(who);
  } catch (e) {
    if (!(e instanceof AllocationError)) throw e;
    throw newInternalError(
      new Error(
        asked !== 0
          ? `failed to allocate requested HealthCheck NodePort ${asked}: ${e.message}`
          : `failed to allocate a HealthCheck NodePort ${asked}: ${e.message}`,
      ),
    );
  }
}

/**
 * dropTypeDependentFields: on a type change, what the old type allocated or defaulted and the new
 * one does not use, when the client left it as it was (a changed value is validation's to refuse).
 */
function dropTypeDependentFields(spec: Loose, old: Loose): void {
  const needsClusterIP = (s: Loose): boolean => s.type !== 'ExternalName';
  if (needsClusterIP(old) && !needsClusterIP(spec)) {
    if (
      (old.clusterIP ?? '') === (spec.clusterIP ?? '') &&
      sameStrings(old.clusterIPs, spec.clusterIPs)
    ) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (sameStrings(old.ipFamilies, spec.ipFamilies)) delete spec.ipFamilies;
    if ((old.ipFamilyPolicy ?? '') === (spec.ipFamilyPolicy ?? '')) delete spec.ipFamilyPolicy;
  }
  const nodePorts = (s: Loose): Set<unknown> =>
    new Set(
      portsOf(s)
        .map((p) => p.nodePort)
        .filter((n) => typeof n === 'number' && n !== 0),
    );
  const oldNodePorts = nodePorts(old);
  if (
    needsNodePorts(old) &&
    !needsNodePorts(spec) &&
    [...nodePorts(spec)].every((n) => oldNodePorts.has(n))
  )
    for (const p of portsOf(spec)) delete p.nodePort;
  if (
    needsHealthCheck(old) &&
    !needsHealthCheck(spec) &&
    (old.healthCheckNodePort ?? 0) === (spec.healthCheckNodePort ?? 0)
  )
    delete spec.healthCheckNodePort;
  if (
    old.type === 'LoadBalancer' &&
    spec.type !== 'LoadBalancer' &&
    typeof old.allocateLoadBalancerNodePorts === 'boolean' &&
    old.allocateLoadBalancerNodePorts === spec.allocateLoadBalancerNodePorts
  )
    delete spec.allocateLoadBalancerNodePorts;
  if (
    old.type === 'LoadBalancer' &&
    spec.type !== 'LoadBalancer' &&
    (old.loadBalancerClass ?? null) === (spec.loadBalancerClass ?? null)
  )
    delete spec.loadBalancerClass;
  if (
    externallyAccessible(old) &&
    !externallyAccessible(spec) &&
    (old.externalTrafficPolicy ?? '') === (spec.externalTrafficPolicy ?? '')
  )
    delete spec.externalTrafficPolicy;
}

const statusOf = (obj: KubeObject): Loose => objectOf((obj as unknown as Loose).status) ?? {};

const annotationsOf = (obj: KubeObject): Record<string, string> | undefined =>
  obj.metadata.annotations;

/** service.Strategy with the storage REST's allocation from one server's `allocators`. */
export const serviceStrategy = (allocators: ServiceAllocators): ObjectStrategy => ({
  ...strategyDefaults,
  groupKind: fixedKind('', 'Service'),
  namespaceScoped: true,
  allowUnconditionalUpdate: true,
  prepareForCreate(obj) {
    const spec = specOf(obj);
    normalizeClusterIPs(spec, undefined);
    initIPFamilyFields(obj, spec, undefined);
    allocClusterIPs(allocators, obj, spec);
    initNodePorts(allocators, obj, spec);
    if (needsHealthCheck(spec)) allocHealthCheckNodePort(allocators, obj, spec);
  },
  prepareForUpdate(obj, old) {
    const spec = specOf(obj);
    const before = specOf(old);
    patchAllocatedValues(spec, before);
    normalizeClusterIPs(spec, before);
    initIPFamilyFields(obj, spec, before);
    if (strings(before.clusterIPs).length === 0) allocClusterIPs(allocators, obj, spec);
    initNodePorts(allocators, obj, spec);
    // updateHealthCheckNodePort: a Service that starts to need one gets one.
    if (!needsHealthCheck(before) && needsHealthCheck(spec))
      allocHealthCheckNodePort(allocators, obj, spec);
    dropTypeDependentFields(spec, before);
  },
  // ValidateServiceCreate: ValidateObjectMeta with the Service name rule, then validateService.
  validate: (obj) => [
    ...validateObjectMetaAccessor(obj.metadata, true, nameIsDNSLabel),
    ...validateService(specOf(obj), annotationsOf(obj), undefined, undefined),
  ],
  validateUpdate: (obj, old) =>
    validateServiceUpdate(specOf(obj), annotationsOf(obj), specOf(old), annotationsOf(old)),
  // ValidateServiceStatusUpdate: the metadata rules run in rest-update.ts.
  validateStatusUpdate: (obj, old) =>
    validateLoadBalancerStatus(statusOf(obj), statusOf(old), specOf(obj)),
  resetFields: () => ({}),
});
