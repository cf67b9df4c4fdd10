// Tests for src/server/registry/customresourcedefinition-strategy.ts, as apiextensions-apiserver's
// pkg/apis/apiextensions/validation/validation_test.go (TestValidateCustomResourceDefinition) and
// pkg/registry/customresourcedefinition/strategy_test.go tabulate them: a CRD changed one way, and
// the field errors upstream's validation gives it (the exact text); then what PrepareForCreate and
// PrepareForUpdate do to status, generation and storedVersions.
import * as assert from 'assert';
import type { KubeObject } from '../../../../src/engine';
import {
  customResourceDefinitionStrategy,
  validateCustomResourceDefinition,
} from '../../../../src/server/registry/customresourcedefinition-strategy';

type Loose = Record<string, unknown>;

/** A valid CRD, as kubectl sends it (before the strategy's defaults). */
function gadgets(): Loose {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gadgets.example.org' },
    spec: {
      group: 'example.org',
      scope: 'Namespaced',
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', shortNames: ['gd'] },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: {
                    size: { type: 'integer' },
                    tags: { type: 'array', items: { type: 'string' } },
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
}

const spec = (crd: Loose): Loose => crd.spec as Loose;
const versions = (crd: Loose): Loose[] => spec(crd).versions as Loose[];
const schemaOf = (v: Loose): Loose => (v.schema as Loose).openAPIV3Schema as Loose;
const specProps = (crd: Loose): Loose =>
  ((schemaOf(versions(crd)[0]).properties as Loose).spec as Loose).properties as Loose;

/** Each case: the change, then the messages ValidateCustomResourceDefinition gives after create's preparation. */
const cases: Array<{ name: string; change: (crd: Loose) => void; want: string[] }> = [
  { name: 'valid', change: () => {}, want: [] },
  {
    name: 'name is not <plural>.<group>',
    change: (c) => ((c.metadata as Loose).name = 'gizmos.example.org'),
    want: [
      'metadata.name: Invalid value: "gizmos.example.org": must be spec.names.plural+"."+spec.group',
    ],
  },
  {
    name: 'group without a dot',
    change: (c) => {
      spec(c).group = 'example';
      (c.metadata as Loose).name = 'gadgets.example';
    },
    want: ['spec.group: Invalid value: "example": should be a domain with at least one dot'],
  },
  {
    name: 'scope not supported',
    change: (c) => (spec(c).scope = 'Global'),
    want: ['spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"'],
  },
  {
    name: 'a property without type (one version: the top-level validation path)',
    change: (c) => (specProps(c).size = { description: 'no type' }),
    want: [
      'spec.validation.openAPIV3Schema.properties[spec].properties[size].type: Required value: must not be empty for specified object fields',
    ],
  },
  {
    name: 'array items without type',
    change: (c) => (specProps(c).tags = { type: 'array', items: {} }),
    want: [
      'spec.validation.openAPIV3Schema.properties[spec].properties[tags].items.type: Required value: must not be empty for specified array items',
    ],
  },
  {
    name: 'an array without items',
    change: (c) => (specProps(c).tags = { type: 'array' }),
    want: [
      'spec.validation.openAPIV3Schema.properties[spec].properties[tags].items: Required value: must be specified',
    ],
  },
  {
    name: 'root type not object',
    change: (c) => (schemaOf(versions(c)[0]).type = 'string'),
    want: [
      'spec.validation.openAPIV3Schema.type: Invalid value: "string": must be object at the root',
    ],
  },
  {
    name: 'an unknown type',
    change: (c) => (specProps(c).size = { type: 'int' }),
    want: [
      'spec.validation.openAPIV3Schema.properties[spec].properties[size].type: Unsupported value: "int": supported values: "array", "boolean", "integer", "number", "object", "string"',
    ],
  },
  {
    name: 'x-kubernetes-preserve-unknown-fields needs no type',
    change: (c) => (specProps(c).size = { 'x-kubernetes-preserve-unknown-fields': true }),
    want: [],
  },
  {
    name: 'no schema',
    change: (c) => delete versions(c)[0].schema,
    want: ['spec.versions[0].schema.openAPIV3Schema: Required value'],
  },
  {
    name: 'a version name that is no DNS-1035 label',
    change: (c) => (versions(c)[0].name = 'V1'),
    want: [
      "spec.versions[0].name: Invalid value: \"V1\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ],
  },
  {
    name: 'a second storage version',
    change: (c) => versions(c).push({ ...structuredClone(versions(c)[0]), name: 'v2' }),
    want: [
      `spec.versions: Invalid value: ${JSON.stringify([
        versions(gadgets())[0],
        { ...versions(gadgets())[0], name: 'v2' },
      ])}: must have exactly one version marked as storage version`,
      'status.storedVersions: Invalid value: ["v1"]: must have the storage version v2',
    ],
  },
  {
    name: 'no storage version (and so no stored version)',
    change: (c) => (versions(c)[0].storage = false),
    want: [
      `spec.versions: Invalid value: ${JSON.stringify([{ ...versions(gadgets())[0], storage: false }])}: must have exactly one version marked as storage version`,
      'status.storedVersions: Invalid value: null: must have at least one stored version',
    ],
  },
  {
    name: 'kind and listKind the same',
    change: (c) => ((spec(c).names as Loose).listKind = 'Gadget'),
    want: ['spec.names.listKind: Invalid value: "Gadget": kind and listKind may not be the same'],
  },
  {
    name: 'no kind (so no listKind default either)',
    change: (c) => delete (spec(c).names as Loose).kind,
    want: ['spec.names.kind: Required value', 'spec.names.listKind: Required value'],
  },
];

describe('customResourceDefinitionStrategy: ValidateCustomResourceDefinition', () => {
  for (const c of cases)
    it(c.name, () => {
      const crd = gadgets();
      c.change(crd);
      const obj = crd as unknown as KubeObject;
      customResourceDefinitionStrategy.prepareForCreate(obj);
      assert.deepStrictEqual(
        validateCustomResourceDefinition(obj).map((e) => e.message),
        c.want,
        c.name,
      );
    });
});

describe('customResourceDefinitionStrategy: PrepareForCreate and PrepareForUpdate', () => {
  it('create: status cleared but storedVersions, generation 1, v1 defaults (singular, listKind, conversion)', () => {
    const crd = gadgets();
    delete (spec(crd).names as Loose).singular;
    crd.status = { conditions: [{ type: 'Established', status: 'True' }] };
    const obj = crd as unknown as KubeObject;
    customResourceDefinitionStrategy.prepareForCreate(obj);
    assert.deepStrictEqual(crd.status, { storedVersions: ['v1'] });
    assert.strictEqual(obj.metadata.generation, 1);
    assert.deepStrictEqual(spec(crd).names, {
      plural: 'gadgets',
      singular: 'gadget',
      kind: 'Gadget',
      shortNames: ['gd'],
      listKind: 'GadgetList',
    });
    assert.deepStrictEqual(spec(crd).conversion, { strategy: 'None' });
  });

  const update: Array<{
    name: string;
    change: (crd: Loose) => void;
    generation: number;
    stored: string[];
  }> = [
    { name: 'no change', change: () => {}, generation: 1, stored: ['v1'] },
    {
      name: 'a status change is ignored',
      change: (c) => (c.status = { storedVersions: [] }),
      generation: 1,
      stored: ['v1'],
    },
    {
      name: 'a label is no spec change',
      change: (c) => ((c.metadata as Loose).labels = { a: 'b' }),
      generation: 1,
      stored: ['v1'],
    },
    {
      name: 'a new storage version: generation +1, stored versions grow',
      change: (c) => {
        versions(c)[0].storage = false;
        versions(c).push({ ...structuredClone(versions(c)[0]), name: 'v2', storage: true });
      },
      generation: 2,
      stored: ['v1', 'v2'],
    },
  ];
  for (const u of update)
    it(`update: ${u.name}`, () => {
      const old = gadgets() as unknown as KubeObject;
      customResourceDefinitionStrategy.prepareForCreate(old);
      const next = structuredClone(old) as unknown as Loose;
      u.change(next);
      customResourceDefinitionStrategy.prepareForUpdate(next as unknown as KubeObject, old);
      assert.strictEqual((next.metadata as Loose).generation, u.generation, u.name);
      assert.deepStrictEqual((next.status as Loose).storedVersions, u.stored, u.name);
    });
});
