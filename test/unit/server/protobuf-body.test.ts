// protobuf-body.ts: (a) the bodies kubectl 1.35's typed commands send (test/fixtures/protobuf, see
// its README) decode to the JSON `--dry-run=client -o json` prints, byte for byte; (b) objects
// encoded by protobufjs Types built from the field table decode back to themselves; (c) malformed
// bodies answer the 400 Status the decode step writes (transformDecodeError over gogo's error).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { protobufBodyToObject } from '../../../src/server/protobuf-body';
import { decodeBody, type ExpectedKind } from '../../../src/server/json-body';
import { StatusError } from '../../../src/engine/storage/errors';
import { bool, bytes, envelope, str, varint } from './protobuf-wire';
import { encodeBody } from './protobuf-types';
import { Writer } from 'protobufjs/minimal';

const fixtures = path.join('test', 'fixtures', 'protobuf');
const noDefault = { group: '', version: '', kind: '' };

/** The captured kubectl 1.35 commands (`kubectl <args>`; files `<name>.bin` and `<name>.json`). */
const kubectlCases: { name: string; args: string }[] = [
  {
    name: 'clusterrole',
    args: 'create clusterrole reader --verb=get,list,watch --resource=pods,deployments.apps --resource-name=a --resource-name=b',
  },
  {
    name: 'clusterrole-aggregation',
    args: 'create clusterrole monitoring --aggregation-rule=rbac.example.com/aggregate-to-monitoring=true',
  },
  {
    name: 'clusterrole-nonresource',
    args: 'create clusterrole metrics --verb=get --non-resource-url=/logs/*',
  },
  {
    name: 'clusterrolebinding',
    args: 'create clusterrolebinding admins --clusterrole=cluster-admin --user=alice --group=devs --serviceaccount=kube-system:default',
  },
  {
    name: 'configmap',
    args: 'create configmap cfg --from-literal=a=b --from-literal=c=d --from-file=bin=<4 bytes 00 01 fe ff>',
  },
  {
    name: 'cronjob',
    args: "create cronjob nightly2 --image=busybox --schedule='*/5 * * * *' --restart=Never -- sh -c 'date; echo'",
  },
  {
    name: 'deployment',
    args: 'create deployment web --image=nginx --image=redis --replicas=3 --port=8080',
  },
  {
    name: 'ingress',
    args: 'create ingress simple --class=default --rule=foo.com/bar=svc1:8080,tls=my-cert --rule=bar.com/*=svc2:http --default-backend=defaultsvc:http --annotation=a=b',
  },
  { name: 'job', args: 'create job once --image=busybox -- echo hi' },
  { name: 'namespace', args: 'create namespace team-a' },
  {
    name: 'poddisruptionbudget',
    args: 'create poddisruptionbudget pdb --selector=app=web --min-available=50%',
  },
  {
    name: 'poddisruptionbudget-int',
    args: 'create poddisruptionbudget pdb2 --selector=app=web --max-unavailable=1',
  },
  {
    name: 'priorityclass',
    args: 'create priorityclass high --value=1000 --global-default=false --description=high --preemption-policy=Never',
  },
  {
    name: 'quota',
    args: 'create quota q --hard=cpu=1,memory=1Gi,pods=10,services.loadbalancers=2 --scopes=BestEffort,NotTerminating',
  },
  {
    name: 'role',
    args: 'create role pod-reader --verb=get --verb=list --resource=pods --resource=pods/status',
  },
  {
    name: 'rolebinding',
    args: 'create rolebinding rb --role=pod-reader --user=bob --serviceaccount=default:builder',
  },
  { name: 'rolebinding-clusterrole', args: 'create rolebinding rb2 --clusterrole=view --group=qa' },
  {
    name: 'secret-generic',
    args: 'create secret generic s1 --from-literal=user=admin --from-literal=pass=s3cr3t --type=Opaque',
  },
  {
    name: 'secret-docker-registry',
    args: 'create secret docker-registry regcred --docker-server=r.example.com --docker-username=u --docker-password=p --docker-email=u@example.com',
  },
  { name: 'secret-tls', args: 'create secret tls tls1 --cert=tls.crt --key=tls.key (EC P-256)' },
  { name: 'service-clusterip', args: 'create service clusterip api --tcp=80:8080 --tcp=443:8443' },
  {
    name: 'service-clusterip-headless',
    args: 'create service clusterip headless --clusterip=None',
  },
  {
    name: 'service-externalname',
    args: 'create service externalname ext --external-name=example.com --tcp=80',
  },
  { name: 'service-loadbalancer', args: 'create service loadbalancer lb --tcp=80:8080' },
  { name: 'service-nodeport', args: 'create service nodeport np --tcp=80:8080 --node-port=30080' },
  { name: 'serviceaccount', args: 'create serviceaccount builder' },
  {
    name: 'token',
    args: 'create token builder --audience=api --audience=vault --duration=1h --bound-object-kind=Pod --bound-object-name=p1 --bound-object-uid=0b3c4d5e-0000-4000-8000-000000000001',
  },
  { name: 'can-i', args: 'auth can-i create deployments.apps --subresource=scale -n shop' },
  { name: 'can-i-list', args: 'auth can-i --list -n shop' },
];

const read = (name: string, ext: string): Buffer =>
  fs.readFileSync(path.join(fixtures, name + ext));

describe('protobufBodyToObject', () => {
  describe('kubectl 1.35 typed commands: the JSON their client dry run prints', () => {
    for (const c of kubectlCases)
      it(`kubectl ${c.args}`, () => {
        const decoded = protobufBodyToObject(read(c.name, '.bin'), noDefault);
        // encoding/json's order and omissions too: the text kubectl prints, indented as it does.
        assert.strictEqual(
          JSON.stringify(decoded, null, 4) + '\n',
          read(c.name, '.json').toString(),
        );
      });
  });

  // Objects as encoding/json writes them, so that decoding their protobuf gives them back.
  const t0 = '2026-12-07T10:00:00Z';
  const richPod = {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: {
      name: 'web-0',
      namespace: 'shop',
      uid: 'u-1',
      resourceVersion: '42',
      generation: 3,
      creationTimestamp: t0,
      deletionTimestamp: '2026-12-07T10:05:00Z',
      deletionGracePeriodSeconds: 0,
      labels: { app: 'web', tier: 'front' },
      annotations: { note: 'x' },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          name: 'web',
          uid: 'u-0',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
      finalizers: ['example.com/hold'],
      managedFields: [
        {
          manager: 'kubectl',
          operation: 'Update',
          apiVersion: 'v1',
          time: t0,
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:metadata': { 'f:labels': {} } },
        },
      ],
    },
    spec: {
      volumes: [
        { name: 'data', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } },
        {
          name: 'cfg',
          configMap: {
            name: 'cfg',
            items: [{ key: 'a', path: 'a.txt', mode: 420 }],
            defaultMode: 256,
            optional: false,
          },
        },
        {
          name: 'tok',
          projected: {
            sources: [
              { serviceAccountToken: { audience: 'api', expirationSeconds: 600, path: 'token' } },
            ],
          },
        },
      ],
      initContainers: [{ name: 'init', image: 'busybox', command: ['true'], resources: {} }],
      containers: [
        {
          name: 'app',
          image: 'nginx:1.27',
          args: ['-g', 'daemon off;'],
          ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }],
          env: [
            { name: 'A', value: '1' },
            {
              name: 'POD',
              valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } },
            },
            {
              name: 'MEM',
              valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } },
            },
          ],
          resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '250m' } },
          livenessProbe: {
            httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' },
            initialDelaySeconds: 5,
            periodSeconds: 10,
          },
          readinessProbe: { tcpSocket: { port: 80 } },
          lifecycle: { preStop: { exec: { command: ['sleep', '5'] } } },
          imagePullPolicy: 'IfNotPresent',
          // SecurityContext's fields in Go order, as encoding/json writes them.
          securityContext: {
            capabilities: { drop: ['ALL'] },
            runAsUser: 1000,
            runAsNonRoot: true,
            allowPrivilegeEscalation: false,
          },
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      serviceAccountName: 'builder',
      securityContext: { supplementalGroups: [1, 2, 3], fsGroup: 2000 },
      affinity: {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 100,
              podAffinityTerm: {
                labelSelector: {
                  matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }],
                },
                topologyKey: 'kubernetes.io/hostname',
              },
            },
          ],
        },
      },
      tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 30 }],
      priority: 0,
    },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: t0 }],
      startTime: t0,
    },
  };
  const lease = {
    kind: 'Lease',
    apiVersion: 'coordination.k8s.io/v1',
    metadata: { name: 'leader', namespace: 'kube-system' },
    spec: {
      holderIdentity: 'a',
      leaseDurationSeconds: 15,
      acquireTime: '2026-12-07T10:00:00.123456Z',
      renewTime: '2026-12-07T10:00:10.000001Z',
      leaseTransitions: 2,
    },
  };
  const revision = {
    kind: 'ControllerRevision',
    apiVersion: 'apps/v1',
    metadata: { name: 'web-1' },
    data: { spec: { template: { metadata: { labels: { a: 'b' } } } } },
    revision: 1,
  };
  const pdbStatus = {
    kind: 'PodDisruptionBudget',
    apiVersion: 'policy/v1',
    metadata: {},
    spec: { maxUnavailable: '10%' },
    status: {
      disruptedPods: { 'web-0': t0 },
      disruptionsAllowed: 1,
      currentHealthy: 2,
      desiredHealthy: 1,
      expectedPods: 3,
    },
  };
  const statefulSet = {
    kind: 'StatefulSet',
    apiVersion: 'apps/v1',
    metadata: { name: 'db' },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'db' } },
      template: {
        metadata: { labels: { app: 'db' } },
        spec: { containers: [{ name: 'db', image: 'postgres', resources: {} }] },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } },
          status: {},
        },
      ],
      serviceName: 'db',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1 } },
    },
    status: { replicas: 0, availableReplicas: 0 },
  };
  const hpa = {
    kind: 'HorizontalPodAutoscaler',
    apiVersion: 'autoscaling/v2',
    metadata: { name: 'web' },
    spec: {
      scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
      minReplicas: 1,
      maxReplicas: 10,
      metrics: [
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } },
        },
        {
          type: 'Pods',
          pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '1k' } },
        },
      ],
    },
    status: { desiredReplicas: 0, currentMetrics: null },
  };
  const endpointSlice = {
    kind: 'EndpointSlice',
    apiVersion: 'discovery.k8s.io/v1',
    metadata: { name: 'web-abc', labels: { 'kubernetes.io/service-name': 'web' } },
    addressType: 'IPv4',
    endpoints: [{ addresses: ['10.0.0.1'], conditions: { ready: true }, nodeName: 'n1' }],
    ports: [{ name: 'http', protocol: 'TCP', port: 80 }],
  };
  const roundTrips: { name: string; object: Record<string, unknown>; packed?: boolean }[] = [
    ...kubectlCases.map((c) => ({
      name: c.name,
      object: JSON.parse(read(c.name, '.json').toString()) as Record<string, unknown>,
    })),
    {
      name: 'a Pod through the PodSpec tree (inline VolumeSource and ProbeHandler, Quantity, IntOrString, FieldsV1)',
      object: richPod,
    },
    { name: 'the same Pod with repeated integers packed', object: richPod, packed: true },
    { name: 'a Lease (MicroTime)', object: lease },
    { name: 'a ControllerRevision (RawExtension)', object: revision },
    {
      name: 'a StatefulSet (volumeClaimTemplates, IntOrString maxUnavailable)',
      object: statefulSet,
    },
    { name: 'a HorizontalPodAutoscaler v2 (metric targets with Quantity pointers)', object: hpa },
    {
      name: 'an EndpointSlice (discovery.k8s.io EndpointPort beside core’s)',
      object: endpointSlice,
    },
    { name: 'a PodDisruptionBudget status (map of Time, IntOrString percent)', object: pdbStatus },
  ];

  describe('round trips through protobufjs Types built from the table', () => {
    for (const c of roundTrips)
      it(c.name, () => {
        const decoded = protobufBodyToObject(encodeBody(c.object, c.packed), noDefault);
        assert.strictEqual(JSON.stringify(decoded), JSON.stringify(c.object));
      });
  });

  it('a Time at 0001-01-01T00:00:00Z is Go’s zero time: null', () => {
    const zero = [...Writer.create().uint32(8).int64(-62135596800).finish()];
    const body = envelope('v1', 'ConfigMap', bytes(1, [...str(1, 'cfg'), ...bytes(9, zero)]));
    assert.deepStrictEqual(protobufBodyToObject(body, noDefault), {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'cfg', deletionTimestamp: null },
    });
  });

  it('a body without TypeMeta takes the kind of the endpoint (copyKindDefaults)', () => {
    const body = Uint8Array.from([0x6b, 0x38, 0x73, 0x00, ...bytes(2, bytes(1, str(1, 'cfg')))]);
    assert.deepStrictEqual(
      protobufBodyToObject(body, { group: '', version: 'v1', kind: 'ConfigMap' }),
      {
        kind: 'ConfigMap',
        apiVersion: 'v1',
        metadata: { name: 'cfg' },
      },
    );
  });
});

describe('decodeBody: a malformed protobuf body is the decode step’s 400', () => {
  const configMap: ExpectedKind = {
    group: '',
    version: 'v1',
    kind: 'ConfigMap',
    unstructured: false,
  };
  const deployment: ExpectedKind = {
    group: 'apps',
    version: 'v1',
    kind: 'Deployment',
    unstructured: false,
  };
  const meta = (...f: number[][]) => bytes(1, f.flat());
  const cases: { name: string; expected?: ExpectedKind; body: Uint8Array; message: string }[] = [
    {
      name: 'no k8s prefix',
      body: new TextEncoder().encode('{"kind":"ConfigMap"}'),
      message:
        'the object provided is unrecognized (must be of type ConfigMap): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"kind":"ConfigMap"})',
    },
    {
      name: 'empty',
      body: new Uint8Array(),
      message:
        'the object provided is unrecognized (must be of type ConfigMap): empty data (<empty>)',
    },
    {
      name: 'the prefix alone',
      body: Uint8Array.from([0x6b, 0x38, 0x73, 0x00]),
      message:
        'the object provided is unrecognized (must be of type ConfigMap): empty body (6b387300)',
    },
    {
      name: 'the envelope cut short',
      body: envelope('v1', 'ConfigMap', str(1, 'x')).subarray(0, 9),
      message:
        'the object provided is unrecognized (must be of type ConfigMap): unexpected EOF (6b3873000a0f0a0276)',
    },
    {
      name: 'an unknown field in the envelope',
      body: Uint8Array.from([0x6b, 0x38, 0x73, 0x00, ...str(9, 'x')]),
      message:
        'the object provided is unrecognized (must be of type ConfigMap): proto: Unknown: unknown field 9 (wire type 2) (6b3873004a0178)',
    },
    {
      name: 'the object cut short',
      body: envelope('v1', 'ConfigMap', meta(str(1, 'cfg')).slice(0, -1)),
      message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: unexpected EOF',
    },
    {
      name: 'an unknown field of ConfigMap',
      body: envelope('v1', 'ConfigMap', [...meta(str(1, 'cfg')), ...str(99, 'x')]),
      message:
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: ConfigMap: unknown field 99 (wire type 2)',
    },
    {
      name: 'an unknown field of ObjectMeta',
      body: envelope('v1', 'ConfigMap', meta(str(1, 'cfg'), bool(40, true))),
      message:
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: ObjectMeta: unknown field 40 (wire type 0)',
    },
    {
      name: 'an unknown field deep in a PodSpec',
      expected: deployment,
      // spec(2) > template(3) > spec(2) > containers(2) > field 77
      body: envelope(
        'apps/v1',
        'Deployment',
        bytes(2, bytes(3, bytes(2, bytes(2, [...str(1, 'c'), ...str(77, 'x')])))),
      ),
      message:
        'Deployment in version "v1" cannot be handled as a Deployment: proto: Container: unknown field 77 (wire type 2)',
    },
    {
      name: 'an unknown field in a map entry',
      body: envelope('v1', 'ConfigMap', bytes(2, [...str(1, 'k'), ...str(2, 'v'), ...str(3, 'x')])),
      message:
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: ConfigMap.data: unknown field 3 (wire type 2)',
    },
    {
      name: 'a string field sent as a varint',
      body: envelope('v1', 'ConfigMap', meta([...varint(1 << 3), 5])),
      message:
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: wrong wireType = 0 for field Name',
    },
    {
      name: 'a bool field sent length-delimited (Go field name in the message)',
      body: envelope('v1', 'ConfigMap', [...meta(str(1, 'cfg')), ...str(4, 'x')]),
      message:
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: wrong wireType = 2 for field Immutable',
    },
    {
      name: 'uid sent as a fixed32',
      body: envelope('v1', 'ConfigMap', meta([...varint((5 << 3) | 5), 1, 2, 3, 4])),
      message:
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: wrong wireType = 5 for field UID',
    },
    {
      name: 'an end-group tag',
      body: envelope('v1', 'ConfigMap', [...varint((2 << 3) | 4)]),
      message:
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: ConfigMap: wiretype end group for non-group',
    },
    {
      name: 'field number 0',
      body: envelope('v1', 'ConfigMap', [...varint(2), 0]),
      message:
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: ConfigMap: illegal tag 0 (wire type 2)',
    },
    {
      name: 'a varint longer than 64 bits',
      body: envelope('v1', 'ConfigMap', [...meta([...varint(7 << 3), ...Array(10).fill(0xff), 1])]),
      message:
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: integer overflow',
    },
    {
      name: 'a creationTimestamp past year 9999',
      body: envelope(
        'v1',
        'ConfigMap',
        meta(bytes(8, [...Writer.create().uint32(8).int64(1e12).finish()])),
      ),
      message:
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: Timestamp: seconds 1000000000000 is outside years 0001 to 9999',
    },
    {
      name: 'a RawExtension whose raw is not JSON',
      expected: { group: 'apps', version: 'v1', kind: 'ControllerRevision', unstructured: false },
      body: envelope('apps/v1', 'ControllerRevision', bytes(2, bytes(1, [0x6b, 0x38, 0x73, 0x00]))),
      message:
        'ControllerRevision in version "v1" cannot be handled as a ControllerRevision: proto: RawExtension: raw is not JSON: Unexpected token \'k\', "k8s\u0000" is not valid JSON',
    },
    {
      name: 'a Quantity ParseQuantity refuses',
      expected: { group: '', version: 'v1', kind: 'ResourceQuota', unstructured: false },
      // spec(2) > hard(1) { cpu: Quantity{string: lots} }
      body: envelope(
        'v1',
        'ResourceQuota',
        bytes(2, bytes(1, [...str(1, 'cpu'), ...bytes(2, str(1, 'lots'))])),
      ),
      message:
        'ResourceQuota in version "v1" cannot be handled as a ResourceQuota: quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'',
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      assert.throws(
        () =>
          decodeBody(c.body, c.expected ?? configMap, {
            contentType: 'application/vnd.kubernetes.protobuf',
          }),
        (e: unknown) => {
          assert.ok(e instanceof StatusError, String(e));
          assert.deepStrictEqual(
            [e.status.code, e.status.reason, e.status.message],
            [400, 'BadRequest', c.message],
          );
          return true;
        },
      );
    });

  it('a built-in kind the table does not cover answers the 415', () => {
    assert.throws(
      () =>
        decodeBody(
          envelope('apiextensions.k8s.io/v1', 'CustomResourceDefinition', []),
          {
            group: 'apiextensions.k8s.io',
            version: 'v1',
            kind: 'CustomResourceDefinition',
            unstructured: false,
          },
          {
            contentType: 'application/vnd.kubernetes.protobuf',
          },
        ),
      (e: unknown) => e instanceof StatusError && e.status.code === 415,
    );
  });
});
