// A controller written with @kubernetes/client-node 1.4.0 (controller/widget-controller.ts, the
// shape of a kubebuilder scaffold) runs unchanged against `listwatch serve`: it wins the Lease,
// lists and watches its custom resource, owns a ConfigMap, records an Event and sets the status
// through /status, which kubectl 1.35's `wait --for=condition=Ready` sees; a second candidate
// stays a follower while the Lease is held; and the controller's LIST and WATCH show in the
// server's own record of its clients (what the Clients view draws). No upstream counterpart.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { recordClientNodeTest, suiteKubectls } from './harness/clients';
import { kubectl } from './harness/kubectl';
import { ServeProcess } from './harness/serve-process';
import { projectRoot } from '../harness/paths';
import { WidgetController } from './controller/widget-controller';

const kubectls = suiteKubectls();

describe('a client-node 1.4.0 controller (leader election, informer, /status, Events, owned ConfigMaps) against listwatch serve', function () {
  let serve: ServeProcess;
  const controllers: WidgetController[] = [];
  const k = kubectls[kubectls.length - 1];
  const run = (args: string[]) =>
    kubectl(k, { kubeconfig: serve.info.kubeconfig, dir: serve.dir }, args);
  const controller = (identity: string): WidgetController => {
    const c = new WidgetController({
      kubeconfig: serve.info.kubeconfig,
      namespace: serve.namespace,
      identity,
      group: 'example.com',
      version: 'v1',
      plural: 'widgets',
      leaseName: 'widget-controller',
    });
    controllers.push(c);
    return c;
  };

  before(async () => {
    assert.ok(k, 'no kubectl on the machine (npm run test:setup installs them)');
    serve = await ServeProcess.start([
      '--crd',
      path.join(projectRoot(), 'test', 'fixtures', 'widget-crd.yaml'),
    ]);
  });
  beforeEach(() => recordClientNodeTest());
  after(async () => {
    for (const c of controllers) await c.stop();
    if (serve) assert.strictEqual(await serve.stop(), 0, 'listwatch serve exit code on SIGTERM');
  });

  it('wins the Lease; a second candidate stays a follower', async () => {
    const leader = controller('manager-a');
    const follower = controller('manager-b');
    await leader.start();
    void follower.start();
    const lease = await serve.json<{ spec: { holderIdentity: string } }>(
      'GET',
      `/apis/coordination.k8s.io/v1/namespaces/${serve.namespace}/leases/widget-controller`,
      200,
    );
    assert.strictEqual(lease.spec.holderIdentity, 'manager-a');
    assert.strictEqual(leader.leader, true);
    // A few of the follower's retry periods: it reads the held Lease and does not take it.
    await new Promise((r) => setTimeout(r, 600));
    assert.strictEqual(follower.leader, false);
  });

  it('reconciles a Widget: owned ConfigMap, Event, status through /status; kubectl wait sees Ready', async () => {
    const [leader] = controllers;
    const file = path.join(serve.dir, 'widget.yaml');
    fs.writeFileSync(
      file,
      'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: hello\nspec:\n  greeting: hi\n',
    );
    const c = await run(['apply', '-f', file]);
    assert.strictEqual(c.code, 0, c.stderr);
    const w = await run(['wait', '--for=condition=Ready', 'widget/hello', '--timeout=60s']);
    const errors = leader.errors.map((e) => String((e as { body?: unknown }).body ?? e));
    assert.strictEqual(w.code, 0, `${w.stderr}; the controller's errors: ${errors.join('; ')}`);
    assert.strictEqual(w.stdout, 'widget.example.com/hello condition met\n');

    const ns = serve.namespace;
    const widget = await serve.json<{
      metadata: { uid: string; generation: number };
      spec: { greeting: string };
      status: { observedGeneration: number };
    }>('GET', `/apis/example.com/v1/namespaces/${ns}/widgets/hello`, 200);
    assert.strictEqual(widget.status.observedGeneration, widget.metadata.generation);
    assert.deepStrictEqual(widget.spec, { greeting: 'hi' }, 'a /status write leaves spec alone');
    const cm = await serve.json<{
      data: Record<string, string>;
      metadata: { ownerReferences: { uid: string; controller: boolean }[] };
    }>('GET', `/api/v1/namespaces/${ns}/configmaps/hello-config`, 200);
    assert.deepStrictEqual(cm.data, { greeting: 'hi' });
    assert.deepStrictEqual(
      cm.metadata.ownerReferences.map((o) => [o.uid, o.controller]),
      [[widget.metadata.uid, true]],
    );
    const events = await serve.json<{
      items: { reason: string; involvedObject: { name: string } }[];
    }>('GET', `/api/v1/namespaces/${ns}/events`, 200);
    assert.ok(
      events.items.some((e) => e.reason === 'Reconciled' && e.involvedObject.name === 'hello'),
      JSON.stringify(events.items),
    );
    assert.deepStrictEqual(leader.errors, []);
  });

  it("its LIST and WATCH of widgets show in the server's record of its clients", async () => {
    // client-node 1.4.0 sends node-fetch's User-Agent; the Clients view groups by it.
    const isControllerAgent = (ua: string | undefined) => /^node-fetch\//.test(ua ?? '');
    const state = await serve.state();
    const lists = state.recentLists.filter(
      (l) => l.resource.startsWith('widgets') && isControllerAgent(l.userAgent),
    );
    assert.ok(lists.length >= 1, JSON.stringify(state.recentLists));
    const watchers = state.watchers.filter(
      (w) => w.resource.startsWith('widgets') && isControllerAgent(w.userAgent),
    );
    assert.strictEqual(watchers.length, 1, JSON.stringify(state.watchers));
    assert.ok(watchers[0].clientRead.events >= 1, JSON.stringify(watchers[0]));
    const client = state.clients.find((c) => isControllerAgent(c.userAgent));
    assert.ok(
      client && client.lists >= 1 && client.watches >= 1 && client.writes >= 4,
      JSON.stringify(state.clients),
    );
  });
});
