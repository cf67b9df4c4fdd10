// Tests for src/server/printers.ts: upstream's TestPrintPod table (pkg/printers/internalversion
// printers_test.go, the first five cells: GenerateOptions{} there, the server prints wide), the
// wide cells, and the namespace and configmap printers.
import * as assert from 'assert';
import { formatRFC3339 } from '../../../src/engine/storage/objects';
import {
  podColumnDefinitions,
  printConfigMap,
  printNamespace,
  printPod,
} from '../../../src/server/printers';

const now = Date.UTC(2026, 0, 1, 12, 0, 0);
const ago = (ms: number): string => formatRFC3339(now - ms);
const running = { running: {} };
const containers = (n: number): Record<string, unknown>[] =>
  Array.from({ length: n }, () => ({ name: '' }));
const lastTerminated = (ms: number) => ({ terminated: { finishedAt: ago(ms) } });
const day = 24 * 3600_000;

const podSuccessConditions = [
  {
    type: 'Completed',
    status: 'True',
    reason: 'Succeeded',
    message: 'The pod has completed successfully.',
  },
];
const podFailedConditions = [
  { type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' },
];

const printPodCases: {
  name: string;
  pod: Record<string, unknown>;
  cells: unknown[];
  conditions?: unknown;
}[] = [
  {
    name: 'name, num of containers, restarts, container ready status',
    pod: {
      metadata: { name: 'test1' },
      spec: { containers: containers(2) },
      status: {
        phase: 'podPhase',
        containerStatuses: [{ ready: true, restartCount: 3, state: running }, { restartCount: 3 }],
      },
    },
    cells: ['test1', '1/2', 'podPhase', '6', '<unknown>'],
  },
  {
    name: 'container error overwrites pod phase',
    pod: {
      metadata: { name: 'test2' },
      spec: { containers: containers(2) },
      status: {
        phase: 'podPhase',
        containerStatuses: [
          { ready: true, restartCount: 3, state: running },
          { state: { waiting: { reason: 'ContainerWaitingReason' } }, restartCount: 3 },
        ],
      },
    },
    cells: ['test2', '1/2', 'ContainerWaitingReason', '6', '<unknown>'],
  },
  {
    name: 'terminated state; the first container overwrites the rest',
    pod: {
      metadata: { name: 'test3' },
      spec: { containers: containers(2) },
      status: {
        phase: 'podPhase',
        containerStatuses: [
          { state: { waiting: { reason: 'ContainerWaitingReason' } }, restartCount: 3 },
          { state: { terminated: { reason: 'ContainerTerminatedReason' } }, restartCount: 3 },
        ],
      },
    },
    cells: ['test3', '0/2', 'ContainerWaitingReason', '6', '<unknown>'],
  },
  {
    name: 'ready is not enough for reporting running',
    pod: {
      metadata: { name: 'test4' },
      spec: { containers: containers(2) },
      status: {
        phase: 'podPhase',
        containerStatuses: [
          { ready: true, restartCount: 3, state: running },
          { ready: true, restartCount: 3 },
        ],
      },
    },
    cells: ['test4', '1/2', 'podPhase', '6', '<unknown>'],
  },
  {
    name: 'pod reason over phase',
    pod: {
      metadata: { name: 'test5' },
      spec: { containers: containers(2) },
      status: {
        reason: 'podReason',
        phase: 'podPhase',
        containerStatuses: [
          { ready: true, restartCount: 3, state: running },
          { ready: true, restartCount: 3 },
        ],
      },
    },
    cells: ['test5', '1/2', 'podReason', '6', '<unknown>'],
  },
  {
    name: 'one running, one completed, without the Ready condition',
    pod: {
      metadata: { name: 'test6' },
      spec: { containers: containers(2) },
      status: {
        phase: 'Running',
        containerStatuses: [
          {
            ready: true,
            restartCount: 3,
            state: { terminated: { reason: 'Completed', exitCode: 0 } },
          },
          { ready: true, restartCount: 3, state: running },
        ],
      },
    },
    cells: ['test6', '1/2', 'NotReady', '6', '<unknown>'],
  },
  {
    name: 'one running, one completed, with the Ready condition',
    pod: {
      metadata: { name: 'test6' },
      spec: { containers: containers(2) },
      status: {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'True' }],
        containerStatuses: [
          {
            ready: true,
            restartCount: 3,
            state: { terminated: { reason: 'Completed', exitCode: 0 } },
          },
          { ready: true, restartCount: 3, state: running },
        ],
      },
    },
    cells: ['test6', '1/2', 'Running', '6', '<unknown>'],
  },
  {
    name: '1 init container restarting and 1 container not running',
    pod: {
      metadata: { name: 'test7' },
      spec: { initContainers: containers(1), containers: containers(1) },
      status: {
        phase: 'podPhase',
        initContainerStatuses: [
          { ready: false, restartCount: 3, state: running, lastState: lastTerminated(10_000) },
        ],
        containerStatuses: [{ ready: false, restartCount: 0, state: { waiting: {} } }],
      },
    },
    cells: ['test7', '0/1', 'Init:0/1', '3 (10s ago)', '<unknown>'],
  },
  {
    name: '2 init containers, one restarting, the other not running',
    pod: {
      metadata: { name: 'test8' },
      spec: { initContainers: containers(2), containers: containers(1) },
      status: {
        phase: 'podPhase',
        initContainerStatuses: [
          { ready: false, restartCount: 3, state: running, lastState: lastTerminated(10_000) },
          { ready: false, state: { waiting: {} } },
        ],
        containerStatuses: [{ ready: false, state: { waiting: {} } }],
      },
    },
    cells: ['test8', '0/1', 'Init:0/2', '3 (10s ago)', '<unknown>'],
  },
  {
    name: '2 init containers, one completed without restarts, the other restarting',
    pod: {
      metadata: { name: 'test9' },
      spec: { initContainers: containers(2), containers: containers(1) },
      status: {
        phase: 'podPhase',
        initContainerStatuses: [
          { ready: false, state: { terminated: {} } },
          { ready: false, restartCount: 3, state: running, lastState: lastTerminated(10_000) },
        ],
        containerStatuses: [{ ready: false, state: { waiting: {} } }],
      },
    },
    cells: ['test9', '0/1', 'Init:1/2', '3 (10s ago)', '<unknown>'],
  },
  {
    name: '2 init containers, one completed with restarts, the other restarting',
    pod: {
      metadata: { name: 'test10' },
      spec: { initContainers: containers(2), containers: containers(1) },
      status: {
        phase: 'podPhase',
        initContainerStatuses: [
          {
            ready: false,
            restartCount: 2,
            state: { terminated: {} },
            lastState: lastTerminated(120_000),
          },
          { ready: false, restartCount: 3, state: running, lastState: lastTerminated(10_000) },
        ],
        containerStatuses: [{ ready: false, state: { waiting: {} } }],
      },
    },
    cells: ['test10', '0/1', 'Init:1/2', '5 (10s ago)', '<unknown>'],
  },
  {
    name: '1 init container completed with restarts, one container restarting',
    pod: {
      metadata: { name: 'test11' },
      spec: { initContainers: containers(1), containers: containers(1) },
      status: {
        phase: 'Running',
        initContainerStatuses: [
          {
            ready: false,
            restartCount: 2,
            state: { terminated: {} },
            lastState: lastTerminated(120_000),
          },
        ],
        containerStatuses: [
          { ready: false, restartCount: 4, state: running, lastState: lastTerminated(20_000) },
        ],
      },
    },
    cells: ['test11', '0/1', 'Running', '4 (20s ago)', '<unknown>'],
  },
  {
    name: '1 container that restarted 5d ago',
    pod: {
      metadata: { name: 'test12' },
      spec: { containers: containers(1) },
      status: {
        phase: 'Running',
        containerStatuses: [
          { ready: true, restartCount: 3, state: running, lastState: lastTerminated(5 * day) },
        ],
      },
    },
    cells: ['test12', '1/1', 'Running', '3 (5d ago)', '<unknown>'],
  },
  {
    name: '2 containers, one never restarted, the other 10d ago',
    pod: {
      metadata: { name: 'test13' },
      spec: { containers: containers(2) },
      status: {
        phase: 'Running',
        containerStatuses: [
          { ready: true, restartCount: 0, state: running },
          { ready: true, restartCount: 3, state: running, lastState: lastTerminated(10 * day) },
        ],
      },
    },
    cells: ['test13', '2/2', 'Running', '3 (10d ago)', '<unknown>'],
  },
  {
    name: '2 containers, restarted 5d and 20d ago',
    pod: {
      metadata: { name: 'test14' },
      spec: { containers: containers(2) },
      status: {
        phase: 'Running',
        containerStatuses: [
          { ready: true, restartCount: 6, state: running, lastState: lastTerminated(5 * day) },
          { ready: true, restartCount: 3, state: running, lastState: lastTerminated(20 * day) },
        ],
      },
    },
    cells: ['test14', '2/2', 'Running', '9 (5d ago)', '<unknown>'],
  },
  {
    name: 'PodScheduled condition with reason SchedulingGated',
    pod: {
      metadata: { name: 'test15' },
      spec: { containers: containers(2) },
      status: {
        phase: 'podPhase',
        conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }],
      },
    },
    cells: ['test15', '0/2', 'SchedulingGated', '0', '<unknown>'],
  },
  {
    name: 'pod condition succeed',
    pod: {
      metadata: { name: 'test16' },
      spec: { containers: containers(1) },
      status: {
        phase: 'Succeeded',
        containerStatuses: [
          {
            ready: false,
            restartCount: 0,
            state: { terminated: { reason: 'Completed', exitCode: 0 } },
          },
        ],
      },
    },
    cells: ['test16', '0/1', 'Completed', '0', '<unknown>'],
    conditions: podSuccessConditions,
  },
  {
    name: 'pod condition failed',
    pod: {
      metadata: { name: 'test17' },
      spec: { containers: containers(1) },
      status: {
        phase: 'Failed',
        containerStatuses: [
          {
            ready: false,
            restartCount: 0,
            state: { terminated: { reason: 'Error', exitCode: 1 } },
          },
        ],
      },
    },
    cells: ['test17', '0/1', 'Error', '0', '<unknown>'],
    conditions: podFailedConditions,
  },
  {
    name: 'pod condition succeed with deletion',
    pod: {
      metadata: { name: 'test18', deletionTimestamp: ago(10_000) },
      spec: { containers: containers(1) },
      status: {
        phase: 'Succeeded',
        containerStatuses: [
          {
            ready: false,
            restartCount: 0,
            state: { terminated: { reason: 'Completed', exitCode: 0 } },
          },
        ],
      },
    },
    cells: ['test18', '0/1', 'Completed', '0', '<unknown>'],
    conditions: podSuccessConditions,
  },
  {
    name: 'running with deletion: Terminating',
    pod: {
      metadata: { name: 'test19', deletionTimestamp: ago(10_000) },
      spec: { containers: containers(1) },
      status: {
        phase: 'Running',
        containerStatuses: [{ ready: true, restartCount: 0, state: running }],
      },
    },
    cells: ['test19', '1/1', 'Terminating', '0', '<unknown>'],
  },
  {
    name: 'deletion on a lost node: Unknown',
    pod: {
      metadata: { name: 'test20', deletionTimestamp: ago(10_000) },
      spec: { containers: containers(1) },
      status: { phase: 'Running', reason: 'NodeLost' },
    },
    cells: ['test20', '0/1', 'Unknown', '0', '<unknown>'],
  },
  {
    name: 'a sidecar (restartable init container) counts as a container',
    pod: {
      metadata: { name: 'test21', creationTimestamp: ago(190_000) },
      spec: { initContainers: [{ name: 's', restartPolicy: 'Always' }], containers: containers(1) },
      status: {
        phase: 'Running',
        conditions: [{ type: 'Initialized', status: 'True' }],
        initContainerStatuses: [
          { name: 's', ready: true, started: true, restartCount: 1, state: running },
        ],
        containerStatuses: [{ ready: true, restartCount: 0, state: running }],
      },
    },
    cells: ['test21', '2/2', 'Running', '1', '3m10s'],
  },
];

describe('printPod (printers.go, TestPrintPod)', () => {
  for (const c of printPodCases) {
    it(c.name, () => {
      const [row] = printPod(c.pod, now);
      assert.deepStrictEqual(row.cells.slice(0, 5), c.cells);
      assert.deepStrictEqual(row.conditions, c.conditions);
      assert.strictEqual(row.object, c.pod);
    });
  }

  it('prints the wide columns the server always sends: IP, node, nominated node, readiness gates', () => {
    const [row] = printPod(
      {
        metadata: { name: 'p', creationTimestamp: ago(370 * day) },
        spec: {
          containers: containers(2),
          nodeName: 'test-node',
          readinessGates: [{ conditionType: 'condition1' }, { conditionType: 'condition2' }],
        },
        status: {
          podIPs: [{ ip: '1.1.1.1' }],
          nominatedNodeName: 'nominated',
          conditions: [
            { type: 'condition1', status: 'False' },
            { type: 'condition2', status: 'True' },
          ],
        },
      },
      now,
    );
    assert.deepStrictEqual(row.cells, [
      'p',
      '0/2',
      '',
      '0',
      '370d',
      '1.1.1.1',
      'test-node',
      'nominated',
      '1/2',
    ]);
    assert.strictEqual(row.cells.length, podColumnDefinitions.length);
    const [bare] = printPod({ metadata: { name: 'q' }, spec: {}, status: {} }, now);
    assert.deepStrictEqual(bare.cells.slice(5), ['<none>', '<none>', '<none>', '<none>']);
  });
});

describe('printNamespace and printConfigMap', () => {
  it('NAME STATUS AGE for a namespace', () => {
    const [row] = printNamespace(
      {
        metadata: { name: 'ns', creationTimestamp: ago(49 * 3600_000) },
        status: { phase: 'Active' },
      },
      now,
    );
    assert.deepStrictEqual(row.cells, ['ns', 'Active', '2d1h']);
  });

  it('NAME DATA AGE for a configmap: data and binaryData keys counted, as an integer', () => {
    const [row] = printConfigMap(
      {
        metadata: { name: 'cm', creationTimestamp: ago(70_000) },
        data: { a: '1', b: '2' },
        binaryData: { c: 'AA==' },
      },
      now,
    );
    assert.deepStrictEqual(row.cells, ['cm', 3, '70s']);
    const [empty] = printConfigMap({ metadata: { name: 'e' } }, now);
    assert.deepStrictEqual(empty.cells, ['e', 0, '<unknown>']);
  });
});
