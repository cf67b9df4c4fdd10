// CustomResourceDefinitions through the API, with the newest kubectl against `listwatch serve` (and
// with `--etcd spawn`): apply of a CRD serves it (wait --for=condition=established, api-resources,
// discovery, a served: false version 404), its custom objects are pruned, printed with its
// additionalPrinterColumns, explained from its schema, their status written through /status;
// invalid CRDs are refused with apiextensions-apiserver's messages; delete of the CRD deletes its
// custom objects, ends their watches and stops serving them. No upstream counterpart: upstream
// tests this in test/integration/apiserver/crd and test/cmd/crd.sh against a real kube-apiserver.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { recordKubectlTest, suiteKubectls } from './harness/clients';
import { kubectl, startKubectl, type Kubectl } from './harness/kubectl';
import { ServeProcess } from './harness/serve-process';

const fixture = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'crd', 'gadgets.yaml');
const crdText = fs.readFileSync(fixture, 'utf8');

const gadget = (name: string, extra = ''): string =>
  `apiVersion: example.org/v1\nkind: Gadget\nmetadata:\n  name: ${name}\nspec:\n  size: 3\n${extra}`;

/** Invalid CRDs (the fixture changed one way) and apiextensions-apiserver's 422 message. */
const invalidCases: Array<{ name: string; edit: (t: string) => string; want: string }> = [
  {
    name: 'a name that is not <plural>.<group>',
    edit: (t) => t.replace('name: gadgets.example.org', 'name: gizmos.example.org'),
    want: 'The CustomResourceDefinition "gizmos.example.org" is invalid: metadata.name: Invalid value: "gizmos.example.org": must be spec.names.plural+"."+spec.group\n',
  },
  {
    name: 'a property without a type',
    edit: (t) =>
      t.replace(
        '              color:\n                type: string\n',
        '              color:\n                description: no type\n',
      ),
    want: 'The CustomResourceDefinition "gadgets.example.org" is invalid: spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[color].type: Required value: must not be empty for specified object fields\n',
  },
  {
    name: 'no storage version',
    edit: (t) => t.replace('    storage: true', '    storage: false'),
    want: 'must have exactly one version marked as storage version',
  },
  {
    name: 'a group without a dot',
    edit: (t) =>
      t
        .replace('name: gadgets.example.org', 'name: gadgets.example')
        .replace('group: example.org', 'group: example'),
    want: 'The CustomResourceDefinition "gadgets.example" is invalid: spec.group: Invalid value: "example": should be a domain with at least one dot\n',
  },
];

/** A CRD with two served versions: v1 (storage) has spec.color and a Color column, v1beta1 not. */
const widgetsCrd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1beta1
    served: true
    storage: false
    additionalPrinterColumns:
    - {name: Size, type: integer, jsonPath: .spec.size}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer}}}
  - name: v1
    served: true
    storage: true
    additionalPrinterColumns:
    - {name: Color, type: string, jsonPath: .spec.color}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer}, color: {type: string}}}
`;

const kubectls = suiteKubectls();
if (kubectls.length > 0) {
  const newest = kubectls[kubectls.length - 1];
  describeKubectl(newest, []);
  describeKubectl(newest, ['--etcd', 'spawn']);
}

function describeKubectl(k: Kubectl, serveArgs: readonly string[]): void {
  const against = serveArgs.length ? `listwatch serve ${serveArgs.join(' ')}` : 'listwatch serve';
  describe(`kubectl ${k.gitVersion}: CustomResourceDefinitions through the API against ${against}`, function () {
    let serve: ServeProcess;
    const target = () => ({ kubeconfig: serve.info.kubeconfig, dir: serve.dir });
    const run = (args: string[]) => kubectl(k, target(), args);
    const ok = async (args: string[]): Promise<string> => {
      const r = await run(args);
      assert.strictEqual(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
      return r.stdout;
    };
    const write = (name: string, text: string): string => {
      const file = path.join(serve.dir, name);
      fs.writeFileSync(file, text);
      return file;
    };
    const cr = (ns: string, name = '') =>
      `/apis/example.org/v1/namespaces/${ns}/gadgets${name ? `/${name}` : ''}`;

    before(async () => {
      serve = await ServeProcess.start(serveArgs);
    });
    beforeEach(() => recordKubectlTest(k));
    after(async () => {
      if (serve) assert.strictEqual(await serve.stop(), 0, 'listwatch serve exit code on SIGTERM');
    });

    it('before the CRD: get gadgets has no resource type', async () => {
      const r = await run(['get', 'gadgets']);
      assert.strictEqual(r.code, 1);
      assert.strictEqual(r.stderr, 'error: the server doesn\'t have a resource type "gadgets"\n');
    });

    it('apply -f of the CRD, wait --for=condition=established, its status as upstream writes it', async () => {
      assert.strictEqual(
        await ok(['apply', '-f', fixture]),
        'customresourcedefinition.apiextensions.k8s.io/gadgets.example.org created\n',
      );
      assert.strictEqual(
        await ok([
          'wait',
          '--for=condition=established',
          'crd/gadgets.example.org',
          '--timeout=60s',
        ]),
        'customresourcedefinition.apiextensions.k8s.io/gadgets.example.org condition met\n',
      );
      const crd = await serve.json<{
        metadata: { generation: number };
        spec: { conversion: unknown };
        status: {
          acceptedNames: unknown;
          conditions: Array<{ type: string; status: string; reason: string; message: string }>;
          storedVersions: string[];
        };
      }>('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.example.org', 200);
      assert.strictEqual(crd.metadata.generation, 1);
      assert.deepStrictEqual(crd.spec.conversion, { strategy: 'None' });
      assert.deepStrictEqual(crd.status.acceptedNames, {
        plural: 'gadgets',
        singular: 'gadget',
        shortNames: ['gd'],
        kind: 'Gadget',
        listKind: 'GadgetList',
        categories: ['all', 'toys'],
      });
      assert.deepStrictEqual(
        crd.status.conditions.map(({ type, status, reason, message }) => [
          type,
          status,
          reason,
          message,
        ]),
        [
          ['NamesAccepted', 'True', 'NoConflicts', 'no conflicts found'],
          ['Established', 'True', 'InitialNamesAccepted', 'the initial names have been accepted'],
        ],
      );
      assert.deepStrictEqual(crd.status.storedVersions, ['v1']);
    });

    it('api-resources and discovery list it with its names, short names, categories and scope; the served: false version is 404', async () => {
      const r = await ok(['api-resources', '--api-group=example.org', '-o', 'wide']);
      const [header, row] = r.split('\n');
      assert.match(
        header,
        /^NAME\s+SHORTNAMES\s+APIVERSION\s+NAMESPACED\s+KIND\s+VERBS\s+CATEGORIES$/,
      );
      assert.deepStrictEqual(row.split(/\s+/), [
        'gadgets',
        'gd',
        'example.org/v1',
        'true',
        'Gadget',
        'create,delete,deletecollection,get,list,patch,update,watch',
        'all,toys',
      ]);
      const group = await serve.json<{ versions: unknown[] }>('GET', '/apis/example.org', 200);
      assert.deepStrictEqual(group.versions, [{ groupVersion: 'example.org/v1', version: 'v1' }]);
      for (const p of [
        '/apis/example.org/v1beta1',
        `/apis/example.org/v1beta1/namespaces/${serve.namespace}/gadgets`,
      ])
        assert.strictEqual((await serve.request('GET', p)).status, 404, p);
    });

    it("create of a Gadget: unknown fields refused under kubectl's strict validation, pruned without it", async () => {
      const strict = await run([
        'create',
        '-f',
        write('g-extra.yaml', gadget('g0', '  extra: x\n')),
      ]);
      assert.strictEqual(strict.code, 1);
      assert.match(
        strict.stderr,
        /Gadget in version "v1" cannot be handled as a Gadget: strict decoding error: unknown field "spec.extra"\n$/,
      );
      assert.strictEqual(
        await ok([
          'create',
          '--validate=false',
          '-f',
          write('g1.yaml', gadget('g1', '  extra: x\n')),
        ]),
        'gadget.example.org/g1 created\n',
      );
      const stored = await serve.json<{ spec: unknown; status?: unknown }>(
        'GET',
        cr(serve.namespace, 'g1'),
        200,
      );
      assert.deepStrictEqual(stored.spec, { size: 3 });
    });

    it('get prints the additionalPrinterColumns; patch --subresource=status fills Phase', async () => {
      const before = await ok(['get', 'gadgets']);
      assert.match(before, /^NAME\s+SIZE\s+PHASE\s+AGE\ng1\s+3\s+\d+s\n$/);
      assert.strictEqual(
        await ok([
          'patch',
          'gd',
          'g1',
          '--subresource=status',
          '--type=merge',
          '-p',
          '{"status":{"phase":"Ready"}}',
        ]),
        'gadget.example.org/g1 patched\n',
      );
      assert.match(
        await ok(['get', 'gadgets']),
        /^NAME\s+SIZE\s+PHASE\s+AGE\ng1\s+3\s+Ready\s+\d+s\n$/,
      );
      // The main resource keeps status (the status subresource is declared).
      await ok([
        'patch',
        'gd',
        'g1',
        '--type=merge',
        '-p',
        '{"status":{"phase":"Lost"},"spec":{"size":4}}',
      ]);
      assert.strictEqual(
        await ok(['get', 'gd', 'g1', '-o', 'jsonpath={.spec.size} {.status.phase}']),
        '4 Ready',
      );
    });

    it('apply of a changed CRD: generation 2, the Gadgets printed with the new column, kept', async () => {
      const changed = write('changed.yaml', crdText.replace('- name: Size', '- name: Bigness'));
      assert.strictEqual(
        await ok(['apply', '-f', changed]),
        'customresourcedefinition.apiextensions.k8s.io/gadgets.example.org configured\n',
      );
      assert.strictEqual(
        await ok(['get', 'crd', 'gadgets.example.org', '-o', 'jsonpath={.metadata.generation}']),
        '2',
      );
      // The controller rebuilds what it serves after the write; kubectl sees it at once or soon.
      let out = '';
      while (!/^NAME\s+BIGNESS\s/.test(out)) out = await ok(['get', 'gadgets']);
      assert.match(out, /^NAME\s+BIGNESS\s+PHASE\s+AGE\ng1\s+4\s+Ready\s+\d+s\n$/);
    });

    it('explain gadget.spec reads the schema from OpenAPI', async () => {
      const out = await ok(['explain', 'gadget.spec']);
      assert.match(out, /^GROUP:\s+example\.org\nKIND:\s+Gadget\nVERSION:\s+v1\n/);
      assert.match(out, /What the gadget should be\./);
      assert.match(out, /size\t<integer>\n\s+How big the gadget is\./);
    });

    for (const c of invalidCases)
      it(`apply of an invalid CRD is refused: ${c.name}`, async () => {
        const r = await run(['apply', '-f', write('invalid.yaml', c.edit(crdText))]);
        assert.strictEqual(r.code, 1, c.name);
        if (c.want.endsWith('\n')) assert.strictEqual(r.stderr, c.want, c.name);
        else assert.ok(r.stderr.includes(c.want), `${c.name}: ${r.stderr}`);
      });

    it('a CRD whose plural is taken in its group: NamesAccepted False, not established', async () => {
      const twin = crdText
        .replace('name: gadgets.example.org', 'name: gadgets2.example.org')
        .replace('plural: gadgets', 'plural: gadgets2')
        .replace('singular: gadget', 'singular: gadget2')
        .replace('shortNames: [gd]', 'shortNames: [gd2]');
      await ok(['apply', '-f', write('twin.yaml', twin)]);
      const r = await run([
        'wait',
        '--for=condition=NamesAccepted=False',
        'crd/gadgets2.example.org',
        '--timeout=60s',
      ]);
      assert.strictEqual(r.code, 0, r.stderr);
      const crd = await serve.json<{
        status: { conditions: Array<{ type: string; reason: string; message: string }> };
      }>(
        'GET',
        '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets2.example.org',
        200,
      );
      assert.deepStrictEqual(
        crd.status.conditions.map((c) => [c.type, c.reason, c.message]),
        [
          ['NamesAccepted', 'ListKindConflict', '"GadgetList" is already in use'],
          ['Established', 'NotAccepted', 'not all names are accepted'],
        ],
      );
      assert.strictEqual((await serve.request('GET', '/apis/example.org/v1/gadgets2')).status, 404);
      await ok(['delete', 'crd', 'gadgets2.example.org']);
    });

    it('delete of the CRD: its Gadgets deleted, their watch ends, get has no resource type', async () => {
      const watch = startKubectl(k, target(), ['get', 'gadgets', '--watch', '-o', 'name']);
      await watch.until((p) => p.stdout.includes('gadget.example.org/g1\n'), 'the watch lists g1');
      assert.strictEqual(
        await ok(['delete', 'crd', 'gadgets.example.org']),
        'customresourcedefinition.apiextensions.k8s.io "gadgets.example.org" deleted\n',
      );
      const ended = await watch.exited;
      assert.strictEqual(ended.code, 0, ended.stderr);
      await serve.json(
        'GET',
        '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.example.org',
        404,
      );
      assert.strictEqual((await serve.request('GET', '/apis/example.org')).status, 404);
      // A client with fresh discovery (a cache of its own).
      const r = await kubectl(
        k,
        { ...target(), dir: fs.mkdtempSync(path.join(serve.dir, 'fresh-')) },
        ['get', 'gadgets'],
      );
      assert.strictEqual(r.code, 1);
      assert.strictEqual(r.stderr, 'error: the server doesn\'t have a resource type "gadgets"\n');
      // The CRD again: the Gadgets are gone from storage.
      await ok(['apply', '-f', fixture]);
      await ok(['wait', '--for=condition=established', 'crd/gadgets.example.org', '--timeout=60s']);
      const list = await serve.json<{ items: unknown[] }>('GET', cr(serve.namespace), 200);
      assert.deepStrictEqual(list.items, []);
    });

    it('a CRD with two served versions: both discovered, read, written and watched, one storage', async () => {
      await ok(['apply', '-f', write('widgets.yaml', widgetsCrd)]);
      await ok(['wait', '--for=condition=established', 'crd/widgets.example.com', '--timeout=60s']);
      const versions = (await ok(['api-versions'])).split('\n');
      for (const v of ['example.com/v1', 'example.com/v1beta1'])
        assert.ok(versions.includes(v), `api-versions lists ${v}`);
      const group = await serve.json<{ versions: unknown[]; preferredVersion: unknown }>(
        'GET',
        '/apis/example.com',
        200,
      );
      assert.deepStrictEqual(
        [group.versions, group.preferredVersion],
        [
          [
            { groupVersion: 'example.com/v1', version: 'v1' },
            { groupVersion: 'example.com/v1beta1', version: 'v1beta1' },
          ],
          { groupVersion: 'example.com/v1', version: 'v1' },
        ],
      );
      // api-resources lists the preferred version's (kubectl asks for the preferred resources).
      assert.match(
        await ok(['api-resources', '--api-group=example.com', '--no-headers']),
        /^widgets\s+example\.com\/v1\s+true\s+Widget\n$/,
      );
      // A Widget created through v1beta1 is stored as v1: v1 reads it as its own.
      const w1 =
        'apiVersion: example.com/v1beta1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  size: 2\n';
      assert.strictEqual(
        await ok(['create', '-f', write('w1.yaml', w1)]),
        'widget.example.com/w1 created\n',
      );
      const w2 =
        'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w2\nspec:\n  size: 3\n  color: red\n';
      await ok(['create', '-f', write('w2.yaml', w2)]);
      const widgets = (v: string, name = '') =>
        `/apis/example.com/${v}/namespaces/${serve.namespace}/widgets${name ? `/${name}` : ''}`;
      type Widget = { apiVersion: string; metadata: { name: string }; spec: unknown };
      const cases: Array<{ path: string; want: unknown }> = [
        { path: widgets('v1', 'w1'), want: ['example.com/v1', { size: 2 }] },
        { path: widgets('v1beta1', 'w1'), want: ['example.com/v1beta1', { size: 2 }] },
        { path: widgets('v1', 'w2'), want: ['example.com/v1', { size: 3, color: 'red' }] },
        // Pruned by v1beta1's schema, which has no color.
        { path: widgets('v1beta1', 'w2'), want: ['example.com/v1beta1', { size: 3 }] },
      ];
      for (const c of cases) {
        const w = JSON.parse(await ok(['get', '--raw', c.path])) as Widget;
        assert.deepStrictEqual([w.apiVersion, w.spec], c.want, c.path);
      }
      const list = JSON.parse(await ok(['get', '--raw', widgets('v1beta1')])) as {
        apiVersion: string;
        items: Widget[];
      };
      assert.deepStrictEqual(
        [list.apiVersion, ...list.items.map((w) => `${w.metadata.name} ${w.apiVersion}`)],
        ['example.com/v1beta1', 'w1 example.com/v1beta1', 'w2 example.com/v1beta1'],
      );
      assert.strictEqual(
        await ok(['get', 'widgets.v1beta1.example.com', 'w2', '-o', 'jsonpath={.apiVersion}']),
        'example.com/v1beta1',
      );
      // Each version prints its own columns (no AGE: the CRD declares columns; a nil cell is blank).
      assert.match(
        await ok(['get', 'widgets.v1beta1.example.com']),
        /^NAME\s+SIZE\nw1\s+2\nw2\s+3\n$/,
      );
      assert.match(
        await ok(['get', 'widgets.v1.example.com']),
        /^NAME\s+COLOR\nw1\s+\nw2\s+red\n$/,
      );
      // A watch through v1beta1 (after a v1 watch encoded the same events) sends v1beta1.
      for (const v of ['v1', 'v1beta1']) {
        const r = await serve.request('GET', `${widgets(v)}?watch=1&timeoutSeconds=1`);
        const events = r.body
          .trim()
          .split('\n')
          .map((l) => (JSON.parse(l) as { object: Widget }).object.apiVersion);
        assert.deepStrictEqual(events, [`example.com/${v}`, `example.com/${v}`], v);
      }
      // explain --api-version reads that version's schema from OpenAPI v3, storage or not.
      const explained: Array<[string, string[]]> = [
        ['v1beta1', ['size']],
        ['v1', ['color', 'size']],
      ];
      for (const [v, fields] of explained) {
        const out = await ok(['explain', 'widgets.spec', `--api-version=example.com/${v}`]);
        assert.match(
          out,
          new RegExp(`^GROUP:\\s+example\\.com\\nKIND:\\s+Widget\\nVERSION:\\s+${v}\\n`),
          out,
        );
        const listed = [...out.matchAll(/^ {2}(\w+)\t</gm)].map((m) => m[1]);
        assert.deepStrictEqual(listed, fields, `${v}: ${out}`);
      }
      await ok(['delete', 'crd', 'widgets.example.com']);
    });

    it('delete of the CRD while a Gadget has a finalizer: terminating, its Gadgets still read and patched, creates refused with 405', async () => {
      await ok(['apply', '-f', fixture]);
      await ok(['wait', '--for=condition=established', 'crd/gadgets.example.org', '--timeout=60s']);
      await ok([
        'create',
        '-f',
        write(
          'held.yaml',
          gadget('held').replace(
            '  name: held\n',
            '  name: held\n  finalizers: [example.org/hold]\n',
          ),
        ),
      ]);
      await ok(['delete', 'crd', 'gadgets.example.org', '--wait=false']);
      await ok(['wait', '--for=condition=Terminating', 'crd/gadgets.example.org', '--timeout=60s']);
      // The finalizer deletes the Gadgets right after it sets Terminating.
      let deleting = '';
      while (deleting === '')
        deleting = await ok([
          'get',
          'gadgets',
          'held',
          '-o',
          'jsonpath={.metadata.deletionTimestamp}',
        ]);
      const refused = await run(['create', '-f', write('g2.yaml', gadget('g2'))]);
      assert.strictEqual(refused.code, 1);
      assert.match(
        refused.stderr,
        /^Error from server \(MethodNotAllowed\): error when creating ".*g2\.yaml": create not allowed while custom resource definition is terminating\n$/,
      );
      const status = await serve.json<{ code: number; reason: string; details: unknown }>(
        'POST',
        cr(serve.namespace),
        405,
        { apiVersion: 'example.org/v1', kind: 'Gadget', metadata: { name: 'g3' } },
      );
      assert.deepStrictEqual(
        [status.code, status.reason, status.details],
        [405, 'MethodNotAllowed', { group: 'example.org', kind: 'gadgets' }],
      );
      assert.strictEqual(
        await ok(['patch', 'gd', 'held', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']),
        'gadget.example.org/held patched\n',
      );
      await ok(['wait', '--for=delete', 'crd/gadgets.example.org', '--timeout=60s']);
      assert.strictEqual((await serve.request('GET', '/apis/example.org')).status, 404);
    });
  });
}
