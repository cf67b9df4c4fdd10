// Tests for src/server/structural-pruning.ts, after apiextensions-apiserver
// pkg/apiserver/schema/pruning/algorithm_test.go (TestPrune): an object, a schema, what stays, and
// the unknown field paths fieldValidation reports.
import * as assert from 'assert';
import { pruneCustomResource, unknownFieldPaths } from '../../../src/server/structural-pruning';

type Loose = Record<string, unknown>;

const cases: Array<{ name: string; obj: Loose; schema: Loose; want: Loose; unknown: string[] }> = [
  {
    name: 'unknown fields dropped at every level; apiVersion, kind, metadata kept at the root',
    obj: {
      apiVersion: 'x/v1',
      kind: 'X',
      metadata: { name: 'a', foo: 1 },
      spec: { a: 1, b: 2 },
      extra: true,
    },
    schema: {
      type: 'object',
      properties: { spec: { type: 'object', properties: { a: { type: 'integer' } } } },
    },
    want: { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'a', foo: 1 }, spec: { a: 1 } },
    unknown: ['extra', 'spec.b'],
  },
  {
    name: 'x-kubernetes-preserve-unknown-fields keeps unknown fields, the known ones are still pruned below',
    obj: { spec: { free: { x: 1 }, known: { a: 1, b: 2 } } },
    schema: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { known: { type: 'object', properties: { a: { type: 'integer' } } } },
        },
      },
    },
    want: { spec: { free: { x: 1 }, known: { a: 1 } } },
    unknown: ['spec.known.b'],
  },
  {
    name: 'array items pruned with their index in the path',
    obj: { spec: { items: [{ name: 'a', v: 1 }, { name: 'b' }] } },
    schema: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            items: {
              type: 'array',
              items: { type: 'object', properties: { name: { type: 'string' } } },
            },
          },
        },
      },
    },
    want: { spec: { items: [{ name: 'a' }, { name: 'b' }] } },
    unknown: ['spec.items[0].v'],
  },
  {
    name: 'additionalProperties: each value by its schema',
    obj: { spec: { m: { k1: { a: 1, z: 0 }, k2: { a: 2 } } } },
    schema: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            m: {
              type: 'object',
              additionalProperties: { type: 'object', properties: { a: { type: 'integer' } } },
            },
          },
        },
      },
    },
    want: { spec: { m: { k1: { a: 1 }, k2: { a: 2 } } } },
    unknown: ['spec.m.k1.z'],
  },
  {
    name: 'an object under a field without properties loses every field',
    obj: { spec: { o: { a: 1 } } },
    schema: {
      type: 'object',
      properties: { spec: { type: 'object', properties: { o: { type: 'object' } } } },
    },
    want: { spec: { o: {} } },
    unknown: ['spec.o.a'],
  },
  {
    name: 'x-kubernetes-embedded-resource keeps its apiVersion, kind and metadata',
    obj: {
      spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, junk: 1 } },
    },
    schema: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: { template: { type: 'object', 'x-kubernetes-embedded-resource': true } },
        },
      },
    },
    want: { spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } } } },
    unknown: ['spec.template.junk'],
  },
];

describe('structural pruning of custom objects', () => {
  for (const c of cases)
    it(c.name, () => {
      const before = structuredClone(c.obj);
      assert.deepStrictEqual(unknownFieldPaths(c.obj, c.schema), c.unknown, c.name);
      assert.deepStrictEqual(c.obj, before, `${c.name}: unknownFieldPaths leaves the object`);
      pruneCustomResource(c.obj, c.schema);
      assert.deepStrictEqual(c.obj, c.want, c.name);
    });
});
