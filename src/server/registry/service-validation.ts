// Mirrors kubernetes pkg/apis/core/validation/validation.go (release-1.36) for Services:
// ValidateServiceCreate/ValidateServiceUpdate, validateService, validateServicePort,
// validateServiceExternalTrafficPolicy, validateServiceExternalTrafficFieldsUpdate,
// validateServiceInternalTrafficFieldsValue, validateServiceTrafficDistribution,
// ValidateServiceClusterIPsRelatedFields, validateUpgradeDowngradeClusterIPs/IPFamilies,
// validateLoadBalancerClassField, validateClientIPAffinityConfig, ValidateEndpointIP and the
// ValidateLoadBalancerStatus, and the IsValidIPForLegacyField/IsValidCIDRForLegacyField wrappers (StrictIPCIDRValidation is beta and on
// in 1.36), with pkg/api/service/util.go's ExternallyAccessible and NeedsHealthCheck. Errors come
// in the order upstream appends them. Bad values print as apimachinery 1.36's field errors print
// them: a typed string (ServiceType, Protocol, …) or a struct through json.Marshal, a plain string
// with %q. Deliberate difference: the spec is the v1 JSON after defaulting (absent is Go's zero).
import {
  duplicate,
  FieldPath,
  forbidden,
  invalid,
  isDNS1123Subdomain,
  isLabelKey,
  NamedString,
  notSupported,
  required,
  type FieldError,
} from '../../engine/http-face';
import { is4In6, ipKind, isIPv6String, parseCIDRSloppy, parseIPSloppy } from '../net-ip';
import { isDNS1123Label, validateLabels } from '../object-meta';

type Loose = Record<string, unknown>;

const objectOf = (v: unknown): Loose | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Loose) : undefined;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
const portsOf = (spec: Loose): Loose[] =>
  Array.isArray(spec.ports) ? (spec.ports as unknown[]).map((p) => objectOf(p) ?? {}) : [];
/** A value of a named Go string type (or a pointer to one): json.Marshal prints it. */
const typed = (v: unknown): NamedString => new NamedString(str(v));
const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/** api.ClusterIPNone. */
export const clusterIPNone = 'None';
/** core.MaxClientIPServiceAffinitySeconds: one day. */
const maxClientIPServiceAffinitySeconds = 86400;

// The sets of supported values, sorted as sets.List sorts them.
const supportedSessionAffinityType = ['ClientIP', 'None'];
const supportedServiceType = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const supportedServiceInternalTrafficPolicy = ['Cluster', 'Local'];
const supportedServiceIPFamily = ['IPv4', 'IPv6'];
const supportedServiceIPFamilyPolicy = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const supportedPortProtocols = ['SCTP', 'TCP', 'UDP'];
const validExternalTrafficPolicies = ['Cluster', 'Local'];
// PreferSameTrafficDistribution is GA in 1.36; upstream lists these in this order.
const supportedTrafficDistribution = ['PreferClose', 'PreferSameZone', 'PreferSameNode'];

const deprecatedAnnotationTopologyAwareHints = 'service.kubernetes.io/topology-aware-hints';
const annotationTopologyMode = 'service.kubernetes.io/topology-mode';
const annotationLoadBalancerSourceRangesKey =
  'service.beta.kubernetes.io/load-balancer-source-ranges';

/** isHeadlessService: clusterIPs is exactly ["None"]. */
export function isHeadlessService(spec: Loose): boolean {
  const ips = strings(spec.clusterIPs);
  return ips.length === 1 && ips[0] === clusterIPNone;
}

/** service.ExternallyAccessible. */
export function externallyAccessible(spec: Loose): boolean {
  return (
    spec.type === 'LoadBalancer' ||
    spec.type === 'NodePort' ||
    (spec.type === 'ClusterIP' && strings(spec.externalIPs).length > 0)
  );
}

/** service.NeedsHealthCheck: a LoadBalancer that keeps external traffic on the node. */
export function needsHealthCheck(spec: Loose): boolean {
  return spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
}

/** validation.IsValidPortNum. */
function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

/** validation.IsValidPortName (RFC 6335 service names, lower case only). */
function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(port))
    errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-')))
    errs.push('must not begin or end with a hyphen');
  return errs;
}

/** ValidatePortNumOrName: an intstr target port. */
function validatePortNumOrName(port: unknown, path: FieldPath): FieldError[] {
  if (typeof port === 'string') return isValidPortName(port).map((m) => invalid(path, port, m));
  return isValidPortNum(num(port)).map((m) => invalid(path, num(port), m));
}

/** ValidateQualifiedName. */
function validateQualifiedName(value: string, path: FieldPath): FieldError[] {
  return isLabelKey(value).map((m) => invalid(path, value, m));
}

/** IsValidIPForLegacyField with strict validation: an address, or one the old object had. */
export function isValidIPForLegacyField(
  path: FieldPath,
  value: string,
  validOldIPs: readonly string[],
): FieldError[] {
  if (validOldIPs.includes(value)) return [];
  const ip = parseIPSloppy(value);
  if (!ip)
    return [invalid(path, value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')];
  const errs: FieldError[] = [];
  if (ip.leadingZero) errs.push(invalid(path, value, 'must not have leading 0s'));
  if (is4In6(ip)) errs.push(invalid(path, value, 'must not be an IPv4-mapped IPv6 address'));
  return errs;
}

/** IsValidCIDRForLegacyField with strict validation. */
function isValidCIDRForLegacyField(
  path: FieldPath,
  value: string,
  validOldCIDRs: readonly string[],
): FieldError[] {
  if (validOldCIDRs.includes(value)) return [];
  const cidr = parseCIDRSloppy(value);
  if (!cidr)
    return [
      invalid(path, value, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'),
    ];
  if (cidr.leadingZero)
    return [invalid(path, value, 'must not have leading 0s in IP or prefix length')];
  if (is4In6(cidr.ip)) return [invalid(path, value, 'must not have an IPv4-mapped IPv6 address')];
  if (cidr.hostBits)
    return [invalid(path, value, 'must not have bits set beyond the prefix length')];
  return [];
}

/** ValidateEndpointIP: the address kinds an endpoint (or, historically, an external IP) may not be. */
function validateEndpointIP(value: string, path: FieldPath): FieldError[] {
  const ip = parseIPSloppy(value);
  if (!ip) return [invalid(path, value, 'must be a valid IP address')];
  const kind = ipKind(ip);
  const errs: FieldError[] = [];
  if (kind.unspecified) errs.push(invalid(path, value, `may not be unspecified (${value})`));
  if (kind.loopback)
    errs.push(invalid(path, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (kind.linkLocalUnicast)
    errs.push(
      invalid(path, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'),
    );
  if (kind.linkLocalMulticast)
    errs.push(
      invalid(
        path,
        value,
        'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)',
      ),
    );
  return errs;
}

/**
 * The key of the duplicate-port check, core.ServicePort{Protocol, Port}, as json.Marshal prints
 * the internal struct (no json tags: Go's field names, the zero TargetPort intstr as 0).
 */
function servicePortKey(protocol: string, port: number): Record<string, unknown> {
  return {
    Name: '',
    Protocol: protocol,
    AppProtocol: null,
    Port: port,
    TargetPort: 0,
    NodePort: 0,
  };
}

/** validateServicePort. */
function validateServicePort(
  sp: Loose,
  requireName: boolean,
  allNames: Set<string>,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(sp.name);
  if (requireName && name === '') errs.push(required(path.child('name'), ''));
  else if (name !== '') {
    for (const m of isDNS1123Label(name)) errs.push(invalid(path.child('name'), name, m));
    if (allNames.has(name)) errs.push(duplicate(path.child('name'), name));
    else allNames.add(name);
  }
  for (const m of isValidPortNum(num(sp.port)))
    errs.push(invalid(path.child('port'), num(sp.port), m));
  const protocol = str(sp.protocol);
  if (protocol === '') errs.push(required(path.child('protocol'), ''));
  else if (!supportedPortProtocols.includes(protocol))
    errs.push(notSupported(path.child('protocol'), typed(protocol), supportedPortProtocols));
  errs.push(...validatePortNumOrName(sp.targetPort, path.child('targetPort')));
  if (isSet(sp.appProtocol))
    errs.push(...validateQualifiedName(str(sp.appProtocol), path.child('appProtocol')));
  return errs;
}

/** validateClientIPAffinityConfig (defaulting always fills the config of a ClientIP Service). */
function validateClientIPAffinityConfig(config: unknown, path: FieldPath): FieldError[] {
  const why = 'when session affinity type is ClientIP';
  const cfg = objectOf(config);
  if (!cfg) return [required(path, why)];
  const clientIP = objectOf(cfg.clientIP);
  if (!clientIP) return [required(path.child('clientIP'), why)];
  const timeoutPath = path.child('clientIP').child('timeoutSeconds');
  if (!isSet(clientIP.timeoutSeconds)) return [required(timeoutPath, why)];
  const timeout = num(clientIP.timeoutSeconds);
  if (timeout <= 0 || timeout > maxClientIPServiceAffinitySeconds)
    return [
      invalid(
        timeoutPath,
        timeout,
        `must be greater than 0 and less than ${maxClientIPServiceAffinitySeconds}`,
      ),
    ];
  return [];
}

/** ValidateServiceClusterIPsRelatedFields: clusterIP(s), ipFamilies, ipFamilyPolicy. */
export function validateServiceClusterIPsRelatedFields(
  spec: Loose,
  oldSpec: Loose | undefined,
): FieldError[] {
  if (spec.type === 'ExternalName') return [];
  const errs: FieldError[] = [];
  let hasInvalidIPs = false;
  const clusterIPsField = FieldPath.of('spec', 'clusterIPs');
  const ipFamiliesField = FieldPath.of('spec', 'ipFamilies');
  const clusterIP = str(spec.clusterIP);
  const clusterIPs = strings(spec.clusterIPs);
  if (clusterIP !== '') {
    if (clusterIPs.length === 0) errs.push(required(clusterIPsField, ''));
    else if (clusterIPs[0] !== clusterIP)
      errs.push(invalid(clusterIPsField, clusterIPs, 'first value must match `clusterIP`'));
  } else if (clusterIPs.length !== 0)
    errs.push(
      invalid(clusterIPsField, clusterIPs, 'must be empty when `clusterIP` is not specified'),
    );
  const seen = new Set<string>();
  strings(spec.ipFamilies).forEach((family, i) => {
    if (!supportedServiceIPFamily.includes(family))
      errs.push(notSupported(ipFamiliesField.index(i), typed(family), supportedServiceIPFamily));
    if (seen.has(family)) errs.push(duplicate(ipFamiliesField.index(i), typed(family)));
    seen.add(family);
  });
  if (
    isSet(spec.ipFamilyPolicy) &&
    !supportedServiceIPFamilyPolicy.includes(str(spec.ipFamilyPolicy))
  )
    errs.push(
      notSupported(
        FieldPath.of('spec', 'ipFamilyPolicy'),
        typed(spec.ipFamilyPolicy),
        supportedServiceIPFamilyPolicy,
      ),
    );
  const existing = oldSpec ? strings(oldSpec.clusterIPs) : [];
  clusterIPs.forEach((ip, i) => {
    if (i === 0 && ip === clusterIPNone) {
      if (clusterIPs.length > 1) {
        hasInvalidIPs = true;
        errs.push(invalid(clusterIPsField, clusterIPs, "'None' must be the first and only value"));
      }
      return;
    }
    const ipErrs = isValidIPForLegacyField(clusterIPsField.index(i), ip, existing);
    if (ipErrs.length > 0) hasInvalidIPs = true;
    errs.push(...ipErrs);
  });
  if (clusterIPs.length > 2)
    errs.push(invalid(clusterIPsField, clusterIPs, 'may only hold up to 2 values'));
  if (hasInvalidIPs) return errs;
  if (clusterIPs.length > 1) {
    const v6 = clusterIPs.filter(isIPv6String).length;
    if (v6 === 0 || v6 === clusterIPs.length)
      errs.push(
        invalid(clusterIPsField, clusterIPs, 'may specify no more than one IP for each IP family'),
      );
  }
  const families = strings(spec.ipFamilies);
  if (!isHeadlessService(spec) && clusterIPs.length > 0 && families.length > 0)
    for (const [i, ip] of clusterIPs.entries()) {
      if (i > families.length - 1) break;
      if (families[i] === 'IPv4' && isIPv6String(ip))
        errs.push(
          invalid(
            clusterIPsField.index(i),
            ip,
            `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``,
          ),
        );
      if (families[i] === 'IPv6' && !isIPv6String(ip))
        errs.push(
          invalid(
            clusterIPsField.index(i),
            ip,
            `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``,
          ),
        );
    }
  return errs;
}

/** validateLoadBalancerClassField: a qualified name, only for LoadBalancers, fixed once set. */
function validateLoadBalancerClassField(spec: Loose, oldSpec: Loose | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const path = FieldPath.of('spec', 'loadBalancerClass');
  const isLB = spec.type === 'LoadBalancer';
  if (oldSpec && oldSpec.type === 'LoadBalancer' && isLB) {
    const same =
      isSet(oldSpec.loadBalancerClass) === isSet(spec.loadBalancerClass) &&
      str(oldSpec.loadBalancerClass) === str(spec.loadBalancerClass);
    if (!same)
      errs.push(
        invalid(
          path,
          isSet(spec.loadBalancerClass) ? typed(spec.loadBalancerClass) : null,
          'may not change once set',
        ),
      );
  }
  if (isLB) {
    if (isSet(spec.loadBalancerClass))
      errs.push(...validateQualifiedName(str(spec.loadBalancerClass), path));
  } else if (isSet(spec.loadBalancerClass))
    errs.push(forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
  return errs;
}

/** validateServiceExternalTrafficPolicy: the policy and the health check node port. */
function validateServiceExternalTrafficPolicy(spec: Loose): FieldError[] {
  const errs: FieldError[] = [];
  const policyPath = FieldPath.of('spec', 'externalTrafficPolicy');
  const policy = str(spec.externalTrafficPolicy);
  if (!externallyAccessible(spec)) {
    if (policy !== '')
      errs.push(
        invalid(policyPath, typed(policy), 'may only be set for externally-accessible services'),
      );
  } else if (policy === '') errs.push(required(policyPath, ''));
  else if (!validExternalTrafficPolicies.includes(policy))
    errs.push(notSupported(policyPath, typed(policy), validExternalTrafficPolicies));
  const hcPath = FieldPath.of('spec', 'healthCheckNodePort');
  const hc = num(spec.healthCheckNodePort);
  if (!needsHealthCheck(spec)) {
    if (hc !== 0)
      errs.push(
        invalid(
          hcPath,
          hc,
          "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
        ),
      );
  } else if (hc === 0) errs.push(required(hcPath, ''));
  else for (const m of isValidPortNum(hc)) errs.push(invalid(hcPath, hc, m));
  return errs;
}

/** validateServiceInternalTrafficFieldsValue. */
function validateServiceInternalTrafficFieldsValue(spec: Loose): FieldError[] {
  const path = FieldPath.of('spec').child('internalTrafficPolicy');
  if (!isSet(spec.internalTrafficPolicy)) {
    // Not forbidden on other types: stored objects predate the check.
    return spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP'
      ? [required(path, '')]
      : [];
  }
  const policy = str(spec.internalTrafficPolicy);
  return supportedServiceInternalTrafficPolicy.includes(policy)
    ? []
    : [notSupported(path, typed(policy), supportedServiceInternalTrafficPolicy)];
}

/** validateServiceTrafficDistribution. */
function validateServiceTrafficDistribution(spec: Loose): FieldError[] {
  if (!isSet(spec.trafficDistribution)) return [];
  const value = str(spec.trafficDistribution);
  return supportedTrafficDistribution.includes(value)
    ? []
    : [
        notSupported(
          FieldPath.of('spec').child('trafficDistribution'),
          value,
          supportedTrafficDistribution,
        ),
      ];
}

/** validateService: everything but the metadata (ValidateServiceCreate/Update check that). */
export function validateService(
  spec: Loose,
  annotations: Record<string, string> | undefined,
  oldSpec: Loose | undefined,
  oldAnnotations: Record<string, string> | undefined,
): FieldError[] {
  const errs: FieldError[] = [];
  const ann = annotations ?? {};
  if (
    Object.hasOwn(ann, annotationTopologyMode) &&
    Object.hasOwn(ann, deprecatedAnnotationTopologyAwareHints) &&
    ann[annotationTopologyMode] !== ann[deprecatedAnnotationTopologyAwareHints]
  )
    errs.push(
      invalid(
        FieldPath.of('metadata', 'annotations').key(annotationTopologyMode),
        ann[annotationTopologyMode],
        `must match annotations[${deprecatedAnnotationTopologyAwareHints}] when both are specified`,
      ),
    );
  const specPath = FieldPath.of('spec');
  const ports = portsOf(spec);
  const headless = isHeadlessService(spec);
  if (ports.length === 0 && !headless && spec.type !== 'ExternalName')
    errs.push(required(specPath.child('ports'), ''));
  const clusterIPs = strings(spec.clusterIPs);
  switch (spec.type) {
    case 'LoadBalancer':
    case 'NodePort':
      if (headless)
        errs.push(
          invalid(
            specPath.child('clusterIPs').index(0),
            clusterIPs[0],
            `may not be set to 'None' for ${String(spec.type)} services`,
          ),
        );
      break;
    case 'ExternalName': {
      if (clusterIPs.length > 0)
        errs.push(
          forbidden(specPath.child('clusterIPs'), 'may not be set for ExternalName services'),
        );
      if (strings(spec.ipFamilies).length > 0)
        errs.push(
          forbidden(specPath.child('ipFamilies'), 'may not be set for ExternalName services'),
        );
      if (isSet(spec.ipFamilyPolicy))
        errs.push(
          forbidden(specPath.child('ipFamilyPolicy'), 'may not be set for ExternalName services'),
        );
      // A CNAME may end in a dot (fully qualified).
      const cname = str(spec.externalName).replace(/\.$/, '');
      if (cname.length > 0)
        for (const m of isDNS1123Subdomain(cname))
          errs.push(invalid(specPath.child('externalName'), cname, m));
      else errs.push(required(specPath.child('externalName'), ''));
      break;
    }
  }
  const allPortNames = new Set<string>();
  ports.forEach((p, i) =>
    errs.push(
      ...validateServicePort(p, ports.length > 1, allPortNames, specPath.child('ports').index(i)),
    ),
  );
  if (isSet(spec.selector))
    errs.push(
      ...validateLabels(
        (objectOf(spec.selector) ?? {}) as Record<string, string>,
        specPath.child('selector'),
      ),
    );
  const affinity = str(spec.sessionAffinity);
  if (affinity === '') errs.push(required(specPath.child('sessionAffinity'), ''));
  else if (!supportedSessionAffinityType.includes(affinity))
    errs.push(
      notSupported(
        specPath.child('sessionAffinity'),
        typed(affinity),
        supportedSessionAffinityType,
      ),
    );
  if (affinity === 'ClientIP')
    errs.push(
      ...validateClientIPAffinityConfig(
        spec.sessionAffinityConfig,
        specPath.child('sessionAffinityConfig'),
      ),
    );
  else if (affinity === 'None' && isSet(spec.sessionAffinityConfig))
    errs.push(
      forbidden(
        specPath.child('sessionAffinityConfig'),
        'must not be set when session affinity is None',
      ),
    );
  errs.push(...validateServiceClusterIPsRelatedFields(spec, oldSpec));
  const existingExternalIPs = oldSpec ? strings(oldSpec.externalIPs) : [];
  strings(spec.externalIPs).forEach((ip, i) => {
    const path = specPath.child('externalIPs').index(i);
    const ipErrs = isValidIPForLegacyField(path, ip, existingExternalIPs);
    errs.push(...(ipErrs.length > 0 ? ipErrs : validateEndpointIP(ip, path)));
  });
  const type = str(spec.type);
  if (type === '') errs.push(required(specPath.child('type'), ''));
  else if (!supportedServiceType.includes(type))
    errs.push(notSupported(specPath.child('type'), typed(type), supportedServiceType));
  if (type === 'ClusterIP')
    ports.forEach((p, i) => {
      if (num(p.nodePort) !== 0)
        errs.push(
          forbidden(
            specPath.child('ports').index(i).child('nodePort'),
            "may not be used when `type` is 'ClusterIP'",
          ),
        );
    });
  // Duplicate node ports and ports, each by (protocol, number).
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    if (num(p.nodePort) === 0) return;
    const key = `${str(p.protocol)}/${num(p.nodePort)}`;
    if (nodePorts.has(key))
      errs.push(duplicate(specPath.child('ports').index(i).child('nodePort'), num(p.nodePort)));
    nodePorts.add(key);
  });
  const portKeys = new Set<string>();
  ports.forEach((p, i) => {
    const key = `${str(p.protocol)}/${num(p.port)}`;
    if (portKeys.has(key))
      errs.push(
        duplicate(specPath.child('ports').index(i), servicePortKey(str(p.protocol), num(p.port))),
      );
    portKeys.add(key);
  });
  errs.push(...validateSourceRanges(spec, ann, oldSpec, oldAnnotations));
  if (isSet(spec.allocateLoadBalancerNodePorts) && type !== 'LoadBalancer')
    errs.push(
      forbidden(
        specPath.child('allocateLoadBalancerNodePorts'),
        "may only be used when `type` is 'LoadBalancer'",
      ),
    );
  // Upstream's path lacks `spec` here.
  if (type === 'LoadBalancer' && !isSet(spec.allocateLoadBalancerNodePorts))
    errs.push(required(FieldPath.of('allocateLoadBalancerNodePorts'), ''));
  errs.push(...validateLoadBalancerClassField(spec, undefined));
  errs.push(...validateServiceExternalTrafficPolicy(spec));
  errs.push(...validateServiceInternalTrafficFieldsValue(spec));
  errs.push(...validateServiceTrafficDistribution(spec));
  return errs;
}

/** The loadBalancerSourceRanges field, or else its annotation (values may be space-padded). */
function validateSourceRanges(
  spec: Loose,
  ann: Record<string, string>,
  oldSpec: Loose | undefined,
  oldAnnotations: Record<string, string> | undefined,
): FieldError[] {
  const errs: FieldError[] = [];
  const ranges = strings(spec.loadBalancerSourceRanges);
  const onlyLB = "may only be used when `type` is 'LoadBalancer'";
  if (ranges.length > 0) {
    const path = FieldPath.of('spec').child('LoadBalancerSourceRanges');
    if (spec.type !== 'LoadBalancer') errs.push(forbidden(path, onlyLB));
    const existing = oldSpec ? strings(oldSpec.loadBalancerSourceRanges).map((v) => v.trim()) : [];
    ranges.forEach((v, i) =>
      errs.push(...isValidCIDRForLegacyField(path.index(i), v.trim(), existing)),
    );
  } else if (Object.hasOwn(ann, annotationLoadBalancerSourceRangesKey)) {
    const val = ann[annotationLoadBalancerSourceRangesKey];
    const path = FieldPath.of('metadata', 'annotations').key(annotationLoadBalancerSourceRangesKey);
    if (spec.type !== 'LoadBalancer') errs.push(forbidden(path, onlyLB));
    if (!oldAnnotations || oldAnnotations[annotationLoadBalancerSourceRangesKey] !== val) {
      const trimmed = val.trim();
      if (trimmed !== '')
        for (const v of trimmed.split(','))
          errs.push(...isValidCIDRForLegacyField(path, v.trim(), []));
    }
  }
  return errs;
}

/** validateUpgradeDowngradeClusterIPs: the primary clusterIP may not change once set. */
function validateUpgradeDowngradeClusterIPs(spec: Loose, oldSpec: Loose): FieldError[] {
  if (spec.type === 'ExternalName' || oldSpec.type === 'ExternalName') return [];
  if (isHeadlessService(oldSpec) && isHeadlessService(spec)) return [];
  const errs: FieldError[] = [];
  const ips = strings(spec.clusterIPs);
  const oldIPs = strings(oldSpec.clusterIPs);
  const at0 = FieldPath.of('spec', 'clusterIPs').index(0);
  if (oldIPs.length === ips.length)
    oldIPs.forEach((ip, i) => {
      if (ip !== ips[i])
        errs.push(
          invalid(FieldPath.of('spec', 'clusterIPs').index(i), ips, 'may not change once set'),
        );
    });
  else if (oldIPs.length > ips.length) {
    if (ips.length === 0) errs.push(invalid(at0, ips, 'primary clusterIP can not be unset'));
    if (oldIPs.length > 0 && ips.length > 0 && ips[0] !== oldIPs[0])
      errs.push(invalid(at0, ips, 'may not change once set'));
    if (ips.length === 1 && spec.ipFamilyPolicy !== 'SingleStack')
      errs.push(
        invalid(
          FieldPath.of('spec', 'ipFamilyPolicy'),
          isSet(spec.ipFamilyPolicy) ? typed(spec.ipFamilyPolicy) : null,
          "must be set to 'SingleStack' when releasing the secondary clusterIP",
        ),
      );
  } else if (oldIPs.length > 0 && ips[0] !== oldIPs[0])
    errs.push(invalid(at0, ips, 'may not change once set'));
  return errs;
}

/** validateUpgradeDowngradeIPFamilies: the primary family may not change once set. */
function validateUpgradeDowngradeIPFamilies(spec: Loose, oldSpec: Loose): FieldError[] {
  if (spec.type === 'ExternalName' || oldSpec.type === 'ExternalName') return [];
  const headless = isHeadlessService(spec);
  if (headless !== isHeadlessService(oldSpec) || headless) return [];
  const errs: FieldError[] = [];
  const families = strings(spec.ipFamilies);
  const oldFamilies = strings(oldSpec.ipFamilies);
  const at0 = FieldPath.of('spec', 'ipFamilies').index(0);
  if (oldFamilies.length === families.length)
    oldFamilies.forEach((f, i) => {
      if (f !== families[i]) errs.push(invalid(at0, families, 'may not change once set'));
    });
  else if (oldFamilies.length > families.length) {
    // Upstream tests clusterIPs here, and reports them as the value below.
    if (strings(spec.clusterIPs).length === 0)
      errs.push(invalid(at0, families, 'primary ipFamily can not be unset'));
    if (families.length > 0 && families[0] !== oldFamilies[0])
      errs.push(invalid(at0, strings(spec.clusterIPs), 'may not change once set'));
    if (families.length === 1 && spec.ipFamilyPolicy !== 'SingleStack')
      errs.push(
        invalid(
          FieldPath.of('spec', 'ipFamilyPolicy'),
          isSet(spec.ipFamilyPolicy) ? typed(spec.ipFamilyPolicy) : null,
          "must be set to 'SingleStack' when releasing the secondary ipFamily",
        ),
      );
  } else if (oldFamilies.length > 0 && families.length > 0 && families[0] !== oldFamilies[0])
    errs.push(invalid(at0, strings(spec.clusterIPs), 'may not change once set'));
  return errs;
}

/** ValidateServiceUpdate, after the metadata: the update rules, then validateService. */
export function validateServiceUpdate(
  spec: Loose,
  annotations: Record<string, string> | undefined,
  oldSpec: Loose,
  oldAnnotations: Record<string, string> | undefined,
): FieldError[] {
  const errs = [
    ...validateUpgradeDowngradeClusterIPs(spec, oldSpec),
    ...validateUpgradeDowngradeIPFamilies(spec, oldSpec),
    ...validateLoadBalancerClassField(spec, oldSpec),
  ];
  if (
    needsHealthCheck(oldSpec) &&
    needsHealthCheck(spec) &&
    num(spec.healthCheckNodePort) !== num(oldSpec.healthCheckNodePort)
  )
    errs.push(forbidden(FieldPath.of('spec', 'healthCheckNodePort'), 'field is immutable'));
  return [...errs, ...validateService(spec, annotations, oldSpec, oldAnnotations)];
}

const supportedLoadBalancerIPMode = ['Proxy', 'VIP'];

/** ValidateLoadBalancerStatus: status.loadBalancer of a Service (its ingress points). */
export function validateLoadBalancerStatus(
  status: Loose,
  oldStatus: Loose | undefined,
  spec: Loose,
): FieldError[] {
  const ingressOf = (s: Loose | undefined): Loose[] => {
    const ingress = objectOf(s?.loadBalancer)?.ingress;
    return Array.isArray(ingress) ? ingress.map((i) => objectOf(i) ?? {}) : [];
  };
  const ingress = ingressOf(status);
  const path = FieldPath.of('status', 'loadBalancer').child('ingress');
  if (spec.type !== 'LoadBalancer' && ingress.length !== 0)
    return [forbidden(path, "may only be used when `spec.type` is 'LoadBalancer'")];
  const errs: FieldError[] = [];
  const existing = ingressOf(oldStatus)
    .map((i) => str(i.ip))
    .filter((ip) => ip !== '');
  ingress.forEach((ing, i) => {
    const idx = path.index(i);
    const ip = str(ing.ip);
    if (ip !== '') errs.push(...isValidIPForLegacyField(idx.child('ip'), ip, existing));
    if (!isSet(ing.ipMode)) {
      if (ip !== '') errs.push(required(idx.child('ipMode'), 'must be specified when `ip` is set'));
    } else if (ip === '')
      errs.push(forbidden(idx.child('ipMode'), 'may not be specified when `ip` is not set'));
    else if (!supportedLoadBalancerIPMode.includes(str(ing.ipMode)))
      errs.push(notSupported(idx.child('ipMode'), typed(ing.ipMode), supportedLoadBalancerIPMode));
    const hostname = str(ing.hostname);
    if (hostname !== '') {
      for (const m of isDNS1123Subdomain(hostname))
        errs.push(invalid(idx.child('hostname'), hostname, m));
      if (parseIPSloppy(hostname))
        errs.push(
          invalid(idx.child('hostname'), hostname, 'must be a DNS name, not an IP address'),
        );
    }
  });
  return errs;
}
