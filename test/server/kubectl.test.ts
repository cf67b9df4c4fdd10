// Real kubectl against `listwatch serve`: every kubectl on the machine (Debian's 1.20 unpacked by
// `npm run test:setup`, the image's kubectl.1.27 … 1.33), each against a server of its own. Each
// test asserts what kubectl printed, the requests its -v=6 log records, and what the engine did
// (the objects the API returns afterwards, its /metrics). No upstream counterpart: upstream tests
// kubectl in test/cmd against a real kube-apiserver.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { recordKubectlTest, suiteKubectls } from './harness/clients';
import { eventually } from './harness/eventually';
import {
  deletedLine,
  kubectl,
  listThenWatchEnv,
  loggedRequests,
  requestsTo,
  startKubectl,
  watchListEnv,
  type Kubectl,
  type KubectlProcess,
} from './harness/kubectl';
import { sumMetric } from './harness/metrics-text';
import { ServeProcess, requestQuery, type PodObject } from './harness/serve-process';
import type { DebugStateView, RecentList } from '../../src/server/debug-state';

/** Pod LISTs the watch cache served (apiserver_cache_list_total). */
async function cacheLists(serve: ServeProcess): Promise<number> {
  return sumMetric(await serve.metrics(), 'apiserver_cache_list_total', { resource: 'pods' });
}

/** Watch-cache events of a resource (apiserver_watch_cache_events_received_total). */
async function configMapEventsReceived(serve: ServeProcess): Promise<number> {
  return sumMetric(await serve.metrics(), 'apiserver_watch_cache_events_received_total', {
    resource: 'configmaps',
  });
}

async function podEventsReceived(serve: ServeProcess): Promise<number> {
  return sumMetric(await serve.metrics(), 'apiserver_watch_cache_events_received_total', {
    resource: 'pods',
  });
}

/** The engine's recent pod LISTs whose request has `param=value`, oldest first. */
function listsWith(state: DebugStateView, param: string, value: string): RecentList[] {
  return state.recentLists
    .filter((l) => l.resource === 'pods' && requestQuery(l.requestLine).get(param) === value)
    .reverse();
}

/** A pod's containers, as `apply` sets them. */
interface PodWithContainers {
  spec: { containers: { name: string; image: string }[] };
}

/** Table output: the first column of every line but the header. */
function tableNames(stdout: string): string[] {
  return stdout
    .split('\n')
    .slice(1)
    .filter((l) => l.trim() !== '')
    .map((l) => l.split(/\s+/)[0]);
}

for (const k of suiteKubectls()) describeKubectl(k);

function describeKubectl(k: Kubectl): void {
  describe(`kubectl ${k.gitVersion} against listwatch serve`, function () {
    let serve: ServeProcess;
    let pods: string;
    /** kubectls a test started in the background, killed after it. */
    const background: KubectlProcess[] = [];
    const run = (args: string[], env: Record<string, string> = {}) =>
      kubectl(k, { kubeconfig: serve.info.kubeconfig, dir: serve.dir }, args, env);
    const start = (args: string[], env: Record<string, string> = {}): KubectlProcess => {
      const p = startKubectl(k, { kubeconfig: serve.info.kubeconfig, dir: serve.dir }, args, env);
      background.push(p);
      return p;
    };
    const getPod = (name: string) => serve.json<PodObject>('GET', `${pods}/${name}`, 200);

    before(async () => {
      serve = await ServeProcess.start();
      pods = `/api/v1/namespaces/${serve.namespace}/pods`;
      for (let i = 0; i < 5; i++) await serve.createPod(`chunk-${i}`, { app: 'chunk' });
    });
    beforeEach(() => recordKubectlTest(k));
    afterEach(async () => {
      for (const p of background.splice(0)) await p.kill();
    });
    after(async () => {
      if (serve) assert.strictEqual(await serve.stop(), 0, 'listwatch serve exit code on SIGTERM');
    });

    it('sends the kubeconfig token: get --raw /api answers the APIVersions', async () => {
      const r = await run(['get', '--raw', '/api']);
      const hint =
        serve.info.url.startsWith('http:') && /must be logged in/.test(r.stderr)
          ? " (client-go reads a kubeconfig's credentials only for an https server: clientcmd " +
            'client_config.go "only try to read the auth information if we are secure")'
          : '';
      assert.strictEqual(r.code, 0, `${r.stderr}${hint}`);
      assert.strictEqual((JSON.parse(r.stdout) as { kind: string }).kind, 'APIVersions');
    });

    it('get pods --chunk-size=2 pages with continue tokens: three LISTs, every pod once', async () => {
      const lists = await cacheLists(serve);
      const r = await run(['get', 'pods', '--chunk-size=2', '-l', 'app=chunk', '-v=6']);
      assert.strictEqual(r.code, 0, r.stderr);
      assert.match(r.stdout, /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\n/);
      assert.deepStrictEqual(
        tableNames(r.stdout),
        [0, 1, 2, 3, 4].map((i) => `chunk-${i}`),
      );
      const sent = requestsTo(r.stderr, pods);
      assert.deepStrictEqual(
        sent.map((s) => [
          s.verb,
          s.status,
          s.url.searchParams.get('limit'),
          s.url.searchParams.get('labelSelector'),
        ]),
        [0, 1, 2].map(() => ['GET', 200, '2', 'app=chunk']),
      );
      assert.strictEqual(sent[0].url.searchParams.get('continue'), null);
      assert.ok(sent[1].url.searchParams.get('continue'), 'page 2 sends the continue token');
      assert.ok(sent[2].url.searchParams.get('continue'), 'page 3 sends the continue token');
      assert.notStrictEqual(
        sent[1].url.searchParams.get('continue'),
        sent[2].url.searchParams.get('continue'),
      );
      assert.strictEqual((await cacheLists(serve)) - lists, 3, 'LISTs the watch cache served');
      const served = listsWith(await serve.state(), 'labelSelector', 'app=chunk').filter((l) =>
        (l.userAgent ?? '').startsWith('kubectl'),
      );
      // Page 1 is a consistent read from the cache; the continuations come from its snapshots.
      assert.deepStrictEqual(
        served.map((l) => [l.limit, l.returned, l.servedBy, l.rule, l.error]),
        [
          [2, 2, 'cache', 'consistent-read', undefined],
          [2, 2, 'cache', 'snapshot-available', undefined],
          [2, 1, 'cache', 'snapshot-available', undefined],
        ],
      );
    });

    it('get pods -o json prints the List with the objects the server stores', async () => {
      const r = await run(['get', 'pods', '-l', 'app=chunk', '-o', 'json']);
      assert.strictEqual(r.code, 0, r.stderr);
      const list = JSON.parse(r.stdout) as { kind: string; apiVersion: string; items: PodObject[] };
      assert.strictEqual(list.kind, 'List');
      assert.strictEqual(list.apiVersion, 'v1');
      assert.deepStrictEqual(
        list.items.map((p) => [p.kind, p.apiVersion, p.metadata.name]),
        [0, 1, 2, 3, 4].map((i) => ['Pod', 'v1', `chunk-${i}`]),
      );
      for (const item of list.items) {
        const stored = await getPod(item.metadata.name);
        assert.strictEqual(item.metadata.uid, stored.metadata.uid);
        assert.strictEqual(item.metadata.resourceVersion, stored.metadata.resourceVersion);
        assert.strictEqual(item.metadata.creationTimestamp, stored.metadata.creationTimestamp);
      }
    });

    it('create -f pod.yaml creates the pod: stored with uid, creationTimestamp, resourceVersion', async () => {
      const manifest = path.join(serve.dir, `pod-${k.gitVersion}.yaml`);
      fs.writeFileSync(
        manifest,
        [
          'apiVersion: v1',
          'kind: Pod',
          'metadata:',
          '  name: created-x',
          '  labels:',
          '    app: created',
          'spec:',
          '  containers:',
          '  - name: c',
          '    image: registry.k8s.io/pause:3.10',
          '',
        ].join('\n'),
      );
      const received = await podEventsReceived(serve);
      const r = await run(['create', '-f', manifest]);
      assert.strictEqual(r.code, 0, r.stderr);
      assert.strictEqual(r.stdout, 'pod/created-x created\n');
      const stored = await getPod('created-x');
      assert.deepStrictEqual(stored.metadata.labels, { app: 'created' });
      assert.match(
        stored.metadata.uid ?? '',
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
      assert.match(stored.metadata.creationTimestamp ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.match(stored.metadata.resourceVersion ?? '', /^[1-9]\d*$/);
      // The write reached the watch cache through etcd's watch.
      await eventually(async () =>
        assert.strictEqual((await podEventsReceived(serve)) - received, 1),
      );
    });

    it('create namespace and create configmap (typed clients: protobuf bodies) store the objects', async () => {
      const ns = `typed-${k.gitVersion.replace(/[^0-9]/g, '-')}`.replace(/-+$/, '');
      const created = await run(['create', 'namespace', ns, '-v=6']);
      assert.strictEqual(created.code, 0, created.stderr);
      assert.strictEqual(created.stdout, `namespace/${ns} created\n`);
      const cm = await run(['create', 'configmap', 'cfg', '-n', ns, '--from-literal=a=b']);
      assert.strictEqual(cm.code, 0, cm.stderr);
      assert.strictEqual(cm.stdout, 'configmap/cfg created\n');
      const stored = await serve.json<{
        data: Record<string, string>;
        metadata: { namespace: string };
      }>('GET', `/api/v1/namespaces/${ns}/configmaps/cfg`, 200);
      assert.deepStrictEqual(stored.data, { a: 'b' });
      assert.strictEqual(stored.metadata.namespace, ns);
      const got = await serve.json<{ status: { phase: string } }>(
        'GET',
        `/api/v1/namespaces/${ns}`,
        200,
      );
      assert.strictEqual(got.status.phase, 'Active');
    });

    it('create configmap --from-file of binary bytes (protobuf map<string,bytes>) stores binaryData as base64', async () => {
      const file = path.join(serve.dir, `bin-${k.gitVersion}`);
      fs.writeFileSync(file, Buffer.from([0x00, 0x01, 0xfe, 0xff]));
      const name = `bin-${k.gitVersion.replace(/[^0-9]/g, '-')}`.replace(/-+$/, '');
      const r = await run([
        'create',
        'configmap',
        name,
        `--from-file=blob=${file}`,
        '--from-literal=text=plain',
        '-v=6',
      ]);
      assert.strictEqual(r.code, 0, r.stderr);
      const stored = await serve.json<{
        data: Record<string, string>;
        binaryData: Record<string, string>;
      }>('GET', `/api/v1/namespaces/${serve.namespace}/configmaps/${name}`, 200);
      assert.deepStrictEqual(
        [stored.data, stored.binaryData],
        [{ text: 'plain' }, { blob: 'AAH+/w==' }],
      );
    });

    it('get cm --sort-by=.metadata.name prints every row in order (Table rows with includeObject=Object carry kind and apiVersion)', async () => {
      const ns = `sorted-${k.gitVersion.replace(/[^0-9]/g, '-')}`.replace(/-+$/, '');
      assert.strictEqual((await run(['create', 'namespace', ns])).code, 0);
      for (const name of ['cm-c', 'cm-a', 'cm-b']) {
        const r = await run(['create', 'configmap', name, '-n', ns, `--from-literal=k=${name}`]);
        assert.strictEqual(r.code, 0, r.stderr);
      }
      const r = await run(['get', 'cm', '-n', ns, '--sort-by=.metadata.name', '-v=6']);
      assert.strictEqual(r.code, 0, r.stderr);
      assert.deepStrictEqual(tableNames(r.stdout), ['cm-a', 'cm-b', 'cm-c'], r.stdout);
      assert.ok(!r.stdout.includes('<unknown>'), r.stdout);
      // The query that makes the server put each object in its row.
      const lists = requestsTo(r.stderr, `/api/v1/namespaces/${ns}/configmaps`);
      assert.deepStrictEqual(
        lists.map((l) => [l.verb, l.status, l.url.searchParams.get('includeObject')]),
        [['GET', 200, 'Object']],
        r.stderr,
      );
    });

    it('create configmap --dry-run=server -o yaml prints the object it would store and stores nothing', async () => {
      const cms = `/api/v1/namespaces/${serve.namespace}/configmaps`;
      const received = await configMapEventsReceived(serve);
      const r = await run([
        'create',
        'configmap',
        'dry-x',
        '--from-literal=a=b',
        '--dry-run=server',
        '-o',
        'yaml',
        '-v=6',
      ]);
      assert.strictEqual(r.code, 0, r.stderr);
      assert.deepStrictEqual(
        requestsTo(r.stderr, cms).map((s) => [s.verb, s.url.searchParams.get('dryRun'), s.status]),
        [['POST', 'All', 201]],
      );
      // The object as it would be stored: a uid and creationTimestamp, no resourceVersion.
      assert.match(r.stdout, /^ {2}name: dry-x$/m);
      assert.match(r.stdout, /^ {2}uid: [0-9a-f-]{36}$/m);
      assert.match(r.stdout, /^ {2}creationTimestamp: "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"$/m);
      assert.doesNotMatch(r.stdout, /resourceVersion/);
      const plain = await run([
        'create',
        'configmap',
        'dry-x',
        '--from-literal=a=b',
        '--dry-run=server',
      ]);
      assert.strictEqual(plain.code, 0, plain.stderr);
      assert.strictEqual(plain.stdout, 'configmap/dry-x created (server dry run)\n');
      const get = await run(['get', 'configmap', 'dry-x']);
      assert.strictEqual(get.code, 1);
      assert.strictEqual(
        get.stderr,
        'Error from server (NotFound): configmaps "dry-x" not found\n',
      );
      // Nothing reached etcd: the next event the watch cache receives is a real write's.
      await serve.json('POST', cms, 201, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'dry-real' },
      });
      await eventually(async () =>
        assert.strictEqual((await configMapEventsReceived(serve)) - received, 1),
      );
    });

    it('apply --dry-run=server creates and changes nothing; label --dry-run=server leaves the labels', async () => {
      const cms = `/api/v1/namespaces/${serve.namespace}/configmaps`;
      const manifest = path.join(serve.dir, `cm-dry-${k.gitVersion}.yaml`);
      const write = (value: string): void =>
        fs.writeFileSync(
          manifest,
          [
            'apiVersion: v1',
            'kind: ConfigMap',
            'metadata:',
            '  name: applied-dry',
            'data:',
            `  a: "${value}"`,
            '',
          ].join('\n'),
        );
      write('1');
      const create = await run(['apply', '--dry-run=server', '-f', manifest]);
      assert.strictEqual(create.code, 0, create.stderr);
      assert.strictEqual(create.stdout, 'configmap/applied-dry created (server dry run)\n');
      await serve.json('GET', `${cms}/applied-dry`, 404);

      const applied = await run(['apply', '-f', manifest]);
      assert.strictEqual(applied.code, 0, applied.stderr);
      const before = await serve.json<{
        data: Record<string, string>;
        metadata: { resourceVersion: string; labels?: Record<string, string> };
      }>('GET', `${cms}/applied-dry`, 200);
      write('2');
      const change = await run([
        'apply',
        '--dry-run=server',
        '-f',
        manifest,
        '-o',
        'jsonpath={.data.a}',
      ]);
      assert.strictEqual(change.code, 0, change.stderr);
      assert.strictEqual(change.stdout, '2');
      const label = await run([
        'label',
        'configmap',
        'applied-dry',
        'tier=x',
        '--dry-run=server',
        '-v=6',
      ]);
      assert.strictEqual(label.code, 0, label.stderr);
      // kubectl 1.20's label printer adds no dry-run suffix (client-side text; it still sends dryRun).
      const suffix = k.minor < 27 ? '' : ' (server dry run)';
      assert.strictEqual(label.stdout, `configmap/applied-dry labeled${suffix}\n`);
      assert.deepStrictEqual(
        requestsTo(label.stderr, `${cms}/applied-dry`).map((s) => [
          s.verb,
          s.url.searchParams.get('dryRun'),
          s.status,
        ]),
        [
          ['GET', null, 200],
          ['PATCH', 'All', 200],
        ],
      );
      const after = await serve.json('GET', `${cms}/applied-dry`, 200);
      assert.deepStrictEqual(after, before);
    });

    // kubectl explain reads the served OpenAPI: v3 (index, then the group version's document) from
    // 1.27, the v2 protobuf document before. Each field's description comes from the package's
    // definitions (src/server/openapi-definitions.ts).
    const explained: [field: string, kind: string, says: RegExp][] = [
      ['pods.spec.containers', 'Pod', /List of containers belonging to the pod\./],
      ['pods.spec.containers.ports', 'Pod', /List of ports to expose from the container\./],
      ['configmaps.data', 'ConfigMap', /Data contains the configuration data\./],
      ['namespaces.spec.finalizers', 'Namespace', /Finalizers is an opaque list of values/],
    ];
    for (const [field, kind, says] of explained) {
      it(`explain ${field} prints the field's schema from the served OpenAPI`, async () => {
        const r = await run(['explain', field, '-v=6']);
        assert.strictEqual(r.code, 0, r.stderr);
        assert.match(r.stdout, new RegExp(`^KIND:\\s+${kind}\\nVERSION:\\s+v1\\n`));
        assert.match(r.stdout.replace(/\s+/g, ' '), says);
        const openapi = loggedRequests(r.stderr)
          .map((s) => s.url.pathname)
          .filter((p) => p.startsWith('/openapi/'));
        const want = k.minor >= 27 ? '/openapi/v3/api/v1' : '/openapi/v2';
        assert.ok(openapi.includes(want), `${want} among ${openapi.join(', ')}`);
      });
    }

    // Before 1.25 kubectl validates a manifest itself, against the v2 document's definitions.
    if (k.minor < 25)
      it('create -f pod.yaml with an unknown container field is refused by the client, from the served v2 schema', async () => {
        const manifest = path.join(serve.dir, `pod-bogus-${k.gitVersion}.yaml`);
        fs.writeFileSync(
          manifest,
          'apiVersion: v1\nkind: Pod\nmetadata:\n  name: bogus\nspec:\n  containers:\n  - name: a\n    image: busybox\n    bogus: 1\n',
        );
        const r = await run(['create', '-f', manifest]);
        assert.strictEqual(r.code, 1, r.stdout);
        assert.match(
          r.stderr,
          /ValidationError\(Pod\.spec\.containers\[0\]\): unknown field "bogus" in io\.k8s\.api\.core\.v1\.Container/,
        );
        await serve.json('GET', `${pods}/bogus`, 404);
      });

    it('apply -f pod.yaml twice: the second apply patches the containers merged by name (the served patch merge keys)', async () => {
      const manifest = path.join(serve.dir, `pod-apply-${k.gitVersion}.yaml`);
      const write = (containers: [name: string, image: string][]): void =>
        fs.writeFileSync(
          manifest,
          [
            'apiVersion: v1',
            'kind: Pod',
            'metadata:',
            '  name: applied-pod',
            'spec:',
            '  containers:',
            ...containers.flatMap(([name, image]) => [`  - name: ${name}`, `    image: ${image}`]),
            '',
          ].join('\n'),
        );
      write([
        ['a', 'busybox:1'],
        ['b', 'busybox:1'],
      ]);
      const created = await run(['apply', '-f', manifest]);
      assert.strictEqual(created.code, 0, created.stderr);
      assert.strictEqual(created.stdout, 'pod/applied-pod created\n');
      // The container another client added is kept; b, dropped from the manifest, goes.
      const added = await serve.request('PATCH', `${pods}/applied-pod`, {
        body: { spec: { containers: [{ name: 'sidecar', image: 'busybox:1' }] } },
        headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
      });
      assert.strictEqual(added.status, 200, added.body);
      assert.deepStrictEqual(
        (JSON.parse(added.body) as PodWithContainers).spec.containers.map((c) => c.name).sort(),
        ['a', 'b', 'sidecar'],
      );
      write([['a', 'busybox:2']]);
      const patched = await run(['apply', '-f', manifest, '-v=6']);
      assert.strictEqual(patched.code, 0, patched.stderr);
      assert.strictEqual(patched.stdout, 'pod/applied-pod configured\n');
      assert.deepStrictEqual(
        requestsTo(patched.stderr, `${pods}/applied-pod`).map((s) => [s.verb, s.status]),
        [
          ['GET', 200],
          ['PATCH', 200],
        ],
      );
      const pod = await serve.json<PodWithContainers>('GET', `${pods}/applied-pod`, 200);
      assert.deepStrictEqual(pod.spec.containers.map((c) => [c.name, c.image]).sort(), [
        ['a', 'busybox:2'],
        ['sidecar', 'busybox:1'],
      ]);
    });

    it('create -f configmap.yaml: a key named __proto__ is stored; a key with a space is refused with the 422 kube-apiserver answers', async () => {
      const manifest = path.join(serve.dir, `cm-keys-${k.gitVersion}.yaml`);
      const write = (name: string, key: string) =>
        fs.writeFileSync(
          manifest,
          `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  ${key}: p\n  constructor: c\n`,
        );
      write('keys-ok', '__proto__');
      const ok = await run(['create', '-f', manifest]);
      assert.strictEqual(ok.code, 0, ok.stderr);
      const got = await run(['get', 'configmap', 'keys-ok', '-o', 'jsonpath={.data}']);
      assert.strictEqual(got.stdout, '{"__proto__":"p","constructor":"c"}');
      write('keys-bad', "'a b'");
      const bad = await run(['create', '-f', manifest]);
      assert.notStrictEqual(bad.code, 0);
      assert.ok(
        bad.stderr.includes(
          `The ConfigMap "keys-bad" is invalid: data[a b]: Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
        ),
        bad.stderr,
      );
    });

    it('label pod x a=b patches the labels: a new resourceVersion, the old labels kept', async () => {
      const before = await serve.createPod('labeled-x', { app: 'label' });
      const r = await run(['label', 'pod', 'labeled-x', 'a=b', '-v=6']);
      assert.strictEqual(r.code, 0, r.stderr);
      assert.strictEqual(r.stdout, 'pod/labeled-x labeled\n');
      assert.deepStrictEqual(
        requestsTo(r.stderr, `${pods}/labeled-x`).map((s) => [s.verb, s.status]),
        [
          ['GET', 200],
          ['PATCH', 200],
        ],
      );
      const after = await getPod('labeled-x');
      assert.deepStrictEqual(after.metadata.labels, { app: 'label', a: 'b' });
      assert.strictEqual(after.metadata.uid, before.metadata.uid);
      assert.ok(
        Number(after.metadata.resourceVersion) > Number(before.metadata.resourceVersion),
        `resourceVersion ${after.metadata.resourceVersion} after ${before.metadata.resourceVersion}`,
      );
    });

    it('delete pod x, while wait --for=delete (a client-go reflector: LIST, then WATCH) sees it go', async () => {
      await serve.createPod('deleted-x', { app: 'delete' });
      const waiter = start(
        ['wait', '--for=delete', 'pod/deleted-x', '--timeout=60s', '-v=6'],
        listThenWatchEnv(k),
      );
      // The reflector's watch is logged once its headers arrive: from then on it sees the delete.
      await waiter.until(
        (p) => requestsTo(p.stderr, pods).some((s) => s.url.searchParams.get('watch') === 'true'),
        'its reflector watched',
      );
      const r = await run(['delete', 'pod', 'deleted-x']);
      assert.strictEqual(r.code, 0, r.stderr);
      assert.strictEqual(r.stdout, deletedLine(k, 'pod "deleted-x"', serve.namespace));
      const w = await waiter.exited;
      assert.strictEqual(w.code, 0, w.stderr);
      assert.strictEqual(w.stdout, 'pod/deleted-x condition met\n');
      const sent = requestsTo(w.stderr, pods).map((s) => s.url.searchParams);
      const reflector = k.minor >= 27;
      assert.deepStrictEqual(
        sent.map((q) => [
          q.get('fieldSelector'),
          q.get('watch'),
          q.get('limit'),
          q.get('allowWatchBookmarks'),
        ]),
        reflector
          ? [
              ['metadata.name=deleted-x', null, '500', null],
              ['metadata.name=deleted-x', 'true', null, 'true'],
            ]
          : // 1.20 lists and watches without client-go's reflector (no paging, no bookmarks).
            [
              ['metadata.name=deleted-x', null, null, null],
              ['metadata.name=deleted-x', 'true', null, null],
            ],
      );
      // The reflector LISTs from the watch cache (resourceVersion=0); 1.20's LIST is consistent.
      assert.strictEqual(sent[0].get('resourceVersion'), reflector ? '0' : null);
      assert.match(sent[1].get('resourceVersion') ?? '', /^[1-9]\d*$/);
      // The engine served the wait's LIST (the oldest with its selector: 1.20's delete lists
      // too) from the watch cache: the reflector's at resourceVersion=0, 1.20's consistent one.
      const served = listsWith(await serve.state(), 'fieldSelector', 'metadata.name=deleted-x');
      assert.deepStrictEqual(
        [served[0]?.resourceVersion, served[0]?.servedBy],
        [reflector ? '0' : '', 'cache'],
      );
      const gone = await serve.request('GET', `${pods}/deleted-x`);
      assert.strictEqual(gone.status, 404, gone.body);
      assert.strictEqual((JSON.parse(gone.body) as { reason: string }).reason, 'NotFound');
    });

    it('get pods -w prints the list, then a pod created later, from a watch at the list resourceVersion', async () => {
      const first = await serve.createPod('watched-0', { app: 'watch' });
      const watcher = start(['get', 'pods', '-w', '-l', 'app=watch', '-v=6']);
      await watcher.until((p) => /^watched-0\s/m.test(p.stdout), 'it printed the listed pod');
      const later = await serve.createPod('watched-1', { app: 'watch' });
      await watcher.until(
        (p) => /^watched-1\s/m.test(p.stdout),
        'it printed the pod created later',
      );
      const ofWatch = (state: DebugStateView) =>
        state.watchers.filter(
          (w) =>
            w.resource === 'pods' &&
            requestQuery(w.requestLine).get('labelSelector') === 'app=watch',
        );
      const live = ofWatch(await serve.state());
      assert.deepStrictEqual(
        live.map((w) => [w.userAgent?.split('/')[0], w.allowWatchBookmarks]),
        [[path.basename(k.path), false]],
      );
      const r = await watcher.kill();
      // A client gone mid-stream leaves no watcher behind.
      await eventually(async () => assert.deepStrictEqual(ofWatch(await serve.state()), []));
      assert.deepStrictEqual(tableNames(r.stdout), ['watched-0', 'watched-1']);
      const sent = requestsTo(r.stderr, pods).map((s) => s.url.searchParams);
      assert.deepStrictEqual(
        sent.map((q) => [q.get('labelSelector'), q.get('watch'), q.get('limit')]),
        [
          ['app=watch', null, '500'],
          ['app=watch', 'true', null],
        ],
      );
      // kubectl asks for neither bookmarks nor a timeout; it watches from the list's RV, which
      // holds the first pod and not the second.
      assert.strictEqual(sent[1].get('allowWatchBookmarks'), null);
      assert.strictEqual(sent[1].get('timeoutSeconds'), null);
      const rv = Number(sent[1].get('resourceVersion'));
      assert.ok(
        rv >= Number(first.metadata.resourceVersion) && rv < Number(later.metadata.resourceVersion),
        `watch from ${rv}: watched-0 at ${first.metadata.resourceVersion}, watched-1 at ${later.metadata.resourceVersion}`,
      );
    });

    it('get pods -w --field-selector metadata.name=x: the watcher selects the name once, and the state says what kubectl read', async () => {
      const listed = await serve.createPod('fielded', { app: 'field' });
      const watcher = start(['get', 'pods', '-w', '--field-selector', 'metadata.name=fielded']);
      await watcher.until((p) => /^fielded\s/m.test(p.stdout), 'it printed the listed pod');
      const ofWatch = (state: DebugStateView) =>
        state.watchers.filter(
          (w) =>
            w.resource === 'pods' &&
            requestQuery(w.requestLine).get('fieldSelector') === 'metadata.name=fielded',
        );
      await eventually(async () => assert.strictEqual(ofWatch(await serve.state()).length, 1));
      let latest = listed;
      for (const touched of ['once', 'twice']) {
        const o = { ...latest, metadata: { ...latest.metadata, annotations: { touched } } };
        latest = await serve.json<PodObject>('PUT', `${pods}/fielded`, 200, o);
      }
      await watcher.until(
        (p) => tableNames(p.stdout).length === 3,
        'it printed the pod and both updates',
      );
      const [w] = ofWatch(await serve.state());
      assert.match(w.identifier, /fields: "metadata\.name=fielded"$/);
      // What kubectl read: the two updates, the last at the second update's RV.
      assert.deepStrictEqual(w.clientRead, {
        events: 2,
        lastResourceVersion: Number(latest.metadata.resourceVersion),
      });
      await watcher.kill();
    });

    const env = watchListEnv(k);
    if (env) {
      const gate = Object.keys(env)[0];
      it(`wait --for=delete with ${gate}=true: one WatchList stream, synced by the k8s.io/initial-events-end bookmark`, async () => {
        await serve.createPod('watchlist-x', { app: 'watchlist' });
        const initEvents = sumMetric(await serve.metrics(), 'apiserver_init_events_total', {
          resource: 'pods',
        });
        const waiter = start(
          ['wait', '--for=delete', 'pod/watchlist-x', '--timeout=60s', '-v=6'],
          env,
        );
        await waiter.until(
          (p) => requestsTo(p.stderr, pods).some((s) => s.url.searchParams.get('watch') === 'true'),
          'its reflector opened the WatchList stream',
        );
        await serve.json('DELETE', `${pods}/watchlist-x`, 200);
        // Without the bookmark the reflector never syncs and the wait times out.
        const w = await waiter.exited;
        assert.strictEqual(w.code, 0, w.stderr);
        assert.strictEqual(w.stdout, 'pod/watchlist-x condition met\n');
        const sent = requestsTo(w.stderr, pods);
        assert.strictEqual(sent.length, 1, 'no LIST: the stream replaces it');
        const q = sent[0].url.searchParams;
        assert.deepStrictEqual(
          [
            q.get('watch'),
            q.get('sendInitialEvents'),
            q.get('resourceVersionMatch'),
            q.get('allowWatchBookmarks'),
            q.get('fieldSelector'),
          ],
          ['true', 'true', 'NotOlderThan', 'true', 'metadata.name=watchlist-x'],
        );
        assert.strictEqual(sent[0].status, 200);
        // The engine served the pod as an initial event from the watch cache.
        const after = sumMetric(await serve.metrics(), 'apiserver_init_events_total', {
          resource: 'pods',
        });
        assert.ok(
          after - initEvents >= 1,
          `apiserver_init_events_total grew by ${after - initEvents}`,
        );
        assert.deepStrictEqual(
          listsWith(await serve.state(), 'fieldSelector', 'metadata.name=watchlist-x'),
          [],
          'the engine served no LIST',
        );
      });
    }
  });
}
