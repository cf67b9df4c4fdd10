// Tests for src/server/custom-resource-conversion.ts through the Store and the watch encoder: a CRD
// with two served versions over one storage (conversion.strategy None), after apiextensions-apiserver
// test/integration/conversion (TestConversion's nop cases): an object written through either
// version is stored as the storage version, read back through each with its apiVersion and pruned
// by its schema; a watch event cached for one version's encoder is not sent to another's.
import * as assert from 'assert';
import { newCachingObject } from '../../../src/engine/cacher/caching-object';
import type { KubeObject } from '../../../src/engine';
import { parseCrdManifest } from '../../../src/server/crd';
import { WatchEventEncoder } from '../../../src/server/handlers/watch';
import { ServedResources } from '../../../src/server/served-resources';

const crdText = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - name: v1beta1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties: {spec: {type: object, properties: {size: {type: integer}}}}
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer}, color: {type: string}}}
`;

const widget = (version: string, name: string, spec: Record<string, unknown>): KubeObject =>
  ({
    apiVersion: `example.com/${version}`,
    kind: 'Widget',
    metadata: { name, namespace: 'default' },
    spec,
  }) as unknown as KubeObject;

/** Written through `writeVersion`; what etcd holds, and what each version reads. */
const cases: Array<{
  name: string;
  writeVersion: string;
  spec: Record<string, unknown>;
  stored: unknown;
  reads: Record<string, unknown>;
}> = [
  {
    name: 'created through v1beta1: stored as v1',
    writeVersion: 'v1beta1',
    spec: { size: 1 },
    stored: ['example.com/v1', { size: 1 }],
    reads: { v1: ['example.com/v1', { size: 1 }], v1beta1: ['example.com/v1beta1', { size: 1 }] },
  },
  {
    name: 'created through v1 with a field v1beta1 lacks: v1beta1 reads it pruned',
    writeVersion: 'v1',
    spec: { size: 2, color: 'red' },
    stored: ['example.com/v1', { size: 2, color: 'red' }],
    reads: {
      v1: ['example.com/v1', { size: 2, color: 'red' }],
      v1beta1: ['example.com/v1beta1', { size: 2 }],
    },
  },
];

describe('custom resource conversion (strategy None) across served versions', () => {
  let resources: ServedResources;
  before(async () => {
    resources = new ServedResources({ seed: 1, crds: parseCrdManifest(crdText, 'widgets.yaml') });
    await resources.start();
  });
  after(() => resources.stop());

  it('every served version is served, over one engine', () => {
    const v1 = resources.find('example.com', 'v1', 'widgets');
    const v1beta1 = resources.find('example.com', 'v1beta1', 'widgets');
    assert.ok(v1 && v1beta1);
    assert.strictEqual(v1.engine, v1beta1.engine);
    assert.strictEqual(resources.perStorage.filter((r) => r.engine === v1.engine).length, 1);
  });

  cases.forEach((c, i) =>
    it(c.name, async () => {
      const ctx = resources.requests.newContext('test', 'GET', '/');
      const name = `w${i}`;
      const through = resources.find('example.com', c.writeVersion, 'widgets')!;
      const created = await through.store.create('default', widget(c.writeVersion, name, c.spec), {
        context: 'test',
      });
      assert.strictEqual(created.apiVersion, `example.com/${c.writeVersion}`, `${c.name}: answer`);
      const raw = (await through.engine.get('default', name, '', false, ctx))!;
      assert.deepStrictEqual([raw.apiVersion, (raw as { spec?: unknown }).spec], c.stored, c.name);
      for (const [version, want] of Object.entries(c.reads)) {
        const served = resources.find('example.com', version, 'widgets')!;
        const got = await served.store.get('default', name, '', ctx);
        assert.deepStrictEqual([got.apiVersion, (got as { spec?: unknown }).spec], want, version);
        const listed = (await served.store.list({ namespace: 'default' }, ctx)).items.find(
          (o) => o.metadata.name === name,
        )!;
        assert.deepStrictEqual(
          [listed.apiVersion, (listed as { spec?: unknown }).spec],
          want,
          `${version} list`,
        );
      }
      // The storage version's LISTs are the watch cache's objects themselves (their JSON memoised).
      const v1 = resources.find('example.com', 'v1', 'widgets')!;
      const listV1 = () => v1.store.list({ namespace: 'default', resourceVersion: '0' }, ctx);
      const [a, b] = [(await listV1()).items, (await listV1()).items];
      assert.ok(a.length > 0 && a.every((o, j) => o === b[j]), 'identity kept');
    }),
  );

  it("a watch event's cached line is per version: v1beta1's encoder does not send v1's line", () => {
    const event = newCachingObject(widget('v1', 'w', { size: 1, color: 'red' }));
    const lines = ['v1', 'v1beta1', 'v1'].map((v) => {
      const served = resources.find('example.com', v, 'widgets')!;
      const encoder = new WatchEventEncoder(
        served,
        { convert: undefined, tableOptions: undefined },
        () => 0,
      );
      const line = Buffer.from(encoder.encode({ type: 'ADDED', object: event })).toString();
      return (JSON.parse(line) as { object: KubeObject }).object;
    });
    assert.deepStrictEqual(
      lines.map((o) => [o.apiVersion, (o as { spec?: unknown }).spec]),
      [
        ['example.com/v1', { size: 1, color: 'red' }],
        ['example.com/v1beta1', { size: 1 }],
        ['example.com/v1', { size: 1, color: 'red' }],
      ],
    );
  });

  it("a watch's ERROR event keeps its Status whole in every served version: not a custom object, neither rewritten nor pruned", () => {
    // What the cacher sends a watch from a resourceVersion older than its history; client-go and
    // client-node relist on its code 410 (without it client-node re-watches from the same
    // resourceVersion, again and again).
    const status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'too old resource version: 1 (7)',
      reason: 'Expired',
      code: 410,
    } as unknown as KubeObject;
    for (const v of ['v1', 'v1beta1']) {
      const served = resources.find('example.com', v, 'widgets')!;
      const encoder = new WatchEventEncoder(
        served,
        { convert: undefined, tableOptions: undefined },
        () => 0,
      );
      const line = Buffer.from(encoder.encode({ type: 'ERROR', object: status })).toString();
      assert.strictEqual(line, `{"type":"ERROR","object":${JSON.stringify(status)}}\n`, v);
    }
  });
});
