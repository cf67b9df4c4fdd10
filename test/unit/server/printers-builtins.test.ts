// Tests for src/server/table-handlers.ts and the printers it registers (printers-workloads.ts,
// printers-core.ts, printers-platform.ts, label-selector-string.ts): upstream's TestPrint* cases
// (pkg/printers/internalversion printers_test.go: TestPrintDeployment, TestPrintDaemonSet,
// TestPrintJob, TestPrintService, TestPrintEvent, TestPrintHPA, ...) as every cell the server
// prints (wide), and every handler's rows as wide as its columns.
import * as assert from 'assert';
import { formatRFC3339 } from '../../../src/engine/storage/objects';
import { builtInTableHandlers } from '../../../src/server/table-handlers';

const now = Date.UTC(2026, 0, 1, 12, 0, 0);
const ago = (ms: number): string => formatRFC3339(now - ms);
const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;
const day = 24 * hour;
const meta = (name: string, age = 0, extra: Record<string, unknown> = {}) => ({
  name,
  creationTimestamp: ago(age),
  ...extra,
});
const template = {
  spec: {
    containers: [
      { name: 'fake-container1', image: 'fake-image1' },
      { name: 'fake-container2', image: 'fake-image2' },
    ],
  },
};

const cases: {
  name: string;
  handler: string;
  object: Record<string, unknown>;
  cells: unknown[];
}[] = [
  {
    name: 'deployment: READY ready/desired, UP-TO-DATE, AVAILABLE, wide containers and selector',
    handler: 'apps/deployments',
    object: {
      metadata: meta('test1'),
      spec: { replicas: 5, template, selector: { matchLabels: { foo: 'bar' } } },
      status: { replicas: 10, updatedReplicas: 2, availableReplicas: 1, unavailableReplicas: 4 },
    },
    cells: [
      'test1',
      '0/5',
      2,
      1,
      '0s',
      'fake-container1,fake-container2',
      'fake-image1,fake-image2',
      'foo=bar',
    ],
  },
  {
    name: 'deployment without status or selector: 0/N and an empty selector',
    handler: 'apps/deployments',
    object: { metadata: meta('web', 90 * second), spec: { replicas: 2 } },
    cells: ['web', '0/2', 0, 0, '90s', '', '', ''],
  },
  {
    name: 'replicaset: DESIRED CURRENT READY, the selector with expressions (sorted by key)',
    handler: 'apps/replicasets',
    object: {
      metadata: meta('rs', 5 * minute),
      spec: {
        replicas: 3,
        template,
        selector: {
          matchLabels: { tier: 'web' },
          matchExpressions: [
            { key: 'env', operator: 'In', values: ['prod', 'dev'] },
            { key: 'zone', operator: 'DoesNotExist' },
            { key: 'app', operator: 'Exists' },
          ],
        },
      },
      status: { replicas: 2, readyReplicas: 1 },
    },
    cells: [
      'rs',
      3,
      2,
      1,
      '5m',
      'fake-container1,fake-container2',
      'fake-image1,fake-image2',
      'app,env in (dev,prod),tier=web,!zone',
    ],
  },
  {
    name: 'replicaset with an unknown selector operator: <error>',
    handler: 'apps/replicasets',
    object: {
      metadata: meta('bad'),
      spec: { selector: { matchExpressions: [{ key: 'a', operator: 'Nope' }] } },
    },
    cells: ['bad', 0, 0, 0, '0s', '', '', '<error>'],
  },
  {
    name: 'statefulset: READY ready/desired',
    handler: 'apps/statefulsets',
    object: {
      metadata: meta('db', 3 * hour),
      spec: { replicas: 3, template },
      status: { readyReplicas: 2 },
    },
    cells: ['db', '2/3', '3h', 'fake-container1,fake-container2', 'fake-image1,fake-image2'],
  },
  {
    name: 'daemonset (TestPrintDaemonSet): the counts, NODE SELECTOR <none>',
    handler: 'apps/daemonsets',
    object: {
      metadata: meta('test1'),
      spec: { template },
      status: {
        currentNumberScheduled: 2,
        desiredNumberScheduled: 3,
        numberReady: 1,
        updatedNumberScheduled: 2,
        numberAvailable: 0,
      },
    },
    cells: [
      'test1',
      3,
      2,
      1,
      2,
      0,
      '<none>',
      '0s',
      'fake-container1,fake-container2',
      'fake-image1,fake-image2',
      '<none>',
    ],
  },
  {
    name: 'controllerrevision: CONTROLLER kind.group/name of the controller owner, REVISION',
    handler: 'apps/controllerrevisions',
    object: {
      metadata: meta('web-7d4b9c', 2 * day, {
        ownerReferences: [
          { apiVersion: 'v1', kind: 'Pod', name: 'other' },
          { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', controller: true },
        ],
      }),
      revision: 3,
    },
    cells: ['web-7d4b9c', 'statefulset.apps/web', 3, '2d'],
  },
  {
    name: 'controllerrevision without a controller: <none>',
    handler: 'apps/controllerrevisions',
    object: { metadata: meta('cr'), revision: 1 },
    cells: ['cr', '<none>', 1, '0s'],
  },
  {
    name: 'job (TestPrintJob job1): Running, succeeded/completions, no start: empty DURATION',
    handler: 'batch/jobs',
    object: {
      metadata: meta('job1'),
      spec: { completions: 2, template },
      status: { succeeded: 1 },
    },
    cells: [
      'job1',
      'Running',
      '1/2',
      '',
      '0s',
      'fake-container1,fake-container2',
      'fake-image1,fake-image2',
      '<none>',
    ],
  },
  {
    name: 'job: parallelism > 1 without completions, still running since its start',
    handler: 'batch/jobs',
    object: {
      metadata: meta('job3', 10 * minute),
      spec: {
        parallelism: 2,
        selector: { matchLabels: { 'batch.kubernetes.io/job-name': 'job3' } },
      },
      status: { startTime: ago(3 * minute + 10 * second) },
    },
    cells: [
      'job3',
      'Running',
      '0/1 of 2',
      '3m10s',
      '10m',
      '',
      '',
      'batch.kubernetes.io/job-name=job3',
    ],
  },
  {
    name: 'job: Complete, DURATION from start to completion',
    handler: 'batch/jobs',
    object: {
      metadata: meta('job4', day),
      spec: { completions: 1 },
      status: {
        succeeded: 1,
        startTime: ago(day),
        completionTime: ago(day - 20 * second),
        conditions: [{ type: 'Complete', status: 'True' }],
      },
    },
    cells: ['job4', 'Complete', '1/1', '20s', '24h', '', '', '<none>'],
  },
  {
    name: 'job: Failed, then Terminating, Suspended, FailureTarget in that order',
    handler: 'batch/jobs',
    object: {
      metadata: meta('job5', 0, { deletionTimestamp: ago(0) }),
      status: { conditions: [{ type: 'Suspended', status: 'True' }] },
    },
    cells: ['job5', 'Terminating', '0/1', '', '0s', '', '', '<none>'],
  },
  {
    name: 'cronjob: SCHEDULE, TIMEZONE <none>, SUSPEND False, ACTIVE, LAST SCHEDULE',
    handler: 'batch/cronjobs',
    object: {
      metadata: meta('cj', 5 * day),
      spec: { schedule: '*/5 * * * *', suspend: false, jobTemplate: { spec: { template } } },
      status: { active: [{ name: 'cj-1' }], lastScheduleTime: ago(4 * minute) },
    },
    cells: [
      'cj',
      '*/5 * * * *',
      '<none>',
      'False',
      1,
      '4m',
      '5d',
      'fake-container1,fake-container2',
      'fake-image1,fake-image2',
      '<none>',
    ],
  },
  {
    name: 'cronjob: unset suspend <unset>, never scheduled <none>, a time zone',
    handler: 'batch/cronjobs',
    object: { metadata: meta('cj2'), spec: { schedule: '@daily', timeZone: 'Etc/UTC' } },
    cells: ['cj2', '@daily', 'Etc/UTC', '<unset>', 0, '<none>', '0s', '', '', '<none>'],
  },
  {
    name: 'replicationcontroller: a label-map selector',
    handler: '/replicationcontrollers',
    object: {
      metadata: meta('rc'),
      spec: { replicas: 1, selector: { b: '2', a: '1' }, template },
      status: { replicas: 1, readyReplicas: 1 },
    },
    cells: [
      'rc',
      1,
      1,
      1,
      '0s',
      'fake-container1,fake-container2',
      'fake-image1,fake-image2',
      'a=1,b=2',
    ],
  },
  {
    name: 'service ClusterIP: CLUSTER-IP, EXTERNAL-IP <none>, PORT(S), SELECTOR',
    handler: '/services',
    object: {
      metadata: meta('web', 2 * minute),
      spec: {
        type: 'ClusterIP',
        clusterIP: '10.96.0.10',
        clusterIPs: ['10.96.0.10'],
        ports: [
          { port: 80, protocol: 'TCP' },
          { port: 53, protocol: 'UDP' },
        ],
        selector: { app: 'web' },
      },
    },
    cells: ['web', 'ClusterIP', '10.96.0.10', '<none>', '80/TCP,53/UDP', '2m', 'app=web'],
  },
  {
    name: 'service NodePort with external IPs',
    handler: '/services',
    object: {
      metadata: meta('np'),
      spec: {
        type: 'NodePort',
        clusterIPs: ['10.0.0.1'],
        externalIPs: ['1.2.3.4', '5.6.7.8'],
        ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }],
      },
    },
    cells: ['np', 'NodePort', '10.0.0.1', '1.2.3.4,5.6.7.8', '80:30080/TCP', '0s', '<none>'],
  },
  {
    name: 'service LoadBalancer: <pending>; ingress IPs sorted and unclipped (wide), then external IPs',
    handler: '/services',
    object: {
      metadata: meta('lb'),
      spec: { type: 'LoadBalancer', externalIPs: ['9.9.9.9'] },
      status: {
        loadBalancer: {
          ingress: [{ ip: '3.3.3.3' }, { hostname: 'a-long-host.example.com' }, { ip: '3.3.3.3' }],
        },
      },
    },
    cells: [
      'lb',
      'LoadBalancer',
      '<none>',
      '3.3.3.3,a-long-host.example.com,9.9.9.9',
      '<none>',
      '0s',
      '<none>',
    ],
  },
  {
    name: 'service ExternalName, and a service without a type: <unknown>',
    handler: '/services',
    object: {
      metadata: meta('ext'),
      spec: { type: 'ExternalName', externalName: 'db.example.com' },
    },
    cells: ['ext', 'ExternalName', '<none>', 'db.example.com', '<none>', '0s', '<none>'],
  },
  {
    name: 'service without a type',
    handler: '/services',
    object: { metadata: meta('untyped'), spec: {} },
    cells: ['untyped', '', '<none>', '<unknown>', '<none>', '0s', '<none>'],
  },
  {
    name: 'secret: TYPE, DATA counts data keys',
    handler: '/secrets',
    object: { metadata: meta('s', 400 * day), type: 'Opaque', data: { a: 'YQ==', b: 'Yg==' } },
    cells: ['s', 'Opaque', 2, '400d'],
  },
  {
    name: 'serviceaccount: SECRETS counts the references',
    handler: '/serviceaccounts',
    object: { metadata: meta('default'), secrets: [{ name: 't' }] },
    cells: ['default', 1, '0s'],
  },
  {
    name: 'event: LAST SEEN falls back to FIRST SEEN, count 0 prints 1, OBJECT kind/name',
    handler: '/events',
    object: {
      metadata: meta('ev1'),
      type: 'Normal',
      reason: 'Scheduled',
      involvedObject: { kind: 'Pod', name: 'web-1', fieldPath: 'spec.containers{web}' },
      source: { component: 'default-scheduler' },
      message: ' Successfully assigned \n',
      firstTimestamp: ago(70 * second),
    },
    cells: [
      '70s',
      'Normal',
      'Scheduled',
      'pod/web-1',
      'spec.containers{web}',
      'default-scheduler',
      'Successfully assigned',
      '70s',
      1,
      'ev1',
    ],
  },
  {
    name: 'event with a series and no first timestamp: eventTime, the series count and last time',
    handler: '/events',
    object: {
      metadata: meta('ev2'),
      type: 'Warning',
      reason: 'BackOff',
      involvedObject: { kind: 'Node' },
      eventTime: '2026-01-01T11:00:00.000000Z',
      series: { count: 7, lastObservedTime: '2026-01-01T11:59:00.000000Z' },
      reportingComponent: 'kubelet',
      reportingInstance: 'node-1',
      message: 'Back-off',
    },
    cells: [
      '60s',
      'Warning',
      'BackOff',
      'node',
      '',
      'kubelet, node-1',
      'Back-off',
      '60m',
      7,
      'ev2',
    ],
  },
  {
    name: 'events.k8s.io event: regarding, note, deprecated* fields as the core printer reads them',
    handler: 'events.k8s.io/events',
    object: {
      metadata: meta('ev3'),
      type: 'Normal',
      reason: 'Started',
      regarding: { kind: 'Pod', name: 'p' },
      note: 'Started container',
      deprecatedFirstTimestamp: ago(3 * minute),
      deprecatedLastTimestamp: ago(minute),
      deprecatedCount: 3,
      deprecatedSource: { component: 'kubelet', host: 'n1' },
    },
    cells: [
      '60s',
      'Normal',
      'Started',
      'pod/p',
      '',
      'kubelet, n1',
      'Started container',
      '3m',
      3,
      'ev3',
    ],
  },
  {
    name: 'events.k8s.io event stored through core/v1 (shared storage): read as a core Event',
    handler: 'events.k8s.io/events',
    object: {
      metadata: meta('ev4'),
      type: 'Normal',
      reason: 'Pulled',
      involvedObject: { kind: 'Pod', name: 'q' },
      message: 'pulled',
      firstTimestamp: ago(2 * minute),
      count: 2,
    },
    cells: ['2m', 'Normal', 'Pulled', 'pod/q', '', '', 'pulled', '2m', 2, 'ev4'],
  },
  {
    name: 'endpoints: up to three host:port, IPv6 in brackets, + N more...',
    handler: '/endpoints',
    object: {
      metadata: meta('web'),
      subsets: [
        {
          addresses: [{ ip: '10.0.0.1' }, { ip: 'fd00::2' }],
          ports: [{ port: 80 }, { port: 443 }],
        },
      ],
    },
    cells: ['web', '10.0.0.1:80,[fd00::2]:80,10.0.0.1:443 + 1 more...', '0s'],
  },
  {
    name: 'endpoints without subsets: <none>; headless without ports: the IPs',
    handler: '/endpoints',
    object: { metadata: meta('e2'), subsets: [{ addresses: [{ ip: '10.0.0.9' }] }] },
    cells: ['e2', '10.0.0.9', '0s'],
  },
  {
    name: 'node: Ready,SchedulingDisabled, roles sorted, wide addresses and node info',
    handler: '/nodes',
    object: {
      metadata: meta('n1', 30 * day, {
        labels: {
          'node-role.kubernetes.io/worker': '',
          'node-role.kubernetes.io/control-plane': '',
          'kubernetes.io/role': 'infra',
        },
      }),
      spec: { unschedulable: true },
      status: {
        conditions: [{ type: 'Ready', status: 'True' }],
        addresses: [
          { type: 'InternalIP', address: '192.168.0.2' },
          { type: 'Hostname', address: 'n1' },
        ],
        nodeInfo: {
          kubeletVersion: 'v1.36.0',
          osImage: 'Debian',
          containerRuntimeVersion: 'containerd://2.0',
        },
      },
    },
    cells: [
      'n1',
      'Ready,SchedulingDisabled',
      'control-plane,infra,worker',
      '30d',
      'v1.36.0',
      '192.168.0.2',
      '<none>',
      'Debian',
      '<unknown>',
      'containerd://2.0',
    ],
  },
  {
    name: 'node without conditions: Unknown, <none> roles',
    handler: '/nodes',
    object: { metadata: meta('n2'), status: { conditions: [{ type: 'Ready', status: 'False' }] } },
    cells: [
      'n2',
      'NotReady',
      '<none>',
      '0s',
      '',
      '<none>',
      '<none>',
      '<unknown>',
      '<unknown>',
      '<unknown>',
    ],
  },
  {
    name: 'pvc bound: CAPACITY and ACCESS MODES from status, the beta storage-class annotation',
    handler: '/persistentvolumeclaims',
    object: {
      metadata: meta('data', 0, {
        annotations: { 'volume.beta.kubernetes.io/storage-class': 'fast' },
      }),
      spec: { volumeName: 'pv-1', storageClassName: 'slow', volumeMode: 'Filesystem' },
      status: {
        phase: 'Bound',
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteMany', 'ReadWriteOnce'],
      },
    },
    cells: ['data', 'Bound', 'pv-1', '1Gi', 'RWO,RWX', 'fast', '<unset>', '0s', 'Filesystem'],
  },
  {
    name: 'pvc pending: empty capacity and modes',
    handler: '/persistentvolumeclaims',
    object: {
      metadata: meta('p2'),
      spec: { storageClassName: 'std' },
      status: { phase: 'Pending' },
    },
    cells: ['p2', 'Pending', '', '', '', 'std', '<unset>', '0s', '<unset>'],
  },
  {
    name: 'resourcequota: REQUEST and LIMIT as used/hard in resource order',
    handler: '/resourcequotas',
    object: {
      metadata: meta('q'),
      status: {
        hard: { pods: '10', 'limits.cpu': '2', 'requests.cpu': '1', 'limits.memory': '1Gi' },
        used: { pods: '3', 'limits.cpu': '500m' },
      },
    },
    cells: ['q', 'pods: 3/10, requests.cpu: 0/1', 'limits.cpu: 500m/2, limits.memory: 0/1Gi', '0s'],
  },
  {
    name: 'lease: HOLDER',
    handler: 'coordination.k8s.io/leases',
    object: { metadata: meta('leader', 15 * second), spec: { holderIdentity: 'node-1_abc' } },
    cells: ['leader', 'node-1_abc', '15s'],
  },
  {
    name: 'lease without a holder',
    handler: 'coordination.k8s.io/leases',
    object: { metadata: meta('free'), spec: {} },
    cells: ['free', '', '0s'],
  },
  {
    name: 'rolebinding: ROLE kind/name, wide users, groups, namespace/name service accounts',
    handler: 'rbac.authorization.k8s.io/rolebindings',
    object: {
      metadata: meta('rb'),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
      subjects: [
        { kind: 'User', name: 'alice' },
        { kind: 'User', name: 'bob' },
        { kind: 'Group', name: 'devs' },
        { kind: 'ServiceAccount', namespace: 'ns', name: 'sa' },
      ],
    },
    cells: ['rb', 'Role/reader', '0s', 'alice, bob', 'devs', 'ns/sa'],
  },
  {
    name: 'clusterrolebinding',
    handler: 'rbac.authorization.k8s.io/clusterrolebindings',
    object: { metadata: meta('crb'), roleRef: { kind: 'ClusterRole', name: 'admin' } },
    cells: ['crb', 'ClusterRole/admin', '0s', '', '', ''],
  },
  {
    name: 'poddisruptionbudget: MIN AVAILABLE (int or percent), MAX UNAVAILABLE N/A',
    handler: 'policy/poddisruptionbudgets',
    object: {
      metadata: meta('pdb'),
      spec: { minAvailable: '50%' },
      status: { disruptionsAllowed: 1 },
    },
    cells: ['pdb', '50%', 'N/A', 1, '0s'],
  },
  {
    name: 'poddisruptionbudget with maxUnavailable',
    handler: 'policy/poddisruptionbudgets',
    object: { metadata: meta('pdb2'), spec: { maxUnavailable: 1 } },
    cells: ['pdb2', 'N/A', '1', 0, '0s'],
  },
  {
    name: 'hpa: REFERENCE, TARGETS (two shown, + N more...), MINPODS, MAXPODS, REPLICAS',
    handler: 'autoscaling/horizontalpodautoscalers',
    object: {
      metadata: meta('hpa'),
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'web' },
        minReplicas: 2,
        maxReplicas: 10,
        metrics: [
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } },
          },
          { type: 'Pods', pods: { metric: { name: 'qps' }, target: { averageValue: '1k' } } },
          { type: 'Resource', resource: { name: 'memory', target: { averageValue: '100Mi' } } },
        ],
      },
      status: {
        currentReplicas: 3,
        currentMetrics: [
          { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 50 } } },
        ],
      },
    },
    cells: ['hpa', 'Deployment/web', 'cpu: 50%/80%, <unknown>/1k + 1 more...', '2', 10, 3, '0s'],
  },
  {
    name: 'hpa without metrics or minReplicas',
    handler: 'autoscaling/horizontalpodautoscalers',
    object: {
      metadata: meta('h2'),
      spec: { scaleTargetRef: { kind: 'StatefulSet', name: 'db' }, maxReplicas: 3 },
    },
    cells: ['h2', 'StatefulSet/db', '<none>', '<unset>', 3, 0, '0s'],
  },
  {
    name: 'endpointslice: ADDRESSTYPE, PORTS (number, name, *), ENDPOINTS',
    handler: 'discovery.k8s.io/endpointslices',
    object: {
      metadata: meta('web-abc'),
      addressType: 'IPv4',
      ports: [{ port: 80 }, { name: 'https' }, {}, { port: 8080 }],
      endpoints: [{ addresses: ['10.0.0.1'] }, { addresses: ['10.0.0.2', '10.0.0.3', '10.0.0.4'] }],
    },
    cells: [
      'web-abc',
      'IPv4',
      '80,https,* + 1 more...',
      '10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...',
      '0s',
    ],
  },
  {
    name: 'endpointslice without ports or endpoints: <unset>',
    handler: 'discovery.k8s.io/endpointslices',
    object: { metadata: meta('empty'), addressType: 'IPv6', ports: null, endpoints: null },
    cells: ['empty', 'IPv6', '<unset>', '<unset>', '0s'],
  },
  {
    name: 'ingress: CLASS, HOSTS (+ N more counts every rule), ADDRESS, PORTS 80, 443 with TLS',
    handler: 'networking.k8s.io/ingresses',
    object: {
      metadata: meta('ing'),
      spec: {
        ingressClassName: 'nginx',
        rules: [
          { host: 'a.example.com' },
          {},
          { host: 'b.example.com' },
          { host: 'c.example.com' },
          { host: 'd.example.com' },
        ],
        tls: [{ hosts: ['a.example.com'] }],
      },
      status: { loadBalancer: { ingress: [{ ip: '1.1.1.1' }] } },
    },
    cells: [
      'ing',
      'nginx',
      'a.example.com,b.example.com,c.example.com + 2 more...',
      '1.1.1.1',
      '80, 443',
      '0s',
    ],
  },
  {
    name: 'ingress without class or hosts: <none>, *',
    handler: 'networking.k8s.io/ingresses',
    object: { metadata: meta('ing2'), spec: {} },
    cells: ['ing2', '<none>', '*', '', '80', '0s'],
  },
  {
    name: 'networkpolicy: POD-SELECTOR, <none> for the empty selector',
    handler: 'networking.k8s.io/networkpolicies',
    object: { metadata: meta('deny-all'), spec: { podSelector: {} } },
    cells: ['deny-all', '<none>', '0s'],
  },
  {
    name: 'networkpolicy with a selector',
    handler: 'networking.k8s.io/networkpolicies',
    object: { metadata: meta('np'), spec: { podSelector: { matchLabels: { role: 'db' } } } },
    cells: ['np', 'role=db', '0s'],
  },
];

describe('built-in table printers (printers.go AddHandlers, options.Wide)', () => {
  for (const c of cases) {
    it(c.name, () => {
      const handler = builtInTableHandlers.get(c.handler);
      assert.ok(handler, `no handler for ${c.handler}`);
      const rows = handler.print(c.object, now);
      assert.strictEqual(rows.length, 1);
      assert.deepStrictEqual(rows[0].cells, c.cells);
      assert.strictEqual(rows[0].object, c.object);
      assert.strictEqual(rows[0].cells.length, handler.columnDefinitions.length);
    });
  }
});

describe('the handler table', () => {
  it('every handler prints a row as wide as its columns, even from an empty object', () => {
    for (const [key, handler] of builtInTableHandlers) {
      const [row] = handler.print({}, now);
      assert.strictEqual(row.cells.length, handler.columnDefinitions.length, key);
    }
  });
  it('roles, clusterroles and limitranges have no printer (the default table, as upstream)', () => {
    for (const key of [
      'rbac.authorization.k8s.io/roles',
      'rbac.authorization.k8s.io/clusterroles',
      '/limitranges',
    ])
      assert.strictEqual(builtInTableHandlers.get(key), undefined, key);
  });
  it("each printer's column names, in kubectl's upper case, are upstream's", () => {
    const heads = (key: string) =>
      builtInTableHandlers
        .get(key)
        ?.columnDefinitions.filter((c) => c.priority === 0)
        .map((c) => c.name.toUpperCase())
        .join(' ');
    assert.strictEqual(heads('apps/deployments'), 'NAME READY UP-TO-DATE AVAILABLE AGE');
    assert.strictEqual(heads('/services'), 'NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE');
    assert.strictEqual(heads('/secrets'), 'NAME TYPE DATA AGE');
    assert.strictEqual(heads('batch/jobs'), 'NAME STATUS COMPLETIONS DURATION AGE');
    assert.strictEqual(heads('coordination.k8s.io/leases'), 'NAME HOLDER AGE');
    assert.strictEqual(heads('/events'), 'LAST SEEN TYPE REASON OBJECT MESSAGE');
    assert.strictEqual(
      heads('batch/cronjobs'),
      'NAME SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE',
    );
  });
});
