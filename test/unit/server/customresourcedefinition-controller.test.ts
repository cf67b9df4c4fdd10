// Tests for src/server/customresourcedefinition-controller.ts calculateNamesAndConditions, after
// apiextensions-apiserver pkg/controller/status/naming_controller_test.go (TestSync): the names a
// CRD asks for, those already taken in its group, and the names granted with NamesAccepted. Then
// the life of a CRD written through its Store, in process: served once established (discovery's
// source, pruned custom objects), marked and finalized on delete (its objects gone with it).
import * as assert from 'assert';
import type { KubeObject } from '../../../src/engine';
import {
  calculateNamesAndConditions,
  CustomResourceDefinitionController,
} from '../../../src/server/customresourcedefinition-controller';
import { ServedResources } from '../../../src/server/served-resources';
import { isNotFound } from '../../../src/server/registry/store-delete';

const names = {
  plural: 'alfa',
  singular: 'alfa',
  shortNames: ['af'],
  kind: 'Alfa',
  listKind: 'AlfaList',
};

const crd = (accepted?: Record<string, unknown>): KubeObject =>
  ({
    metadata: { name: 'alfa.bravo.com' },
    spec: { group: 'bravo.com', names },
    ...(accepted ? { status: { acceptedNames: accepted } } : {}),
  }) as unknown as KubeObject;

const cases: Array<{
  name: string;
  crd: KubeObject;
  resources: string[];
  kinds: string[];
  want: [status: string, reason: string, message: string];
  granted: Record<string, unknown>;
}> = [
  {
    name: 'no conflicts',
    crd: crd(),
    resources: [],
    kinds: [],
    want: ['True', 'NoConflicts', 'no conflicts found'],
    granted: names,
  },
  {
    name: 'plural taken',
    crd: crd(),
    resources: ['alfa'],
    kinds: [],
    want: ['False', 'SingularConflict', '"alfa" is already in use'],
    granted: { shortNames: ['af'], kind: 'Alfa', listKind: 'AlfaList', plural: '' },
  },
  {
    name: 'a short name taken',
    crd: crd(),
    resources: ['af'],
    kinds: [],
    want: ['False', 'ShortNamesConflict', '"af" is already in use'],
    granted: { plural: 'alfa', singular: 'alfa', kind: 'Alfa', listKind: 'AlfaList' },
  },
  {
    name: 'kind taken',
    crd: crd(),
    resources: [],
    kinds: ['Alfa'],
    want: ['False', 'KindConflict', '"Alfa" is already in use'],
    granted: {
      plural: 'alfa',
      singular: 'alfa',
      shortNames: ['af'],
      listKind: 'AlfaList',
      kind: '',
    },
  },
  {
    name: 'its own accepted names are no conflict',
    crd: crd(names),
    resources: ['alfa', 'af'],
    kinds: ['Alfa', 'AlfaList'],
    want: ['True', 'NoConflicts', 'no conflicts found'],
    granted: names,
  },
];

describe('calculateNamesAndConditions (the naming controller)', () => {
  for (const c of cases)
    it(c.name, () => {
      const got = calculateNamesAndConditions(c.crd, {
        resources: new Set(c.resources),
        kinds: new Set(c.kinds),
      });
      const { status, reason, message } = got.namesAccepted;
      assert.deepStrictEqual([status, reason, message], c.want, c.name);
      assert.deepStrictEqual(got.names, c.granted, c.name);
    });
});

describe('CustomResourceDefinitionController: a CRD written through its Store', () => {
  const crdObject = (): KubeObject =>
    ({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.example.org' },
      spec: {
        group: 'example.org',
        scope: 'Namespaced',
        names: { plural: 'gadgets', kind: 'Gadget' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } },
              },
            },
          },
        ],
      },
    }) as unknown as KubeObject;
  const gadget = (name: string): KubeObject =>
    ({
      apiVersion: 'example.org/v1',
      kind: 'Gadget',
      metadata: { name, namespace: 'default' },
      spec: { size: 1, extra: true },
    }) as unknown as KubeObject;

  it('create: served and established; delete: finalized, its objects deleted, no longer served', async () => {
    const resources = new ServedResources({ seed: 1 });
    await resources.start();
    const controller = new CustomResourceDefinitionController(resources);
    try {
      await controller.start();
      const ctx = resources.requests.newContext('test', 'GET', '/');
      const crds = resources.find('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!;
      assert.strictEqual(resources.find('example.org', 'v1', 'gadgets'), undefined);
      await crds.store.create('', crdObject(), { context: 'test' });
      await controller.idle();
      const served = resources.find('example.org', 'v1', 'gadgets');
      assert.ok(served, 'served once established');
      assert.strictEqual(served.listKind, 'GadgetList');
      const stored = await crds.store.get('', 'gadgets.example.org', '', ctx);
      const conditions = (
        stored as unknown as { status: { conditions: Array<{ type: string; status: string }> } }
      ).status.conditions;
      assert.deepStrictEqual(
        conditions.map((c) => [c.type, c.status]),
        [
          ['NamesAccepted', 'True'],
          ['Established', 'True'],
        ],
      );
      const g = await served.store.create('default', gadget('g1'), { context: 'test' });
      assert.deepStrictEqual((g as unknown as { spec: unknown }).spec, { size: 1 }, 'pruned');

      const marked = await crds.store.delete('', 'gadgets.example.org', {}, 'test');
      assert.strictEqual(marked.deleted, false);
      assert.deepStrictEqual((marked.object.metadata as { finalizers?: string[] }).finalizers, [
        'customresourcecleanup.apiextensions.k8s.io',
      ]);
      await controller.idle();
      assert.strictEqual(
        resources.find('example.org', 'v1', 'gadgets'),
        undefined,
        'no longer served',
      );
      await assert.rejects(crds.store.get('', 'gadgets.example.org', '', ctx), isNotFound);

      // The same CRD again: no Gadget is left in storage.
      await crds.store.create('', crdObject(), { context: 'test' });
      await controller.idle();
      const again = resources.find('example.org', 'v1', 'gadgets')!;
      assert.deepStrictEqual((await again.store.list({ namespace: 'default' }, ctx)).items, []);
    } finally {
      await controller.stop();
      resources.stop();
    }
  });

  it('delete while a custom object has a finalizer: terminating, still served for reads and writes, gone with the CRD', async () => {
    const resources = new ServedResources({ seed: 1 });
    await resources.start();
    const controller = new CustomResourceDefinitionController(resources);
    try {
      await controller.start();
      const ctx = resources.requests.newContext('test', 'GET', '/');
      const crds = resources.find('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!;
      await crds.store.create('', crdObject(), { context: 'test' });
      await controller.idle();
      const held = gadget('held');
      (held.metadata as { finalizers?: string[] }).finalizers = ['example.org/hold'];
      await resources.find('example.org', 'v1', 'gadgets')!.store.create('default', held, {
        context: 'test',
      });
      await crds.store.delete('', 'gadgets.example.org', {}, 'test');
      await controller.idle();
      const served = resources.find('example.org', 'v1', 'gadgets');
      assert.ok(served, 'still served while terminating');
      assert.strictEqual(served.terminating, true);
      const got = await served.store.get('default', 'held', '', ctx);
      assert.ok(got.metadata.deletionTimestamp, 'the finalizer deleted it gracefully');
      // The object's controller removes its finalizer: the object goes, then the CRD.
      await served.store.update(
        'default',
        'held',
        (existing) => ({ ...existing, metadata: { ...existing.metadata, finalizers: [] } }),
        { context: 'test' },
      );
      controller.enqueue('gadgets.example.org');
      await controller.idle();
      assert.strictEqual(resources.find('example.org', 'v1', 'gadgets'), undefined, 'torn down');
      await assert.rejects(crds.store.get('', 'gadgets.example.org', '', ctx), isNotFound);
    } finally {
      await controller.stop();
      resources.stop();
    }
  });
});
