// Tests for the per-kind strategies and the v1 defaults (issue #25) through a live ApiServer:
// each case is a few requests, with the status, the Status message and the stored fields
// kube-apiserver 1.36 answers (pkg/registry/<group>/<kind>/strategy.go, pkg/apis/<group>/v1/
// defaults.go, pkg/apis/<group>/validation/validation.go).
import * as assert from 'assert';
import { ApiServer } from '../../../../src/server/api-server';
import { call } from '../http-client';
import { valueAtPath } from '../../../harness/value-at-path';

type Loose = Record<string, unknown>;

interface Step {
  method: 'POST' | 'PUT' | 'PATCH' | 'GET';
  path: string;
  body?: unknown;
  contentType?: string;
  status: number;
  /** The Status message of a refusal. */
  message?: string;
  /** Fields of the answer at dotted paths, with their values (undefined: absent). */
  fields?: Record<string, unknown>;
}

const core = '/api/v1/namespaces/default';
const apps = '/apis/apps/v1/namespaces/default';
const batch = '/apis/batch/v1/namespaces/default';
const merge = 'application/merge-patch+json';

const deployment = (name: string, labels: Loose = { app: name }, extra: Loose = {}): Loose => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } },
    ...extra,
  },
});

const cases: Array<{ name: string; steps: Step[] }> = [
  {
    name: 'Secret: type Opaque, stringData merged into data and dropped',
    steps: [
      {
        method: 'POST',
        path: `${core}/secrets`,
        body: {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 's1' },
          data: { a: 'eA==' },
          stringData: { a: 'y', b: 'zz' },
        },
        status: 201,
        fields: {
          type: 'Opaque',
          'data.a': 'eQ==',
          'data.b': 'eno=',
          stringData: undefined,
          'metadata.generation': undefined,
        },
      },
    ],
  },
  {
    name: 'Secret: the type is immutable',
    steps: [
      {
        method: 'POST',
        path: `${core}/secrets`,
        body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's2' } },
        status: 201,
      },
      {
        method: 'PATCH',
        path: `${core}/secrets/s2`,
        contentType: merge,
        body: { type: 'kubernetes.io/basic-auth', data: { username: 'dQ==' } },
        status: 422,
        message:
          'Secret "s2" is invalid: type: Invalid value: "kubernetes.io/basic-auth": field is immutable',
      },
    ],
  },
  {
    name: 'Secret: immutable: true keeps its data',
    steps: [
      {
        method: 'POST',
        path: `${core}/secrets`,
        body: {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 's3' },
          immutable: true,
          data: { a: 'eA==' },
        },
        status: 201,
      },
      {
        method: 'PATCH',
        path: `${core}/secrets/s3`,
        contentType: merge,
        body: { data: { a: 'eQ==' } },
        status: 422,
        message:
          'Secret "s3" is invalid: data: Forbidden: field is immutable when `immutable` is set',
      },
    ],
  },
  {
    name: 'Secret: keys are config keys; a TLS secret needs its two keys',
    steps: [
      {
        method: 'POST',
        path: `${core}/secrets`,
        body: {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 's4' },
          type: 'kubernetes.io/tls',
          data: { 'a b': 'eA==' },
        },
        status: 422,
        message:
          "Secret \"s4\" is invalid: [data[a b]: Invalid value: \"a b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+'), data[tls.crt]: Required value, data[tls.key]: Required value]",
      },
    ],
  },
  {
    name: 'Service: defaults, a clusterIP of 10.96.0.0/12, no generation',
    steps: [
      {
        method: 'POST',
        path: `${core}/services`,
        body: {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'web' },
          spec: { selector: { app: 'web' }, ports: [{ port: 80 }] },
        },
        status: 201,
        fields: {
          'spec.type': 'ClusterIP',
          'spec.sessionAffinity': 'None',
          'spec.internalTrafficPolicy': 'Cluster',
          'spec.ipFamilies': ['IPv4'],
          'spec.ipFamilyPolicy': 'SingleStack',
          'spec.ports.0.protocol': 'TCP',
          'spec.ports.0.targetPort': 80,
          'metadata.generation': undefined,
        },
      },
    ],
  },
  {
    name: 'Service: clusterIP may not change; a PUT without it keeps it',
    steps: [
      {
        method: 'POST',
        path: `${core}/services`,
        body: {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'fixed' },
          spec: { clusterIP: '10.100.0.7', ports: [{ port: 80 }] },
        },
        status: 201,
        fields: { 'spec.clusterIPs': ['10.100.0.7'] },
      },
      {
        method: 'PUT',
        path: `${core}/services/fixed`,
        body: {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'fixed' },
          spec: { ports: [{ port: 81 }] },
        },
        status: 200,
        fields: { 'spec.clusterIP': '10.100.0.7', 'spec.ports.0.port': 81 },
      },
      {
        method: 'PATCH',
        path: `${core}/services/fixed`,
        contentType: merge,
        body: { spec: { clusterIP: '10.100.0.8' } },
        status: 422,
        message:
          'Service "fixed" is invalid: spec.clusterIPs[0]: Invalid value: ["10.100.0.8"]: may not change once set',
      },
    ],
  },
  {
    name: 'Service: an address outside the range or taken is refused',
    steps: [
      {
        method: 'POST',
        path: `${core}/services`,
        body: {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'out' },
          spec: { clusterIP: '1.2.3.4', ports: [{ port: 80 }] },
        },
        status: 422,
        message:
          'Service "out" is invalid: spec.clusterIPs: Invalid value: ["1.2.3.4"]: failed to allocate IP 1.2.3.4: the provided IP (1.2.3.4) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
      },
      {
        method: 'POST',
        path: `${core}/services`,
        body: {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'taken' },
          spec: { clusterIP: '10.100.0.7', ports: [{ port: 80 }] },
        },
        status: 422,
        message:
          'Service "taken" is invalid: spec.clusterIPs: Invalid value: ["10.100.0.7"]: failed to allocate IP 10.100.0.7: provided IP is already allocated',
      },
    ],
  },
  {
    name: 'Service: NodePort gets a node port of 30000-32767 and externalTrafficPolicy Cluster',
    steps: [
      {
        method: 'POST',
        path: `${core}/services`,
        body: {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'np' },
          spec: { type: 'NodePort', ports: [{ port: 80 }] },
        },
        status: 201,
        fields: { 'spec.externalTrafficPolicy': 'Cluster' },
      },
    ],
  },
  {
    name: 'Service: ports are required for a ClusterIP Service',
    steps: [
      {
        method: 'POST',
        path: `${core}/services`,
        body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'noports' }, spec: {} },
        status: 422,
        message: 'Service "noports" is invalid: spec.ports: Required value',
      },
    ],
  },
  {
    name: 'Deployment: defaults and generation 1; +1 on a spec change, not on a label change',
    steps: [
      {
        method: 'POST',
        path: `${apps}/deployments`,
        body: deployment('d1'),
        status: 201,
        fields: {
          'metadata.generation': 1,
          'spec.replicas': 1,
          'spec.revisionHistoryLimit': 10,
          'spec.progressDeadlineSeconds': 600,
          'spec.strategy': {
            type: 'RollingUpdate',
            rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
          },
          'spec.template.spec.restartPolicy': 'Always',
          'spec.template.spec.dnsPolicy': 'ClusterFirst',
          'spec.template.spec.schedulerName': 'default-scheduler',
          'spec.template.spec.terminationGracePeriodSeconds': 30,
          'spec.template.spec.containers.0.imagePullPolicy': 'IfNotPresent',
          status: {},
        },
      },
      {
        method: 'PATCH',
        path: `${apps}/deployments/d1`,
        contentType: merge,
        body: { metadata: { labels: { x: 'y' } } },
        status: 200,
        fields: { 'metadata.generation': 1 },
      },
      {
        method: 'PATCH',
        path: `${apps}/deployments/d1`,
        contentType: merge,
        body: { spec: { replicas: 3 } },
        status: 200,
        fields: { 'metadata.generation': 2 },
      },
      // Annotations are copied to the ReplicaSets, so they count as a change of the desired state.
      {
        method: 'PATCH',
        path: `${apps}/deployments/d1`,
        contentType: merge,
        body: { metadata: { annotations: { a: 'b' } } },
        status: 200,
        fields: { 'metadata.generation': 3 },
      },
    ],
  },
  {
    name: 'Deployment: the selector must match the template; it is immutable',
    steps: [
      {
        method: 'POST',
        path: `${apps}/deployments`,
        body: deployment('d2', { app: 'other' }),
        status: 422,
        message:
          'Deployment.apps "d2" is invalid: spec.template.metadata.labels: Invalid value: {"app":"other"}: `selector` does not match template `labels`',
      },
      {
        method: 'POST',
        path: `${apps}/deployments`,
        body: {
          ...deployment('d3'),
          spec: {
            template: {
              metadata: { labels: { app: 'd3' } },
              spec: { containers: [{ name: 'c', image: 'x' }] },
            },
          },
        },
        status: 422,
        message:
          'Deployment.apps "d3" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: {"app":"d3"}: `selector` does not match template `labels`]',
      },
      { method: 'POST', path: `${apps}/deployments`, body: deployment('d4'), status: 201 },
      {
        method: 'PATCH',
        path: `${apps}/deployments/d4`,
        contentType: merge,
        body: {
          spec: {
            selector: { matchLabels: { app: 'd4', x: 'y' } },
            template: { metadata: { labels: { x: 'y' } } },
          },
        },
        status: 422,
        message:
          'Deployment.apps "d4" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"d4","x":"y"}}: field is immutable',
      },
    ],
  },
  {
    name: 'StatefulSet and DaemonSet: their defaults; a DaemonSet carries its template generation',
    steps: [
      {
        method: 'POST',
        path: `${apps}/statefulsets`,
        body: { ...deployment('ss'), kind: 'StatefulSet' },
        status: 201,
        fields: {
          'metadata.generation': 1,
          'spec.podManagementPolicy': 'OrderedReady',
          'spec.updateStrategy': { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
          'spec.persistentVolumeClaimRetentionPolicy': {
            whenDeleted: 'Retain',
            whenScaled: 'Retain',
          },
          'spec.revisionHistoryLimit': 10,
        },
      },
      {
        method: 'POST',
        path: `${apps}/daemonsets`,
        body: { ...deployment('ds'), kind: 'DaemonSet' },
        status: 201,
        fields: {
          'metadata.generation': 1,
          'metadata.annotations': { 'deprecated.daemonset.template.generation': '1' },
          'spec.updateStrategy': {
            type: 'RollingUpdate',
            rollingUpdate: { maxUnavailable: 1, maxSurge: 0 },
          },
        },
      },
    ],
  },
  {
    name: 'Job: defaults and the generated controller-uid selector; restartPolicy Always is refused',
    steps: [
      {
        method: 'POST',
        path: `${batch}/jobs`,
        body: {
          apiVersion: 'batch/v1',
          kind: 'Job',
          metadata: { name: 'j1' },
          spec: {
            template: {
              spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] },
            },
          },
        },
        status: 201,
        fields: {
          'metadata.generation': 1,
          'spec.completions': 1,
          'spec.parallelism': 1,
          'spec.backoffLimit': 6,
          'spec.completionMode': 'NonIndexed',
          'spec.suspend': false,
          'spec.podReplacementPolicy': 'TerminatingOrFailed',
          'spec.template.metadata.labels.job-name': 'j1',
          'spec.template.metadata.labels.batch\\.kubernetes\\.io/job-name': 'j1',
        },
      },
      {
        method: 'POST',
        path: `${batch}/jobs`,
        body: {
          apiVersion: 'batch/v1',
          kind: 'Job',
          metadata: { name: 'j2' },
          spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
        },
        status: 422,
        message:
          'Job.batch "j2" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"',
      },
    ],
  },
  {
    name: 'PodDisruptionBudget (no file of its own): generation 1, +1 on a spec change',
    steps: [
      {
        method: 'POST',
        path: '/apis/policy/v1/namespaces/default/poddisruptionbudgets',
        body: {
          apiVersion: 'policy/v1',
          kind: 'PodDisruptionBudget',
          metadata: { name: 'pdb' },
          spec: { minAvailable: 1 },
        },
        status: 201,
        fields: { 'metadata.generation': 1 },
      },
      {
        method: 'PATCH',
        path: '/apis/policy/v1/namespaces/default/poddisruptionbudgets/pdb',
        contentType: merge,
        body: { spec: { minAvailable: 2 } },
        status: 200,
        fields: { 'metadata.generation': 2 },
      },
    ],
  },
  {
    // What kube-apiserver stores for `kubectl run web --image=nginx` but for admission's fields
    // (ServiceAccount: serviceAccountName, the token volume; Priority; DefaultTolerationSeconds).
    name: 'Pod: SetDefaults_Pod and SetDefaults_PodSpec, status Pending with its qosClass',
    steps: [
      {
        method: 'POST',
        path: `${core}/pods`,
        body: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'run', labels: { run: 'run' } },
          spec: { containers: [{ name: 'run', image: 'nginx', resources: {} }] },
        },
        status: 201,
        fields: {
          'spec.enableServiceLinks': true,
          'spec.dnsPolicy': 'ClusterFirst',
          'spec.restartPolicy': 'Always',
          'spec.schedulerName': 'default-scheduler',
          'spec.securityContext': {},
          'spec.terminationGracePeriodSeconds': 30,
          'spec.containers.0.imagePullPolicy': 'Always',
          'spec.containers.0.terminationMessagePath': '/dev/termination-log',
          'spec.containers.0.terminationMessagePolicy': 'File',
          'spec.containers.0.resources': {},
          'status.phase': 'Pending',
          'status.qosClass': 'BestEffort',
        },
      },
    ],
  },
  {
    name: 'Pod: requests default to limits (containers and init containers): Guaranteed',
    steps: [
      {
        method: 'POST',
        path: `${core}/pods`,
        body: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'limits' },
          spec: {
            enableServiceLinks: false,
            initContainers: [
              { name: 'i', image: 'busybox:1', resources: { limits: { cpu: '1', memory: '1Gi' } } },
            ],
            containers: [
              {
                name: 'c',
                image: 'nginx:1.27',
                resources: { limits: { cpu: '500m', memory: '64Mi' }, requests: { cpu: '0.5' } },
              },
            ],
          },
        },
        status: 201,
        fields: {
          'spec.enableServiceLinks': false,
          'spec.initContainers.0.resources.requests': { cpu: '1', memory: '1Gi' },
          'spec.containers.0.resources.requests': { cpu: '0.5', memory: '64Mi' },
          'spec.containers.0.imagePullPolicy': 'IfNotPresent',
          'status.qosClass': 'Guaranteed',
        },
      },
    ],
  },
  {
    name: 'Pod: requests without limits are Burstable; host networking defaults hostPort',
    steps: [
      {
        method: 'POST',
        path: `${core}/pods`,
        body: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'burst' },
          spec: {
            hostNetwork: true,
            containers: [
              {
                name: 'c',
                image: 'nginx:1.27',
                ports: [{ containerPort: 8080 }],
                resources: { requests: { memory: '10Mi' } },
              },
            ],
          },
        },
        status: 201,
        fields: {
          'spec.containers.0.ports.0.hostPort': 8080,
          'spec.containers.0.ports.0.protocol': 'TCP',
          'status.qosClass': 'Burstable',
        },
      },
    ],
  },
  {
    name: 'CronJob: the schedule is parsed (cron.ParseStandard) and may not name a TZ',
    steps: [
      ['bad', '61 * * * *', 'end of range (61) above maximum (59): 61'],
      [
        'tz',
        'CRON_TZ=UTC * * * * *',
        'cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
      ],
    ].map(([name, schedule, message]): Step => ({
      method: 'POST',
      path: `${batch}/cronjobs`,
      body: {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        metadata: { name },
        spec: {
          schedule,
          jobTemplate: {
            spec: {
              template: {
                spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox:1' }] },
              },
            },
          },
        },
      },
      status: 422,
      message: `CronJob.batch "${name}" is invalid: spec.schedule: Invalid value: "${schedule}": ${message}`,
    })),
  },
  {
    name: 'CronJob: spec.timeZone is an IANA name time.LoadLocation knows (validateTimeZone)',
    steps: [
      ['berlin', 'Europe/Berlin', ''],
      ['empty', '', 'timeZone must be nil or non-empty string'],
      [
        'local',
        'Local',
        'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
      ],
      ['mars', 'Mars/Olympus', 'unknown time zone Mars/Olympus'],
      ['dotdot', '../etc/passwd', 'unknown time zone ../etc/passwd'],
      ['digits', 'Europe/Berlin123456789', 'unknown time zone Europe/Berlin123456789'],
      ['lower', 'europe/berlin', 'unknown time zone europe/berlin'],
      [
        'lowerlocal',
        'local',
        'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
        'unknown time zone local',
      ],
    ].map(([name, timeZone, ...messages]): Step => ({
      method: 'POST',
      path: `${batch}/cronjobs`,
      body: {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        metadata: { name },
        spec: {
          schedule: '* * * * *',
          timeZone,
          jobTemplate: {
            spec: {
              template: {
                spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox:1' }] },
              },
            },
          },
        },
      },
      ...(messages[0] === ''
        ? { status: 201, fields: { 'spec.timeZone': timeZone } }
        : {
            status: 422,
            message: `CronJob.batch "${name}" is invalid: ${
              messages.length === 1
                ? `spec.timeZone: Invalid value: "${timeZone}": ${messages[0]}`
                : `[${messages.map((m) => `spec.timeZone: Invalid value: "${timeZone}": ${m}`).join(', ')}]`
            }`,
          }),
    })),
  },
  {
    name: 'status of a kind without /status: 404',
    steps: [
      {
        method: 'PUT',
        path: `${core}/secrets/s1/status`,
        body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' } },
        status: 404,
        message: 'the server could not find the requested resource',
      },
    ],
  },
];

describe('server/registry kind strategies over HTTP', () => {
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
        const r = await call(server, s.method, s.path, s.body, s.contentType);
        const where = `step ${i}: ${s.method} ${s.path}`;
        assert.strictEqual(r.status, s.status, `${where}: ${r.text}`);
        if (s.message !== undefined) assert.strictEqual(r.json.message, s.message, where);
        for (const [field, want] of Object.entries(s.fields ?? {}))
          assert.deepStrictEqual(valueAtPath(r.json, field), want, `${where}: ${field}`);
      }
    });

  it('the Service addresses are in 10.96.0.0/12 and node ports in 30000-32767', async () => {
    const svc = (await call(server, 'GET', `${core}/services/web`)).json;
    assert.match(
      String(valueAtPath(svc, 'spec.clusterIP')),
      /^10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+$/,
    );
    assert.deepStrictEqual(valueAtPath(svc, 'spec.clusterIPs'), [
      valueAtPath(svc, 'spec.clusterIP'),
    ]);
    const np = Number(
      valueAtPath((await call(server, 'GET', `${core}/services/np`)).json, 'spec.ports.0.nodePort'),
    );
    assert.ok(np >= 30000 && np <= 32767, String(np));
  });
});
