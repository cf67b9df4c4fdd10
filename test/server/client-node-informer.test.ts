// Real @kubernetes/client-node (1.4.0, the Node 20 line) makeInformer against `listwatch serve`:
// its LIST, the watch events it turns into add/update/delete, and the relist after a 410 that the
// expire-history fault causes. Each test asserts what the informer emitted and what the engine did.
// No upstream counterpart (client-node's own tests use a mocked server).
import * as assert from 'assert';
import { CoreV1Api, KubeConfig, makeInformer, type V1Pod } from '@kubernetes/client-node';
import { recordClientNodeTest, suiteKubectls } from './harness/clients';
import { eventually } from './harness/eventually';
import { sumMetric } from './harness/metrics-text';
import { ServeProcess, requestQuery } from './harness/serve-process';

// The table of clients comes first whichever suite file mocha loads first.
suiteKubectls();

type Verb = 'add' | 'update' | 'delete';

/** An informer and everything it emitted, as `verb name@resourceVersion`. */
class InformerProbe {
  readonly events: { verb: Verb; name: string; rv: string }[] = [];
  readonly errors: unknown[] = [];
  lists = 0;
  private readonly informer: ReturnType<typeof makeInformer<V1Pod>>;
  /** Holds the next LIST until released (a pod deleted while the informer is between watches). */
  private gate: Promise<void> | undefined;

  constructor(serve: ServeProcess, labelSelector: string) {
    const kc = new KubeConfig();
    kc.loadFromFile(serve.info.kubeconfig);
    const api = kc.makeApiClient(CoreV1Api);
    const namespace = serve.namespace;
    this.informer = makeInformer<V1Pod>(
      kc,
      `/api/v1/namespaces/${namespace}/pods`,
      async () => {
        this.lists++;
        if (this.gate) await this.gate;
        return api.listNamespacedPod({ namespace, labelSelector });
      },
      labelSelector,
    );
    for (const verb of ['add', 'update', 'delete'] as const) {
      this.informer.on(verb, (pod) =>
        this.events.push({
          verb,
          name: pod.metadata?.name ?? '',
          rv: pod.metadata?.resourceVersion ?? '',
        }),
      );
    }
    this.informer.on('error', (err) => this.errors.push(err));
  }

  start(): Promise<void> {
    return this.informer.start();
  }

  /** Stops it (client-node then emits an error of its own, which is not the server's). */
  async stop(): Promise<void> {
    const errors = this.errors.length;
    await this.informer.stop();
    this.errors.splice(errors);
  }

  /** The next LIST waits for the returned release function. */
  holdNextList(): () => void {
    let release = (): void => undefined;
    this.gate = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.gate = undefined;
      release();
    };
  }

  /** Resolves once `verb` was emitted for `name` (at `rv`, when given). */
  async saw(verb: Verb, name: string, rv?: string): Promise<void> {
    await eventually(() =>
      assert.ok(
        this.events.some((e) => e.verb === verb && e.name === name && (!rv || e.rv === rv)),
        `no ${verb} ${name}${rv ? `@${rv}` : ''} in ${this.names()}`,
      ),
    );
  }

  names(): string {
    return JSON.stringify(this.events.map((e) => `${e.verb} ${e.name}@${e.rv}`));
  }

  cached(): string[] {
    return this.informer
      .list()
      .map((p) => p.metadata?.name ?? '')
      .sort();
  }
}

/** Pod LISTs the watch cache served (apiserver_cache_list_total). */
async function cacheLists(serve: ServeProcess): Promise<number> {
  return sumMetric(await serve.metrics(), 'apiserver_cache_list_total', { resource: 'pods' });
}

describe('@kubernetes/client-node makeInformer against listwatch serve', function () {
  let serve: ServeProcess;
  let pods: string;
  const probes: InformerProbe[] = [];
  const informer = (labelSelector: string): InformerProbe => {
    const p = new InformerProbe(serve, labelSelector);
    probes.push(p);
    return p;
  };

  before(async () => {
    serve = await ServeProcess.start();
    pods = `/api/v1/namespaces/${serve.namespace}/pods`;
  });
  beforeEach(() => recordClientNodeTest());
  afterEach(async () => {
    for (const p of probes.splice(0)) await p.stop();
  });
  after(async () => {
    if (serve) assert.strictEqual(await serve.stop(), 0, 'listwatch serve exit code on SIGTERM');
  });

  it('lists the pods (add for each), then watches: add for a pod created later', async () => {
    const a = await serve.createPod('listed-a', { app: 'list' });
    const b = await serve.createPod('listed-b', { app: 'list' });
    await serve.createPod('other', { app: 'not-this-one' });
    const lists = await cacheLists(serve);
    const p = informer('app=list');
    await p.start();
    await p.saw('add', 'listed-a', a.metadata.resourceVersion);
    await p.saw('add', 'listed-b', b.metadata.resourceVersion);
    assert.strictEqual(p.lists, 1);
    assert.strictEqual((await cacheLists(serve)) - lists, 1, 'LISTs the watch cache served');
    const c = await serve.createPod('listed-c', { app: 'list' });
    await p.saw('add', 'listed-c', c.metadata.resourceVersion);
    assert.deepStrictEqual(p.cached(), ['listed-a', 'listed-b', 'listed-c']);
    assert.deepStrictEqual(p.errors, []);
  });

  it('emits update for a merge patch and delete for a deleted pod, at the server resourceVersions', async () => {
    await serve.createPod('changed', { app: 'change' });
    const created = await serve.createPod('deleted', { app: 'change' });
    const p = informer('app=change');
    await p.start();
    await p.saw('add', 'deleted', created.metadata.resourceVersion);
    const patched = await serve.request('PATCH', `${pods}/changed`, {
      body: { metadata: { labels: { extra: 'yes' } } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    assert.strictEqual(patched.status, 200, patched.body);
    const rv = (JSON.parse(patched.body) as V1Pod).metadata?.resourceVersion;
    await p.saw('update', 'changed', rv);
    await serve.json('DELETE', `${pods}/deleted`, 200);
    await p.saw('delete', 'deleted');
    // The DELETED event carries the object at the revision of its deletion.
    const deletedAt = Number(p.events.find((e) => e.verb === 'delete')?.rv);
    assert.ok(deletedAt > Number(rv), `deleted at ${deletedAt}, patched at ${rv}`);
    assert.deepStrictEqual(p.cached(), ['changed']);
    assert.deepStrictEqual(p.errors, []);
  });

  it('relists after the 410 that expire-history causes, and emits delete for a pod gone meanwhile', async () => {
    await serve.createPod('kept', { app: 'relist' });
    await serve.createPod('gone', { app: 'relist' });
    const p = informer('app=relist');
    await p.start();
    await p.saw('add', 'kept');
    await p.saw('add', 'gone');
    // Writes the informer's selector does not see: the watch cache moves past the informer's
    // resourceVersion, so once the history is dropped, resuming from it is too old.
    await serve.createPod('unseen-1', { app: 'elsewhere' });
    await serve.createPod('unseen-2', { app: 'elsewhere' });
    const lists = await cacheLists(serve);
    const release = p.holdNextList();
    await serve.fault('expire-history', { resource: 'pods' });
    // End the informer's watch as the cacher ends an unresponsive one: it resumes from its RV.
    const ofInformer = (await serve.state()).watchers.filter(
      (w) =>
        w.resource === 'pods' && requestQuery(w.requestLine).get('labelSelector') === 'app=relist',
    );
    assert.strictEqual(ofInformer.length, 1, JSON.stringify(ofInformer));
    await serve.fault('terminate-watcher', { id: ofInformer[0].id });
    // The 410 ended the watch: the informer relists, and its LIST waits here while a pod goes.
    await eventually(() => assert.strictEqual(p.lists, 2, 'the informer relisted'));
    await serve.json('DELETE', `${pods}/gone`, 200);
    release();
    await p.saw('delete', 'gone');
    assert.deepStrictEqual(p.cached(), ['kept']);
    assert.strictEqual((await cacheLists(serve)) - lists, 1, 'LISTs the watch cache served');
    const relists = (await serve.state()).recentLists.filter(
      (l) =>
        l.resource === 'pods' && requestQuery(l.requestLine).get('labelSelector') === 'app=relist',
    );
    assert.strictEqual(relists.length, 2, 'the first LIST and the relist');
    // The informer watches again from the new list: a later pod arrives as add.
    const later = await serve.createPod('later', { app: 'relist' });
    await p.saw('add', 'later', later.metadata.resourceVersion);
    assert.deepStrictEqual(p.errors, []);
  });
});
