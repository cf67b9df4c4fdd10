// Tests for src/server/table-convertor.ts, transform-response.ts, partial-object-metadata.ts and
// jsonpath.ts: a pod Table byte for byte as kube-apiserver sent it (a kubectl -v=8 capture, its
// annotations and managedFields left out), includeObject, list metadata, a CRD's
// additionalPrinterColumns with upstream's tableconvertor cases, and PartialObjectMetadata(List).
import * as assert from 'assert';
import { goJsonMarshal, type GoJsonValue } from '../../../src/engine/encoding/go-json';
import type { KubeList, KubeObject } from '../../../src/engine/storage/objects';
import { StatusError } from '../../../src/engine/storage/errors';
import { JsonPath, printResults, type JsonValue } from '../../../src/server/jsonpath';
import { negotiateEncoding } from '../../../src/server/negotiation';
import { transformObject } from '../../../src/server/transform-response';
import { newCustomResourceTableConvertor } from '../../../src/server/table-convertor';
import type { PrinterColumn } from '../../../src/server/served-resource';

const pods = { group: '', version: 'v1', resource: 'pods', kind: 'Pod', jsonOnly: false } as const;
const widgets = (printerColumns?: PrinterColumn[]) =>
  ({
    group: 'example.com',
    version: 'v1',
    resource: 'widgets',
    kind: 'Widget',
    jsonOnly: true,
    printerColumns,
  }) as const;

function encodingFor(accept: string, query = '') {
  const r = negotiateEncoding({ accept, query: new URLSearchParams(query) }, 'list');
  assert.ok(r.ok);
  return r.encoding;
}
const tableV1 = encodingFor('application/json;as=Table;v=v1;g=meta.k8s.io,application/json');

const helloWorld = {
  kind: 'Pod',
  apiVersion: 'v1',
  metadata: {
    name: 'hello-world',
    namespace: 'default',
    uid: '0b295a7b-7365-44a0-a983-708112008c8b',
    resourceVersion: '279474',
    creationTimestamp: '2024-06-25T14:48:12Z',
  },
  spec: {
    containers: [
      { name: 'hello-world', image: 'gcr.io/google-samples/hello-app:1.0', resources: {} },
    ],
    nodeName: 'c1-node1',
  },
  status: {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null }],
    podIP: '10.0.15.103',
    podIPs: [{ ip: '10.0.15.103' }],
    containerStatuses: [
      {
        name: 'hello-world',
        state: { running: { startedAt: '2024-06-25T15:19:23Z' } },
        lastState: {},
        ready: true,
        restartCount: 0,
        started: true,
      },
    ],
  },
} as unknown as KubeObject;
const captureNow = Date.UTC(2024, 5, 25, 15, 22, 45);

/** The body kube-apiserver answered `kubectl get pod hello-world` with (v1.29 capture, trimmed). */
const capturedTable =
  '{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"279474"},"columnDefinitions":[{"name":"Name","type":"string","format":"name","description":"Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names","priority":0},{"name":"Ready","type":"string","format":"","description":"The aggregate readiness state of this pod for accepting traffic.","priority":0},{"name":"Status","type":"string","format":"","description":"The aggregate status of the containers in this pod.","priority":0},{"name":"Restarts","type":"string","format":"","description":"The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.","priority":0},{"name":"Age","type":"string","format":"","description":"CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\\n\\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata","priority":0},{"name":"IP","type":"string","format":"","description":"podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.","priority":1},{"name":"Node","type":"string","format":"","description":"NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename","priority":1},{"name":"Nominated Node","type":"string","format":"","description":"nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.","priority":1},{"name":"Readiness Gates","type":"string","format":"","description":"If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to \\"True\\" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates","priority":1}],"rows":[{"cells":["hello-world","1/1","Running","0","34m","10.0.15.103","c1-node1","\\u003cnone\\u003e","\\u003cnone\\u003e"],"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"hello-world","namespace":"default","uid":"0b295a7b-7365-44a0-a983-708112008c8b","resourceVersion":"279474","creationTimestamp":"2024-06-25T14:48:12Z"}}}]}';

const marshal = (v: unknown): string => goJsonMarshal(v as GoJsonValue);

describe('transformObject as Table (asTable over the TableConvertor)', () => {
  it('writes a pod Table byte for byte as kube-apiserver does (Node description as of 1.30+)', () => {
    assert.strictEqual(
      marshal(transformObject(helloWorld, tableV1, pods, captureNow)),
      capturedTable,
    );
  });

  it('includeObject: Object keeps the object, None writes null, Metadata is the default', () => {
    const objectRow = transformObject(
      helloWorld,
      encodingFor(tableV1Accept(), 'includeObject=Object'),
      pods,
      captureNow,
    ) as { rows: { object: unknown }[] };
    assert.strictEqual(objectRow.rows[0].object, helloWorld);
    const none = transformObject(
      helloWorld,
      encodingFor(tableV1Accept(), 'includeObject=None'),
      pods,
      captureNow,
    );
    assert.ok(marshal(none).includes('"object":null'));
    const v1beta1 = transformObject(
      helloWorld,
      encodingFor('application/json;as=Table;v=v1beta1;g=meta.k8s.io'),
      pods,
      captureNow,
    ) as { apiVersion: string; rows: { object: { apiVersion: string } }[] };
    assert.strictEqual(v1beta1.apiVersion, 'meta.k8s.io/v1beta1');
    assert.strictEqual(v1beta1.rows[0].object.apiVersion, 'meta.k8s.io/v1beta1');
  });

  // asTable converts each includeObject=Object row to the request's version, which sets its
  // TypeMeta: kubectl --sort-by decodes the rows' objects and printed `<empty> <unknown>` without it.
  const objectRowCases: {
    name: string;
    served: typeof pods | ReturnType<typeof widgets>;
    item: KubeObject;
    json: string;
  }[] = [
    {
      name: 'a stored pod without TypeMeta (typed: kind first)',
      served: pods,
      item: { metadata: { name: 'b' }, spec: {} } as unknown as KubeObject,
      json: '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"b"},"spec":{}}',
    },
    {
      name: 'an item that has its TypeMeta keeps it',
      served: pods,
      item: helloWorld,
      json: marshal(helloWorld),
    },
    {
      name: 'a custom resource without TypeMeta (unstructured: apiVersion first)',
      served: widgets(),
      item: { metadata: { name: 'w' }, spec: { size: 1 } } as unknown as KubeObject,
      json: '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"size":1}}',
    },
  ];
  for (const c of objectRowCases) {
    it(`includeObject=Object: each row's object has kind and apiVersion: ${c.name}`, () => {
      const list = { metadata: { resourceVersion: '7' }, items: [c.item] } as unknown as KubeList;
      const t = transformObject(
        list,
        encodingFor(tableV1Accept(), 'includeObject=Object'),
        c.served,
        captureNow,
      ) as { rows: { object: unknown }[] };
      assert.strictEqual(marshal(t.rows[0].object), c.json, c.name);
    });
  }

  it('a list Table carries resourceVersion, continue and remainingItemCount; an empty list has rows []', () => {
    const list: KubeList = {
      kind: 'PodList',
      apiVersion: 'v1',
      metadata: { resourceVersion: '42', continue: 'tok', remainingItemCount: 3 },
      items: [helloWorld],
    };
    const t = transformObject(list, tableV1, pods, captureNow) as {
      metadata: unknown;
      rows: unknown[];
    };
    assert.deepStrictEqual(t.metadata, {
      resourceVersion: '42',
      continue: 'tok',
      remainingItemCount: 3,
    });
    assert.strictEqual(t.rows.length, 1);
    const empty = transformObject(
      { ...list, metadata: { resourceVersion: '42' }, items: [] },
      tableV1,
      pods,
      captureNow,
    );
    assert.ok(marshal(empty).endsWith('"rows":[]}'));
  });

  it('omits the headers (columnDefinitions null) when asked, as watch events after the first', () => {
    assert.ok(
      marshal(transformObject(helloWorld, tableV1, pods, captureNow, true)).includes(
        '"columnDefinitions":null',
      ),
    );
  });

  it('a Status passes unchanged', () => {
    const status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      code: 410,
    } as unknown as KubeObject;
    assert.strictEqual(transformObject(status, tableV1, pods, captureNow), status);
  });
});

describe('rest.NewDefaultTableConvertor (a built-in without a printer of its own)', () => {
  // Roles have no printer upstream (AddHandlers registers none).
  const roles = {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    resource: 'roles',
    kind: 'Role',
    jsonOnly: false,
  } as const;
  const role = {
    kind: 'Role',
    apiVersion: 'rbac.authorization.k8s.io/v1',
    metadata: { name: 'leader', namespace: 'default', creationTimestamp: '2026-12-01T13:20:23Z' },
    rules: [],
  } as unknown as KubeObject;
  it('Name and Created At, the creation time in RFC 3339 (UTC), as defaultTableConvertor writes', () => {
    const t = transformObject(role, tableV1, roles, captureNow) as {
      columnDefinitions: { name: string; type: string; format: string }[];
      rows: { cells: unknown[] }[];
    };
    assert.deepStrictEqual(
      t.columnDefinitions.map((c) => [c.name, c.type, c.format]),
      [
        ['Name', 'string', 'name'],
        ['Created At', 'date', ''],
      ],
    );
    assert.deepStrictEqual(t.rows[0].cells, ['leader', '2026-12-01T13:20:23Z']);
  });
  it('an object without a creationTimestamp shows Go zero time', () => {
    const t = transformObject(
      { ...role, metadata: { name: 'x' } } as KubeObject,
      tableV1,
      roles,
      captureNow,
    ) as { rows: { cells: unknown[] }[] };
    assert.deepStrictEqual(t.rows[0].cells, ['x', '0001-01-01T00:00:00Z']);
  });
});

function tableV1Accept(): string {
  return 'application/json;as=Table;v=v1;g=meta.k8s.io';
}

describe('PartialObjectMetadata(List) (asPartialObjectMetadata, asPartialObjectMetadataList)', () => {
  const pom = encodingFor('application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1');
  const poml = encodingFor('application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1');
  const list: KubeList = {
    kind: 'PodList',
    apiVersion: 'v1',
    metadata: { resourceVersion: '7', continue: 'c' },
    items: [helloWorld],
  };

  it('keeps only kind, apiVersion meta.k8s.io/v1 and the metadata, in ObjectMeta order', () => {
    assert.strictEqual(
      marshal(transformObject(helloWorld, pom, pods, 0)),
      '{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"hello-world","namespace":"default","uid":"0b295a7b-7365-44a0-a983-708112008c8b","resourceVersion":"279474","creationTimestamp":"2024-06-25T14:48:12Z"}}',
    );
    assert.strictEqual(
      marshal(transformObject(list, poml, pods, 0)),
      '{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"7","continue":"c"},"items":[{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"hello-world","namespace":"default","uid":"0b295a7b-7365-44a0-a983-708112008c8b","resourceVersion":"279474","creationTimestamp":"2024-06-25T14:48:12Z"}}]}',
    );
  });

  it('a kind that does not fit is 406 with the Go type upstream names', () => {
    const cases: [unknown, string][] = [
      [
        () => transformObject(list, pom, pods, 0),
        'you requested PartialObjectMetadata, but the requested object is a list (*core.PodList)',
      ],
      [
        () => transformObject(helloWorld, poml, pods, 0),
        'you requested PartialObjectMetadataList, but the requested object is not a list (*core.Pod)',
      ],
      [
        () => transformObject(list, pom, widgets(), 0),
        'you requested PartialObjectMetadata, but the requested object is a list (*unstructured.UnstructuredList)',
      ],
    ];
    for (const [fn, message] of cases) {
      assert.throws(
        fn as () => void,
        (e: unknown) =>
          e instanceof StatusError &&
          e.status.code === 406 &&
          e.status.reason === 'NotAcceptable' &&
          e.status.message === message,
      );
    }
  });
});

describe('custom resource Tables (apiextensions tableconvertor)', () => {
  const widget = (spec: Record<string, unknown>, status: Record<string, unknown> = {}) =>
    ({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: {
        name: 'w1',
        resourceVersion: '5',
        creationTimestamp: '2024-06-25T14:48:12Z',
        labels: { app: 'web' },
      },
      spec,
      status,
    }) as unknown as KubeObject;
  const columns: PrinterColumn[] = [
    { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
    {
      name: 'Ready',
      type: 'string',
      jsonPath: '.status.conditions[?(@.type=="Ready")].status',
      description: 'Ready condition',
    },
    { name: 'App', type: 'string', jsonPath: '.metadata.labels.app', priority: 1 },
    { name: 'Ratio', type: 'number', jsonPath: '.spec.ratio', format: 'float' },
    { name: 'Paused', type: 'boolean', jsonPath: '.spec.paused' },
    { name: 'Started', type: 'date', jsonPath: '.status.startTime' },
    { name: 'Selector', type: 'string', jsonPath: '.spec.selector' },
  ];

  it('Name first, then each column with upstream description, format and priority', () => {
    const t = transformObject(widget({}), tableV1, widgets(columns), captureNow) as {
      columnDefinitions: unknown[];
    };
    assert.deepStrictEqual(t.columnDefinitions.slice(1, 4), [
      {
        name: 'Replicas',
        type: 'integer',
        format: '',
        description: 'Custom resource definition column (in JSONPath format): .spec.replicas',
        priority: 0,
      },
      { name: 'Ready', type: 'string', format: '', description: 'Ready condition', priority: 0 },
      {
        name: 'App',
        type: 'string',
        format: '',
        description: 'Custom resource definition column (in JSONPath format): .metadata.labels.app',
        priority: 1,
      },
    ]);
    assert.strictEqual((t.columnDefinitions[0] as { name: string }).name, 'Name');
  });

  it('cells by column type; missing values and type mismatches are null', () => {
    const cells = (o: KubeObject) =>
      (
        transformObject(o, tableV1, widgets(columns), captureNow) as {
          rows: { cells: unknown[] }[];
        }
      ).rows[0].cells;
    assert.deepStrictEqual(
      cells(
        widget(
          { replicas: 3, ratio: 0.5, paused: true, selector: { app: 'web', tier: 'a' } },
          {
            startTime: '2024-06-25T15:20:45Z',
            conditions: [
              { type: 'Other', status: 'False' },
              { type: 'Ready', status: 'True' },
            ],
          },
        ),
      ),
      ['w1', 3, 'True', 'web', 0.5, true, '2m', '{"app":"web","tier":"a"}'],
    );
    assert.deepStrictEqual(
      cells(widget({ replicas: 'three', paused: 'yes' }, { startTime: 'not a time' })),
      ['w1', null, null, 'web', null, null, '<invalid>', null],
    );
    assert.deepStrictEqual(cells(widget({ replicas: 2.7 })), [
      'w1',
      2,
      null,
      'web',
      null,
      null,
      null,
      null,
    ]);
  });

  it('a CRD without columns gets the Age column', () => {
    const t = transformObject(widget({}), tableV1, widgets(), captureNow) as {
      columnDefinitions: { name: string; type: string }[];
      rows: { cells: unknown[] }[];
    };
    assert.deepStrictEqual(
      t.columnDefinitions.map((c) => [c.name, c.type]),
      [
        ['Name', 'string'],
        ['Age', 'date'],
      ],
    );
    assert.deepStrictEqual(t.rows[0].cells, ['w1', '34m']);
  });

  it('a JSONPath that does not parse ends the columns there, with upstream error', () => {
    const r = newCustomResourceTableConvertor([
      { name: 'A', type: 'string', jsonPath: '.a' },
      { name: 'B', type: 'string', jsonPath: '.b[' },
    ]);
    assert.strictEqual(r.error, 'unrecognized column definition ".b["');
    const t = r.convertor.convertToTable(widget({}), { includeObject: '', noHeaders: false }, 0);
    assert.deepStrictEqual(
      t.columnDefinitions?.map((c) => c.name),
      ['Name', 'A'],
    );
  });
});

describe('JsonPath (client-go util/jsonpath subset)', () => {
  const data = {
    kind: 'List',
    items: [
      { metadata: { name: 'a', labels: { 'app.kubernetes.io/name': 'x' } }, spec: { replicas: 1 } },
      { metadata: { name: 'b' }, spec: { replicas: 2 } },
    ],
    conditions: [
      { type: 'Ready', status: 'True', n: 1 },
      { type: 'Synced', status: 'False', n: 5 },
    ],
  } as unknown as JsonValue;
  const cases: [string, string][] = [
    ['{.kind}', 'List'],
    ['.items[0].metadata.name', 'a'],
    ['.items[-1].metadata.name', 'b'],
    ['.items[*].metadata.name', 'a b'],
    ['.items[0:2].spec.replicas', '1 2'],
    ['.items[0,1].metadata.name', 'a b'],
    ["{.items[0].metadata.labels['app.kubernetes.io/name']}", 'x'],
    ['..replicas', '1 2'],
    ['.conditions[?(@.type=="Ready")].status', 'True'],
    ['.conditions[?(@.n>1)].type', 'Synced'],
    ['.conditions[?(@.type!="Ready")].n', '5'],
    ['.items[?(@.metadata.labels)].metadata.name', 'a'],
    ['.missing.field', ''],
    ['.items[5].metadata.name', ''],
    ['.items[0].metadata', '{"labels":{"app.kubernetes.io/name":"x"},"name":"a"}'],
  ];
  for (const [path, want] of cases) {
    it(path, () => {
      assert.strictEqual(printResults(JsonPath.parse(path).findResults(data)), want);
    });
  }

  it('prints floats as Go %v, null as <no value>', () => {
    assert.strictEqual(
      printResults([1.5, 1234567.5, 0.00001, null, true]),
      '1.5 1.2345675e+06 1e-05 <no value> true',
    );
  });
});
