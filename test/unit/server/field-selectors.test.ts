// Tests for the field selectors of the core/v1 kinds upstream registers conversions for
// (pkg/apis/core/v1/conversion.go: events, secrets, services, nodes, replicationcontrollers) and of
// events.k8s.io/v1 events (pkg/apis/events/v1/conversion.go maps regarding.* to the core fieldset),
// over HTTP: the names a LIST and a WATCH's initial events select, and the 400 of a label the kind
// does not convert.
import * as assert from 'assert';
import { ApiServer } from '../../../src/server/api-server';
import { call, openWatch } from './http-client';

const core = '/api/v1/namespaces/default';
const eventsV1 = '/apis/events.k8s.io/v1/namespaces/default/events';

const coreEvent = (name: string, o: Record<string, unknown>): unknown => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name },
  involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' },
  reason: 'Started',
  message: 'm',
  type: 'Normal',
  ...o,
});

const v1Event = (name: string, o: Record<string, unknown>): unknown => ({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name },
  eventTime: '2026-12-01T10:00:00.000000Z',
  reportingController: 'example.com/ctl',
  reportingInstance: 'ctl-1',
  action: 'Reconcile',
  reason: 'Synced',
  type: 'Normal',
  regarding: { kind: 'Deployment', name: 'd', namespace: 'default' },
  ...o,
});

const seeds: Array<[string, unknown]> = [
  [`${core}/events`, coreEvent('e-pod', { source: { component: 'kubelet' } })],
  [
    `${core}/events`,
    coreEvent('e-node', {
      involvedObject: { kind: 'Node', name: 'n1' },
      type: 'Warning',
      reportingComponent: 'node-controller',
      reportingInstance: 'i',
    }),
  ],
  [eventsV1, v1Event('v-dep', {})],
  [
    eventsV1,
    v1Event('v-svc', {
      regarding: { kind: 'Service', name: 's', namespace: 'default' },
      reportingController: 'other',
      type: 'Warning',
    }),
  ],
  [`${core}/secrets`, { metadata: { name: 'opaque' }, type: 'Opaque' }],
  [`${core}/secrets`, { metadata: { name: 'tls' }, type: 'example.com/custom' }],
  [
    `${core}/services`,
    { metadata: { name: 'np' }, spec: { type: 'NodePort', ports: [{ port: 80 }] } },
  ],
  [
    `${core}/services`,
    { metadata: { name: 'cip' }, spec: { clusterIP: '10.100.1.1', ports: [{ port: 80 }] } },
  ],
  ['/api/v1/nodes', { metadata: { name: 'n1' }, spec: { unschedulable: true } }],
  ['/api/v1/nodes', { metadata: { name: 'n2' } }],
];

const cases: Array<{ path: string; selector: string; names?: string[]; message?: string }> = [
  { path: `${core}/events`, selector: 'involvedObject.kind=Pod', names: ['e-pod'] },
  { path: `${core}/events`, selector: 'type=Warning', names: ['e-node', 'v-svc'] },
  { path: `${core}/events`, selector: 'source=kubelet', names: ['e-pod'] },
  // source falls back to reportingController when the component is empty.
  { path: `${core}/events`, selector: 'source=node-controller', names: ['e-node'] },
  { path: `${core}/events`, selector: 'reportingComponent=example.com/ctl', names: ['v-dep'] },
  { path: `${core}/events`, selector: 'involvedObject.name=d,reason=Synced', names: ['v-dep'] },
  {
    path: `${core}/events`,
    selector: 'regarding.name=d',
    message: 'field label not supported: regarding.name',
  },
  { path: eventsV1, selector: 'regarding.kind=Service', names: ['v-svc'] },
  { path: eventsV1, selector: 'regarding.name=p,regarding.namespace=default', names: ['e-pod'] },
  { path: eventsV1, selector: 'reportingController=example.com/ctl', names: ['v-dep'] },
  { path: eventsV1, selector: 'reportingController=node-controller', names: ['e-node'] },
  { path: eventsV1, selector: 'source=kubelet', names: ['e-pod'] },
  { path: eventsV1, selector: 'type!=Normal', names: ['e-node', 'v-svc'] },
  { path: eventsV1, selector: 'metadata.name=v-dep', names: ['v-dep'] },
  {
    path: eventsV1,
    selector: 'involvedObject.name=d',
    message: 'field label not supported: involvedObject.name',
  },
  {
    path: eventsV1,
    selector: 'reportingComponent=x',
    message: 'field label not supported: reportingComponent',
  },
  { path: eventsV1, selector: 'note=x', message: 'field label not supported: note' },
  { path: `${core}/secrets`, selector: 'type=Opaque', names: ['opaque'] },
  { path: `${core}/secrets`, selector: 'data.x=y', message: 'field label not supported: data.x' },
  { path: `${core}/services`, selector: 'spec.type=NodePort', names: ['np'] },
  { path: `${core}/services`, selector: 'spec.clusterIP=10.100.1.1', names: ['cip'] },
  {
    path: `${core}/services`,
    selector: 'spec.ports=x',
    message: 'field label not supported: spec.ports',
  },
  { path: '/api/v1/nodes', selector: 'spec.unschedulable=true', names: ['n1'] },
  { path: '/api/v1/nodes', selector: 'spec.unschedulable=false', names: ['n2'] },
  {
    path: '/api/v1/nodes',
    selector: 'metadata.namespace=x',
    message: 'field label not supported: metadata.namespace',
  },
];

describe('server field selectors of core/v1 and events.k8s.io/v1 kinds', () => {
  let server: ApiServer;
  before(async () => {
    server = await ApiServer.start({ port: 0 });
    for (const [path, body] of seeds) {
      const r = await call(server, 'POST', path, body);
      assert.strictEqual(r.status, 201, `${path}: ${r.text}`);
    }
  });
  after(async () => {
    await server.stop();
  });

  for (const c of cases)
    it(`${c.path}?fieldSelector=${c.selector}`, async () => {
      const q = `fieldSelector=${encodeURIComponent(c.selector)}`;
      const r = await call(server, 'GET', `${c.path}?${q}`);
      if (c.message !== undefined) {
        assert.strictEqual(r.status, 400, r.text);
        assert.strictEqual(r.json.message, c.message);
        return;
      }
      assert.strictEqual(r.status, 200, r.text);
      const items = r.json.items as Array<{ metadata: { name: string } }>;
      assert.deepStrictEqual(items.map((i) => i.metadata.name).sort(), c.names, 'LIST');
      // A WATCH from the start selects the same objects (the watch cache's attributes).
      const w = await openWatch(server, `${c.path}?${q}&watch=true&resourceVersion=0`);
      try {
        const names: string[] = [];
        for (let i = 0; i < (c.names ?? []).length; i++)
          names.push(((await w.next()).object.metadata as { name: string }).name);
        assert.deepStrictEqual(names.sort(), c.names, 'WATCH');
      } finally {
        w.req.destroy();
      }
    });
});
