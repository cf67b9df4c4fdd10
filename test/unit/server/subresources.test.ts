// Tests for src/server/subresources.ts and its handlers (handlers/status.ts, handlers/scale.ts,
// registry/status-kept.ts, registry/scale.ts) against a live ApiServer, as kube-apiserver
// (release-1.36) answers: a status write keeps spec, a main write keeps status, a create resets
// status (not a node's), `/status` of a kind without one is 404, `/scale` reads and writes
// spec.replicas as an autoscaling/v1 Scale (a CRD's through its declared paths), and discovery
// lists what is served.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiServer } from '../../../src/server/api-server';
import { formatLabelSelector } from '../../../src/server/registry/scale';
import { call, type Reply } from './http-client';

const deps = '/apis/apps/v1/namespaces/default/deployments';
const widgets = '/apis/example.com/v1/namespaces/default/widgets';
const merge = 'application/merge-patch+json';
const applyType = 'application/apply-patch+yaml';

const deployment = (name: string, extra: Record<string, unknown> = {}): unknown => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    },
  },
  ...extra,
});
const widget = (name: string): unknown => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name },
  spec: { replicas: 1 },
  status: { replicas: 9 },
});

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas, labelSelectorPath: .status.selector}
`;

interface Step {
  method: string;
  path: string;
  body?: unknown;
  contentType?: string;
}

interface Case {
  name: string;
  /** Requests made first, each expected to succeed. */
  setup?: Step[];
  request: Step;
  status: number;
  message?: string;
  /** Checks the reply; `get` reads an object back. */
  check?(r: Reply, get: (path: string) => Promise<Record<string, unknown>>): Promise<void> | void;
}

const post = (p: string, body: unknown): Step => ({ method: 'POST', path: p, body });
const spec = (o: Record<string, unknown>): Record<string, unknown> =>
  o.spec as Record<string, unknown>;

const cases: Case[] = [
  {
    name: 'a create drops the status the client sent (DeploymentStatus{})',
    request: post(deps, deployment('c1', { status: { replicas: 4 } })),
    status: 201,
    check: (r) => assert.deepStrictEqual(r.json.status, {}),
  },
  {
    name: 'a node keeps the status it is created with',
    request: post('/api/v1/nodes', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1' },
      status: { capacity: { cpu: '2' } },
    }),
    status: 201,
    check: (r) => assert.deepStrictEqual(r.json.status, { capacity: { cpu: '2' } }),
  },
  {
    name: 'a status merge patch writes status and leaves spec alone',
    setup: [post(deps, deployment('s1'))],
    request: {
      method: 'PATCH',
      path: `${deps}/s1/status`,
      body: { status: { replicas: 2 }, spec: { replicas: 7 } },
      contentType: merge,
    },
    status: 200,
    check: (r) => {
      assert.deepStrictEqual(r.json.status, { replicas: 2 });
      assert.strictEqual(spec(r.json).replicas, 1);
    },
  },
  {
    name: 'a main-resource patch writes spec and leaves status alone',
    setup: [
      post(deps, deployment('m1')),
      {
        method: 'PATCH',
        path: `${deps}/m1/status`,
        body: { status: { replicas: 2 } },
        contentType: merge,
      },
    ],
    request: {
      method: 'PATCH',
      path: `${deps}/m1`,
      body: { status: { replicas: 5 }, spec: { replicas: 4 } },
      contentType: merge,
    },
    status: 200,
    check: (r) => {
      assert.deepStrictEqual(r.json.status, { replicas: 2 });
      assert.strictEqual(spec(r.json).replicas, 4);
    },
  },
  {
    name: 'a PUT of /status takes status from the body, spec and labels from the stored object',
    setup: [post(deps, deployment('p1'))],
    request: {
      method: 'PUT',
      path: `${deps}/p1/status`,
      body: {
        ...(deployment('p1', { status: { replicas: 3 } }) as Record<string, unknown>),
        metadata: { name: 'p1', labels: { x: 'y' } },
        spec: { replicas: 9 },
      },
    },
    status: 200,
    check: (r) => {
      assert.deepStrictEqual(r.json.status, { replicas: 3 });
      assert.strictEqual(spec(r.json).replicas, 1);
      assert.strictEqual((r.json.metadata as Record<string, unknown>).labels, undefined);
    },
  },
  {
    name: 'an apply to /status records the manager with subresource status',
    setup: [post(deps, deployment('a1'))],
    request: {
      method: 'PATCH',
      path: `${deps}/a1/status?fieldManager=ctl`,
      body: 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a1}\nstatus: {replicas: 1}\n',
      contentType: applyType,
    },
    status: 200,
    check: (r) => {
      assert.deepStrictEqual(r.json.status, { replicas: 1 });
      const mf = (r.json.metadata as { managedFields: Array<Record<string, unknown>> })
        .managedFields;
      assert.deepStrictEqual(
        mf.filter((e) => e.manager === 'ctl').map((e) => [e.operation, e.subresource]),
        [['Apply', 'status']],
      );
    },
  },
  {
    name: 'an apply to the main resource owns no status (its reset fields), nor one to /status spec',
    setup: [
      post(deps, deployment('rf1')),
      {
        method: 'PATCH',
        path: `${deps}/rf1/status?fieldManager=st`,
        body: 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: rf1}\nspec: {paused: true}\nstatus: {replicas: 1}\n',
        contentType: applyType,
      },
    ],
    request: {
      method: 'PATCH',
      path: `${deps}/rf1?fieldManager=main`,
      body: 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: rf1}\nspec: {paused: true}\nstatus: {replicas: 4}\n',
      contentType: applyType,
    },
    status: 200,
    check: (r) => {
      assert.deepStrictEqual(r.json.status, { replicas: 1 });
      const mf = (r.json.metadata as { managedFields: Array<Record<string, unknown>> })
        .managedFields;
      const owned = (m: string): unknown => mf.find((e) => e.manager === m)?.fieldsV1;
      assert.deepStrictEqual(owned('main'), { 'f:spec': { 'f:paused': {} } });
      assert.deepStrictEqual(owned('st'), { 'f:status': { 'f:replicas': {} } });
    },
  },
  {
    name: 'an apply to /status of a missing object is NotFound (no create)',
    request: {
      method: 'PATCH',
      path: `${deps}/none/status?fieldManager=ctl`,
      body: 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: none}\nstatus: {replicas: 1}\n',
      contentType: applyType,
    },
    status: 404,
    message: 'deployments.apps "none" not found',
  },
  {
    name: '/status of a kind without one is 404',
    setup: [post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'cm' } })],
    request: { method: 'GET', path: '/api/v1/namespaces/default/configmaps/cm/status' },
    status: 404,
    message: 'the server could not find the requested resource',
  },
  {
    name: 'DELETE of /status is 405',
    setup: [post(deps, deployment('d1'))],
    request: { method: 'DELETE', path: `${deps}/d1/status` },
    status: 405,
  },
  {
    name: 'GET /scale answers an autoscaling/v1 Scale with the selector as a string',
    setup: [post(deps, deployment('g1'))],
    request: { method: 'GET', path: `${deps}/g1/scale` },
    status: 200,
    check: (r) => {
      assert.strictEqual(r.json.kind, 'Scale');
      assert.strictEqual(r.json.apiVersion, 'autoscaling/v1');
      assert.deepStrictEqual(r.json.spec, { replicas: 1 });
      assert.deepStrictEqual(r.json.status, { replicas: 0, selector: 'app=g1' });
    },
  },
  {
    name: 'a merge patch of /scale writes spec.replicas (what kubectl scale sends)',
    setup: [post(deps, deployment('k1'))],
    request: {
      method: 'PATCH',
      path: `${deps}/k1/scale`,
      body: { spec: { replicas: 3 } },
      contentType: merge,
    },
    status: 200,
    check: async (r, get) => {
      assert.deepStrictEqual(r.json.spec, { replicas: 3 });
      assert.strictEqual(spec(await get(`${deps}/k1`)).replicas, 3);
    },
  },
  {
    name: 'a PUT of /scale with negative replicas is Invalid',
    setup: [post(deps, deployment('n1'))],
    request: {
      method: 'PUT',
      path: `${deps}/n1/scale`,
      body: {
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: 'n1' },
        spec: { replicas: -1 },
      },
    },
    status: 422,
    message:
      'Scale.autoscaling "n1" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
  },
  {
    name: 'a PUT of /scale with a stale resourceVersion is a Conflict',
    setup: [post(deps, deployment('r1'))],
    request: {
      method: 'PUT',
      path: `${deps}/r1/scale`,
      body: {
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: 'r1', resourceVersion: '1' },
        spec: { replicas: 2 },
      },
    },
    status: 409,
    message:
      'Operation cannot be fulfilled on deployments.apps "r1": the object has been modified; please apply your changes to the latest version and try again',
  },
  {
    name: '/scale of a deployment that is not there is NotFound',
    request: { method: 'GET', path: `${deps}/gone/scale` },
    status: 404,
    message: 'deployments.apps "gone" not found',
  },
  {
    name: 'a custom resource with status: create drops status, a status patch keeps spec',
    setup: [post(widgets, widget('w1'))],
    request: {
      method: 'PATCH',
      path: `${widgets}/w1/status`,
      body: { status: { replicas: 2, selector: 'a=b' }, spec: { replicas: 8 } },
      contentType: merge,
    },
    status: 200,
    check: (r) => {
      assert.deepStrictEqual(r.json.status, { replicas: 2, selector: 'a=b' });
      assert.deepStrictEqual(r.json.spec, { replicas: 1 });
      assert.strictEqual((r.json.metadata as Record<string, unknown>).generation, 1);
    },
  },
  {
    name: "a custom resource's /scale reads and writes its declared paths",
    setup: [
      post(widgets, widget('w2')),
      {
        method: 'PATCH',
        path: `${widgets}/w2/status`,
        body: { status: { replicas: 2, selector: 'a=b' } },
        contentType: merge,
      },
    ],
    request: {
      method: 'PATCH',
      path: `${widgets}/w2/scale`,
      body: { spec: { replicas: 5 } },
      contentType: merge,
    },
    status: 200,
    check: async (r, get) => {
      assert.deepStrictEqual(r.json.spec, { replicas: 5 });
      assert.deepStrictEqual(r.json.status, { replicas: 2, selector: 'a=b' });
      const w = await get(`${widgets}/w2`);
      assert.deepStrictEqual(w.spec, { replicas: 5 });
      assert.strictEqual((w.metadata as Record<string, unknown>).generation, 2);
    },
  },
  {
    name: 'discovery lists deployments/scale (autoscaling/v1 Scale) and deployments/status',
    request: { method: 'GET', path: '/apis/apps/v1' },
    status: 200,
    check: (r) => {
      const names = (r.json.resources as Array<Record<string, unknown>>)
        .filter((x) => String(x.name).startsWith('deployments/'))
        .map((x) => [x.name, x.group ?? '', x.kind]);
      assert.deepStrictEqual(names, [
        ['deployments/scale', 'autoscaling', 'Scale'],
        ['deployments/status', '', 'Deployment'],
      ]);
    },
  },
  {
    name: "discovery lists a CRD's declared subresources",
    request: { method: 'GET', path: '/apis/example.com/v1' },
    status: 200,
    check: (r) =>
      assert.deepStrictEqual(
        (r.json.resources as Array<Record<string, unknown>>).map((x) => x.name),
        ['widgets', 'widgets/scale', 'widgets/status'],
      ),
  },
];

describe('subresources: /status and /scale', () => {
  let server: ApiServer;
  let dir: string;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'subresources-'));
    fs.writeFileSync(path.join(dir, 'crd.yaml'), crd);
    server = await ApiServer.start({
      port: 0,
      namespaceController: false,
      crdFiles: [path.join(dir, 'crd.yaml')],
    });
  });
  after(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = async (p: string): Promise<Record<string, unknown>> => {
    const r = await call(server, 'GET', p);
    assert.strictEqual(r.status, 200, r.text);
    return r.json;
  };

  for (const c of cases) {
    it(c.name, async () => {
      for (const s of c.setup ?? []) {
        const r = await call(server, s.method, s.path, s.body, s.contentType);
        assert.ok(r.status < 300, `setup ${s.method} ${s.path}: ${r.text}`);
      }
      const { method, path: p, body, contentType } = c.request;
      const r = await call(server, method, p, body, contentType);
      assert.strictEqual(r.status, c.status, r.text);
      if (c.message !== undefined) assert.strictEqual(r.json.message, c.message);
      await c.check?.(r, get);
    });
  }
});

describe('formatLabelSelector', () => {
  const table: Array<[unknown, string]> = [
    [undefined, '<none>'],
    [{}, '<none>'],
    [{ matchLabels: { b: '2', a: '1' } }, 'a=1,b=2'],
    [
      {
        matchLabels: { z: '1' },
        matchExpressions: [
          { key: 'env', operator: 'In', values: ['prod', 'dev'] },
          { key: 'tier', operator: 'NotIn', values: ['x'] },
          { key: 'has', operator: 'Exists' },
          { key: 'gone', operator: 'DoesNotExist' },
        ],
      },
      'env in (dev,prod),!gone,has,tier notin (x),z=1',
    ],
  ];
  for (const [selector, want] of table)
    it(`${JSON.stringify(selector)} → ${want}`, () =>
      assert.strictEqual(formatLabelSelector(selector), want));
});
