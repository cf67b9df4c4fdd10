// Tests for registry/service-validation.ts and the Service strategy through a live ApiServer: a
// table of requests with the status and the exact Status message kube-apiserver 1.36 answers
// (pkg/apis/core/validation/validation.go ValidateServiceCreate/Update, pkg/registry/core/service/
// storage/alloc.go, whose allocation runs before validation, and strategy.go's type changes).
import * as assert from 'assert';
import { ApiServer } from '../../../../src/server/api-server';
import { call } from '../http-client';
import { valueAtPath } from '../../../harness/value-at-path';

type Loose = Record<string, unknown>;

const services = '/api/v1/namespaces/default/services';
const merge = 'application/merge-patch+json';

/** A field value that must be a node port of 30000-32767 (the allocator's choice). */
const aNodePort = Symbol('a node port');

interface Step {
  method: 'POST' | 'PATCH';
  /** The Service's name: POST creates it, PATCH patches it. */
  name: string;
  /** PATCH the `/status` subresource. */
  status_?: true;
  body: Loose;
  status: number;
  /** The Status message of a refusal. */
  message?: string;
  /** Fields of the answer at dotted paths (undefined: absent). */
  fields?: Record<string, unknown>;
}

const svc = (name: string, spec: Loose, metadata: Loose = {}): Loose => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, ...metadata },
  spec,
});

/** One create: a Service of `spec`, refused with `message` (201 when it is empty). */
function create(name: string, spec: Loose, message = '', fields?: Record<string, unknown>): Step {
  return message === ''
    ? { method: 'POST', name, body: svc(name, spec), status: 201, fields }
    : {
        method: 'POST',
        name,
        body: svc(name, spec),
        status: 422,
        message: `Service "${name}" is invalid: ${message}`,
      };
}

const port80 = [{ port: 80 }];
const rfc1123Subdomain =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

const cases: Array<{ name: string; steps: Step[] }> = [
  // Valid Services of each type keep today's defaults.
  {
    name: 'valid: ClusterIP, NodePort, LoadBalancer, ExternalName, headless',
    steps: [
      create('ok-cip', { selector: { app: 'a' }, ports: [{ name: 'http', port: 80 }] }, '', {
        'spec.type': 'ClusterIP',
        'spec.sessionAffinity': 'None',
        'spec.internalTrafficPolicy': 'Cluster',
        'spec.ipFamilies': ['IPv4'],
        'spec.ipFamilyPolicy': 'SingleStack',
        'spec.ports.0.protocol': 'TCP',
        'spec.ports.0.targetPort': 80,
        'spec.externalTrafficPolicy': undefined,
      }),
      create('ok-np', { type: 'NodePort', ports: [{ port: 80, targetPort: 'http' }] }, '', {
        'spec.externalTrafficPolicy': 'Cluster',
        'spec.ports.0.nodePort': aNodePort,
        'spec.ports.0.targetPort': 'http',
      }),
      create('ok-lb', { type: 'LoadBalancer', ports: port80 }, '', {
        'spec.allocateLoadBalancerNodePorts': true,
        'spec.externalTrafficPolicy': 'Cluster',
        'spec.ports.0.nodePort': aNodePort,
        'spec.healthCheckNodePort': undefined,
      }),
      create(
        'ok-lb-local',
        { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: port80 },
        '',
        { 'spec.healthCheckNodePort': aNodePort },
      ),
      create('ok-ext', { type: 'ExternalName', externalName: 'example.com.' }, '', {
        'spec.clusterIP': undefined,
        'spec.ipFamilies': undefined,
        'spec.ipFamilyPolicy': undefined,
        'spec.internalTrafficPolicy': undefined,
      }),
      create('ok-headless', { clusterIP: 'None', selector: { app: 'a' } }, '', {
        'spec.clusterIPs': ['None'],
        'spec.ipFamilyPolicy': 'SingleStack',
        'spec.ipFamilies': ['IPv4'],
      }),
      create('ok-headless-noselector', { clusterIP: 'None' }, '', {
        'spec.ipFamilyPolicy': 'RequireDualStack',
        'spec.ipFamilies': ['IPv4', 'IPv6'],
      }),
      create('ok-affinity', { sessionAffinity: 'ClientIP', ports: port80 }, '', {
        'spec.sessionAffinityConfig': { clientIP: { timeoutSeconds: 10800 } },
      }),
      create('ok-udp-tcp', {
        ports: [
          { name: 'dns', port: 53, protocol: 'UDP' },
          { name: 'dns-tcp', port: 53, protocol: 'TCP' },
        ],
      }),
      create('ok-external-ips', { externalIPs: ['192.0.2.10'], ports: port80 }, '', {
        'spec.externalTrafficPolicy': 'Cluster',
      }),
      create('ok-lb-ranges', {
        type: 'LoadBalancer',
        loadBalancerSourceRanges: [' 10.0.0.0/8 '],
        ports: port80,
      }),
      create('ok-traffic', { trafficDistribution: 'PreferSameNode', ports: port80 }),
      // RelaxedServiceNameValidation is beta and on in 1.36: a name is an RFC 1123 label.
      create('1abc', { ports: port80 }),
    ],
  },
  {
    name: 'type',
    steps: [
      create(
        'bad-type',
        { type: 'Bogus', ports: port80 },
        'spec.type: Unsupported value: "Bogus": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
      ),
      create(
        'cip-nodeport',
        { ports: [{ port: 80, nodePort: 30001 }] },
        "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
      ),
      create(
        'lb-none',
        { type: 'LoadBalancer', clusterIP: 'None', selector: { app: 'a' }, ports: port80 },
        'spec.clusterIPs[0]: Invalid value: "None": may not be set to \'None\' for LoadBalancer services',
      ),
      create(
        'np-none',
        { type: 'NodePort', clusterIP: 'None', selector: { app: 'a' }, ports: port80 },
        'spec.clusterIPs[0]: Invalid value: "None": may not be set to \'None\' for NodePort services',
      ),
    ],
  },
  {
    name: 'ExternalName',
    steps: [
      create(
        'ext-ip',
        { type: 'ExternalName', externalName: 'example.com', clusterIP: '10.96.0.50' },
        'spec.clusterIPs: Forbidden: may not be set for ExternalName services',
      ),
      create(
        'ext-policy',
        { type: 'ExternalName', externalName: 'example.com', ipFamilyPolicy: 'SingleStack' },
        'spec.ipFamilyPolicy: Forbidden: may not be set for ExternalName services',
      ),
      create(
        'ext-families',
        { type: 'ExternalName', externalName: 'example.com', ipFamilies: ['IPv4'] },
        'spec.ipFamilies: Forbidden: may not be set for ExternalName services',
      ),
      create(
        'ext-name',
        { type: 'ExternalName', externalName: 'Bad_Name' },
        `spec.externalName: Invalid value: "Bad_Name": ${rfc1123Subdomain}`,
      ),
      create('ext-none', { type: 'ExternalName' }, 'spec.externalName: Required value'),
    ],
  },
  {
    name: 'ports',
    steps: [
      create(
        'target-70000',
        { ports: [{ port: 80, targetPort: 70000 }] },
        'spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      ),
      create(
        'port-0',
        { ports: [{ name: 'a' }] },
        '[spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive, spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive]',
      ),
      create(
        'target-name',
        { ports: [{ port: 80, targetPort: 'http_x' }] },
        'spec.ports[0].targetPort: Invalid value: "http_x": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      ),
      create(
        'target-123',
        { ports: [{ port: 80, targetPort: '-very-long-port-name' }] },
        '[spec.ports[0].targetPort: Invalid value: "-very-long-port-name": must be no more than 15 characters, spec.ports[0].targetPort: Invalid value: "-very-long-port-name": must not begin or end with a hyphen]',
      ),
      create(
        'dup-port',
        {
          ports: [
            { name: 'a', port: 80 },
            { name: 'b', port: 80, targetPort: 8080, appProtocol: 'http' },
          ],
        },
        'spec.ports[1]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}',
      ),
      create(
        'dup-name',
        {
          ports: [
            { name: 'a', port: 80 },
            { name: 'a', port: 81 },
          ],
        },
        'spec.ports[1].name: Duplicate value: "a"',
      ),
      create(
        'no-name',
        { ports: [{ name: 'a', port: 80 }, { port: 81 }] },
        'spec.ports[1].name: Required value',
      ),
      create(
        'bad-protocol',
        { ports: [{ port: 80, protocol: 'ICMP' }] },
        'spec.ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
      ),
      create(
        'dup-nodeport',
        {
          type: 'NodePort',
          ports: [
            { name: 'a', port: 80, nodePort: 30001 },
            { name: 'b', port: 80, nodePort: 30001 },
          ],
        },
        '[spec.ports[1].nodePort: Duplicate value: 30001, spec.ports[1]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}]',
      ),
    ],
  },
  {
    name: 'sessionAffinity',
    steps: [
      create(
        'bad-affinity',
        { sessionAffinity: 'Bogus', ports: port80 },
        'spec.sessionAffinity: Unsupported value: "Bogus": supported values: "ClientIP", "None"',
      ),
      create(
        'bad-timeout',
        {
          sessionAffinity: 'ClientIP',
          sessionAffinityConfig: { clientIP: { timeoutSeconds: 0 } },
          ports: port80,
        },
        'spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 0: must be greater than 0 and less than 86400',
      ),
    ],
  },
  {
    name: 'traffic policies',
    steps: [
      create(
        'etp-cip',
        { externalTrafficPolicy: 'Local', ports: port80 },
        'spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services',
      ),
      create(
        'etp-bogus',
        { type: 'NodePort', externalTrafficPolicy: 'Bogus', ports: port80 },
        'spec.externalTrafficPolicy: Unsupported value: "Bogus": supported values: "Cluster", "Local"',
      ),
      create(
        'hc-cip',
        { healthCheckNodePort: 30500, ports: port80 },
        "spec.healthCheckNodePort: Invalid value: 30500: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
      ),
      create(
        'itp-bogus',
        { internalTrafficPolicy: 'Bogus', ports: port80 },
        'spec.internalTrafficPolicy: Unsupported value: "Bogus": supported values: "Cluster", "Local"',
      ),
      create(
        'td-bogus',
        { trafficDistribution: 'Bogus', ports: port80 },
        'spec.trafficDistribution: Unsupported value: "Bogus": supported values: "PreferClose", "PreferSameZone", "PreferSameNode"',
      ),
    ],
  },
  {
    name: 'LoadBalancer fields',
    steps: [
      create(
        'ranges-cip',
        { loadBalancerSourceRanges: ['10.0.0.0/8'], ports: port80 },
        "spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'",
      ),
      create(
        'ranges-bad',
        {
          type: 'LoadBalancer',
          loadBalancerSourceRanges: ['10.0.0.0/33', '10.0.0.1/8'],
          ports: port80,
        },
        '[spec.LoadBalancerSourceRanges[0]: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64), spec.LoadBalancerSourceRanges[1]: Invalid value: "10.0.0.1/8": must not have bits set beyond the prefix length]',
      ),
      create(
        'alloc-cip',
        { allocateLoadBalancerNodePorts: false, ports: port80 },
        "spec.allocateLoadBalancerNodePorts: Forbidden: may only be used when `type` is 'LoadBalancer'",
      ),
      create(
        'class-cip',
        { loadBalancerClass: 'example.com/lb', ports: port80 },
        "spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'",
      ),
      {
        method: 'POST',
        name: 'hc-80',
        body: svc('hc-80', {
          type: 'LoadBalancer',
          externalTrafficPolicy: 'Local',
          healthCheckNodePort: 80,
          ports: port80,
        }),
        status: 500,
        message:
          'Internal error occurred: failed to allocate requested HealthCheck NodePort 80: provided port is not in the valid range. The range of valid ports is 30000-32767',
      },
    ],
  },
  {
    name: 'clusterIPs, ipFamilies, ipFamilyPolicy (checked while allocating, before validation)',
    steps: [
      create(
        'bad-ip',
        { clusterIP: 'abc', sessionAffinity: 'Bogus', ports: port80 },
        'spec.clusterIPs[0]: Invalid value: "abc": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      ),
      create(
        'zero-ip',
        { clusterIP: '010.96.0.10', ports: port80 },
        'spec.clusterIPs[0]: Invalid value: "010.96.0.10": must not have leading 0s',
      ),
      create(
        'ips-mismatch',
        { clusterIP: '10.96.0.20', clusterIPs: ['10.96.0.21'], ports: port80 },
        'spec.clusterIPs: Invalid value: ["10.96.0.21"]: first value must match `clusterIP`',
      ),
      create(
        'ips-two-v4',
        {
          clusterIP: '10.96.0.22',
          clusterIPs: ['10.96.0.22', '10.96.0.23'],
          ipFamilyPolicy: 'PreferDualStack',
          ports: port80,
        },
        'spec.clusterIPs: Invalid value: ["10.96.0.22","10.96.0.23"]: may specify no more than one IP for each IP family',
      ),
      create(
        'v6-ip',
        { clusterIP: 'fd00::10', ports: port80 },
        'spec.clusterIPs[0]: Invalid value: ["fd00::10"]: IPv6 is not configured on this cluster',
      ),
      create(
        'bad-policy',
        { ipFamilyPolicy: 'Bogus', ports: port80 },
        'spec.ipFamilyPolicy: Unsupported value: "Bogus": supported values: "PreferDualStack", "RequireDualStack", "SingleStack"',
      ),
      create(
        'bad-family',
        { ipFamilies: ['IPv5'], ports: port80 },
        'spec.ipFamilies[0]: Unsupported value: "IPv5": supported values: "IPv4", "IPv6"',
      ),
      create(
        'v6-family',
        { ipFamilies: ['IPv6'], ports: port80 },
        'spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster',
      ),
      create(
        'require-dual',
        { ipFamilyPolicy: 'RequireDualStack', selector: { app: 'a' }, ports: port80 },
        'spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
      ),
      create(
        'single-two',
        { ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4', 'IPv6'], ports: port80 },
        "spec.ipFamilyPolicy: Invalid value: \"SingleStack\": must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified",
      ),
    ],
  },
  {
    name: 'externalIPs',
    steps: [
      create(
        'ext-ips',
        { externalIPs: ['abc', '127.0.0.1', '0.0.0.0'], ports: port80 },
        '[spec.externalIPs[0]: Invalid value: "abc": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff), spec.externalIPs[1]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128), spec.externalIPs[2]: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)]',
      ),
    ],
  },
  {
    name: 'the errors of one Service joined in the order upstream appends them',
    steps: [
      create(
        'many',
        {
          type: 'NodePort',
          sessionAffinity: 'Bogus',
          externalTrafficPolicy: 'Bogus',
          ports: [{ name: 'A', port: 80, targetPort: 70000 }],
        },
        '[spec.ports[0].name: Invalid value: "A": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\'), spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive, spec.sessionAffinity: Unsupported value: "Bogus": supported values: "ClientIP", "None", spec.externalTrafficPolicy: Unsupported value: "Bogus": supported values: "Cluster", "Local"]',
      ),
    ],
  },
  {
    name: 'updates: type changes wipe what the old type allocated',
    steps: [
      create('to-cip', { type: 'NodePort', ports: port80 }),
      {
        method: 'PATCH',
        name: 'to-cip',
        body: { spec: { type: 'ClusterIP' } },
        status: 200,
        fields: { 'spec.ports.0.nodePort': undefined, 'spec.externalTrafficPolicy': undefined },
      },
      create('to-ext', { ports: port80 }),
      {
        method: 'PATCH',
        name: 'to-ext',
        body: { spec: { type: 'ExternalName', externalName: 'example.com' } },
        status: 200,
        fields: {
          'spec.clusterIP': undefined,
          'spec.clusterIPs': undefined,
          'spec.ipFamilies': undefined,
          'spec.ipFamilyPolicy': undefined,
        },
      },
      create('from-ext', { type: 'ExternalName', externalName: 'example.com' }),
      {
        method: 'PATCH',
        name: 'from-ext',
        body: { spec: { type: 'ClusterIP', externalName: null, ports: port80 } },
        status: 200,
        fields: {
          'spec.ipFamilies': ['IPv4'],
          'spec.ipFamilyPolicy': 'SingleStack',
          'spec.internalTrafficPolicy': 'Cluster',
        },
      },
      create(
        'dual-pref',
        { clusterIP: '10.96.0.30', ipFamilyPolicy: 'PreferDualStack', ports: port80 },
        '',
        {
          'spec.ipFamilies': ['IPv4'],
        },
      ),
      {
        method: 'PATCH',
        name: 'dual-pref',
        body: { spec: { ipFamilies: ['IPv6'] } },
        status: 422,
        message:
          'Service "dual-pref" is invalid: spec.clusterIPs[0]: Invalid value: "10.96.0.30": expected an IPv6 value as indicated by `ipFamilies[0]`',
      },
      create('to-lb', { ports: port80 }),
      {
        method: 'PATCH',
        name: 'to-lb',
        body: { spec: { type: 'LoadBalancer' } },
        status: 200,
        fields: { 'spec.ports.0.nodePort': aNodePort, 'spec.allocateLoadBalancerNodePorts': true },
      },
      {
        method: 'PATCH',
        name: 'to-lb',
        body: { spec: { type: 'ClusterIP', ports: [{ port: 80, nodePort: 30999 }] } },
        status: 422,
        message:
          'Service "to-lb" is invalid: spec.ports[0].nodePort: Forbidden: may not be used when `type` is \'ClusterIP\'',
      },
    ],
  },
  {
    name: 'updates: immutable fields',
    steps: [
      create('lb-class', {
        type: 'LoadBalancer',
        loadBalancerClass: 'example.com/a',
        ports: port80,
      }),
      {
        method: 'PATCH',
        name: 'lb-class',
        body: { spec: { loadBalancerClass: 'example.com/b' } },
        status: 422,
        message:
          'Service "lb-class" is invalid: spec.loadBalancerClass: Invalid value: "example.com/b": may not change once set',
      },
      create('hc-fixed', {
        type: 'LoadBalancer',
        externalTrafficPolicy: 'Local',
        healthCheckNodePort: 32100,
        ports: port80,
      }),
      {
        method: 'PATCH',
        name: 'hc-fixed',
        body: { spec: { healthCheckNodePort: 32101 } },
        status: 422,
        message:
          'Service "hc-fixed" is invalid: spec.healthCheckNodePort: Forbidden: field is immutable',
      },
      {
        method: 'PATCH',
        name: 'hc-fixed',
        body: { spec: { externalTrafficPolicy: 'Cluster' } },
        status: 200,
        fields: { 'spec.healthCheckNodePort': undefined },
      },
    ],
  },
  {
    name: 'status: the load balancer (ValidateServiceStatusUpdate)',
    steps: [
      create('st-cip', { ports: port80 }),
      {
        method: 'PATCH',
        name: 'st-cip',
        status_: true,
        body: { status: { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } } },
        status: 422,
        message:
          'Service "st-cip" is invalid: status.loadBalancer.ingress: Forbidden: may only be used when `spec.type` is \'LoadBalancer\'',
      },
      create('st-lb', { type: 'LoadBalancer', ports: port80 }),
      {
        method: 'PATCH',
        name: 'st-lb',
        status_: true,
        body: { status: { loadBalancer: { ingress: [{ ip: 'abc' }] } } },
        status: 422,
        message:
          'Service "st-lb" is invalid: status.loadBalancer.ingress[0].ip: Invalid value: "abc": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      },
      {
        method: 'PATCH',
        name: 'st-lb',
        status_: true,
        body: { status: { loadBalancer: { ingress: [{ hostname: '192.0.2.1', ipMode: 'VIP' }] } } },
        status: 422,
        message:
          'Service "st-lb" is invalid: [status.loadBalancer.ingress[0].ipMode: Forbidden: may not be specified when `ip` is not set, status.loadBalancer.ingress[0].hostname: Invalid value: "192.0.2.1": must be a DNS name, not an IP address]',
      },
      {
        method: 'PATCH',
        name: 'st-lb',
        status_: true,
        body: { status: { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } } },
        status: 200,
        fields: { 'status.loadBalancer.ingress': [{ ip: '192.0.2.1', ipMode: 'VIP' }] },
      },
    ],
  },
];

describe('server/registry Service validation over HTTP', () => {
  let server: ApiServer;
  before(async () => {
    server = await ApiServer.start({ port: 0 });
  });
  after(async () => {
    await server.stop();
  });

  for (const c of cases)
    it(c.name, async () => {
      for (const [i, s] of c.steps.entries()) {
        const r =
          s.method === 'POST'
            ? await call(server, 'POST', services, s.body)
            : await call(
                server,
                'PATCH',
                `${services}/${s.name}${s.status_ ? '/status' : ''}`,
                s.body,
                merge,
              );
        const where = `step ${i}: ${s.method} ${s.name}`;
        assert.strictEqual(r.status, s.status, `${where}: ${r.text}`);
        if (s.message !== undefined) assert.strictEqual(r.json.message, s.message, where);
        for (const [field, want] of Object.entries(s.fields ?? {})) {
          const got = valueAtPath(r.json, field);
          if (want === aNodePort)
            assert.ok(
              typeof got === 'number' && got >= 30000 && got <= 32767,
              `${where}: ${field}: ${String(got)}`,
            );
          else assert.deepStrictEqual(got, want, `${where}: ${field}`);
        }
      }
    });
});
