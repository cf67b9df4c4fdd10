// Tests for src/server/structured-merge-diff/field-manager/{managed-fields,conflict}.ts:
// k8s.io/apimachinery pkg/util/managedfields/internal managedfields_test.go and conflict_test.go
// (release-1.36).
import * as assert from 'assert';
import * as yaml from 'js-yaml';
import { newConflictError } from '../../../../src/server/structured-merge-diff/field-manager/conflict';
import {
  buildManagerIdentifier,
  decodeManagedFields,
  encodeManagedFields,
  sortEncodedManagedFields,
  type ManagedFieldsEntry,
} from '../../../../src/server/structured-merge-diff/field-manager/managed-fields';
import { makePath } from '../../../../src/server/structured-merge-diff/path-element';

describe('structured-merge-diff field-manager conflict (conflict_test.go TestNewConflictError)', () => {
  const foo = `{"manager":"foo","operation":"Update","apiVersion":"v1","time":"2001-02-03T04:05:06Z"}`;
  const cases: Array<{
    conflicts: Array<[string, string[]]>;
    causes: Array<[string, string]>;
    message: string;
  }> = [
    {
      conflicts: [[foo, ['spec', 'replicas']]],
      causes: [['conflict with "foo" using v1 at 2001-02-03T04:05:06Z', '.spec.replicas']],
      message:
        'Apply failed with 1 conflict: conflict with "foo" using v1 at 2001-02-03T04:05:06Z: .spec.replicas',
    },
    {
      conflicts: [
        [foo, ['spec', 'replicas']],
        [`{"manager":"bar","operation":"Apply"}`, ['metadata', 'labels', 'app']],
      ],
      causes: [
        ['conflict with "foo" using v1 at 2001-02-03T04:05:06Z', '.spec.replicas'],
        ['conflict with "bar"', '.metadata.labels.app'],
      ],
      message:
        'Apply failed with 2 conflicts: conflicts with "bar":\n- .metadata.labels.app\nconflicts with "foo" using v1 at 2001-02-03T04:05:06Z:\n- .spec.replicas',
    },
    {
      conflicts: [
        [
          `{"manager":"foo","operation":"Update","subresource":"scale","apiVersion":"v1","time":"2001-02-03T04:05:06Z"}`,
          ['spec', 'replicas'],
        ],
      ],
      causes: [
        [
          'conflict with "foo" with subresource "scale" using v1 at 2001-02-03T04:05:06Z',
          '.spec.replicas',
        ],
      ],
      message:
        'Apply failed with 1 conflict: conflict with "foo" with subresource "scale" using v1 at 2001-02-03T04:05:06Z: .spec.replicas',
    },
    // The identifiers the field manager builds carry no time.
    {
      conflicts: [
        [
          `{"manager":"kubectl-create","operation":"Update","apiVersion":"apps/v1"}`,
          ['spec', 'replicas'],
        ],
      ],
      causes: [['conflict with "kubectl-create" using apps/v1', '.spec.replicas']],
      message:
        'Apply failed with 1 conflict: conflict with "kubectl-create" using apps/v1: .spec.replicas',
    },
  ];
  for (const c of cases) {
    it(c.message, () => {
      const err = newConflictError(
        c.conflicts.map(([manager, path]) => ({ manager, path: makePath(...path) })),
      );
      assert.deepStrictEqual(err.status, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: c.message,
        reason: 'Conflict',
        details: {
          causes: c.causes.map(([message, field]) => ({
            reason: 'FieldManagerConflict',
            message,
            field,
          })),
        },
        code: 409,
      });
    });
  }
});

describe('structured-merge-diff field-manager managed fields (managedfields_test.go)', () => {
  const load = (s: string): ManagedFieldsEntry[] => (yaml.load(s) ?? []) as ManagedFieldsEntry[];

  // TestBuildManagerIdentifier.
  const ids: Array<[string, string]> = [
    [
      'apiVersion: v1\nfieldsV1:\n  f:apiVersion: {}\nmanager: foo\noperation: Update\ntime: "2001-02-03T04:05:06Z"\n',
      '{"manager":"foo","operation":"Update","apiVersion":"v1"}',
    ],
    [
      'apiVersion: v1\nfieldsV1:\n  f:apiVersion: {}\nmanager: foo\noperation: Apply\ntime: "2001-02-03T04:05:06Z"\n',
      '{"manager":"foo","operation":"Apply"}',
    ],
    [
      'apiVersion: v1\nfieldsV1:\n  f:apiVersion: {}\nmanager: foo\noperation: Apply\nsubresource: scale\ntime: "2001-02-03T04:05:06Z"\n',
      '{"manager":"foo","operation":"Apply","subresource":"scale"}',
    ],
  ];
  for (const [entry, want] of ids) {
    it(`BuildManagerIdentifier ${want}`, () =>
      assert.strictEqual(buildManagerIdentifier(yaml.load(entry) as ManagedFieldsEntry), want));
  }

  // TestHasFieldsType, TestHasAPIVersion, TestHasOperation: [entries, error or '' for none].
  const decodes: Array<[string, string]> = [
    [
      '- apiVersion: v1\n  fieldsType: FieldsV1\n  fieldsV1:\n    f:field: {}\n  manager: foo\n  operation: Apply\n',
      '',
    ],
    [
      '- apiVersion: v1\n  fieldsType: FieldsV2\n  fieldsV1:\n    f:field: {}\n  manager: foo\n  operation: Apply\n',
      'invalid fieldsType "FieldsV2" in managed fields entry 0',
    ],
    [
      '- apiVersion: v1\n  fieldsV1:\n    f:field: {}\n  manager: foo\n  operation: Apply\n',
      'missing fieldsType in managed fields entry 0',
    ],
    [
      '- fieldsType: FieldsV1\n  fieldsV1:\n    f:field: {}\n  manager: foo\n  operation: Apply\n',
      'apiVersion must not be empty',
    ],
    [
      '- apiVersion: v1\n  fieldsType: FieldsV1\n  fieldsV1:\n    f:field: {}\n  manager: foo\n',
      'operation must be `Apply` or `Update`',
    ],
    [
      '- apiVersion: v1\n  fieldsType: FieldsV1\n  fieldsV1:\n    f:field: {}\n  manager: foo\n  operation: Patch\n',
      'operation must be `Apply` or `Update`',
    ],
  ];
  for (const [entries, want] of decodes) {
    it(`DecodeManagedFields ${want || 'ok'}`, () => {
      if (want === '') decodeManagedFields(load(entries));
      else assert.throws(() => decodeManagedFields(load(entries)), { message: want });
    });
  }

  // TestRoundTripManagedFields.
  const roundTrips = [
    'null\n',
    '- apiVersion: v1\n  fieldsType: FieldsV1\n  fieldsV1:\n    v:3:\n      f:alsoPi: {}\n    v:3.1415:\n      f:pi: {}\n    v:false:\n      f:notTrue: {}\n  manager: foo\n  operation: Update\n  time: "2001-02-03T04:05:06Z"\n- apiVersion: v1beta1\n  fieldsType: FieldsV1\n  fieldsV1:\n    i:5:\n      f:i: {}\n  manager: foo\n  operation: Update\n  time: "2011-12-13T14:15:16Z"\n',
    '- apiVersion: v1\n  fieldsType: FieldsV1\n  fieldsV1:\n    f:spec:\n      f:containers:\n        k:{"name":"c"}:\n          f:image: {}\n          f:name: {}\n  manager: foo\n  operation: Apply\n',
    '- apiVersion: v1\n  fieldsType: FieldsV1\n  fieldsV1:\n    f:apiVersion: {}\n    f:kind: {}\n    f:metadata:\n      f:labels:\n        f:app: {}\n      f:name: {}\n    f:spec:\n      f:replicas: {}\n      f:selector:\n        f:matchLabels:\n          f:app: {}\n      f:template:\n        f:medatada:\n          f:labels:\n            f:app: {}\n        f:spec:\n          f:containers:\n            k:{"name":"nginx"}:\n              .: {}\n              f:image: {}\n              f:name: {}\n              f:ports:\n                i:0:\n                  f:containerPort: {}\n  manager: foo\n  operation: Update\n',
    '- apiVersion: v1\n  fieldsType: FieldsV1\n  fieldsV1:\n    f:spec:\n      f:replicas: {}\n  manager: foo\n  operation: Update\n  subresource: scale\n',
  ];
  for (const entries of roundTrips) {
    it(`round trip ${entries.slice(0, 50)}`, () => {
      const want = yaml.load(entries) as ManagedFieldsEntry[] | null;
      const got = encodeManagedFields(decodeManagedFields(want ?? [])) ?? null;
      assert.deepStrictEqual(got, want);
      // And in the set's own key order, as the bytes go out.
      if (got)
        assert.deepStrictEqual(
          JSON.stringify(got),
          JSON.stringify(encodeManagedFields(decodeManagedFields(got))),
        );
    });
  }

  // TestSortEncodedManagedFields: [name, input, expected] as manager/operation/time triples.
  const t1 = '2001-01-01T01:00:00Z';
  const t2 = '2002-01-01T01:00:00Z';
  const t3 = '2003-01-01T01:00:00Z';
  type Row = [string, 'Apply' | 'Update', string?, string?];
  const sorts: Array<[string, Row[], Row[]]> = [
    ['empty', [], []],
    [
      'remains untouched',
      [
        ['a', 'Apply'],
        ['a', 'Update', t1],
      ],
      [
        ['a', 'Apply'],
        ['a', 'Update', t1],
      ],
    ],
    [
      'manager without time first',
      [
        ['a', 'Apply'],
        ['a', 'Apply', t1],
      ],
      [
        ['a', 'Apply'],
        ['a', 'Apply', t1],
      ],
    ],
    [
      'manager without time first name last',
      [
        ['a', 'Apply', t1],
        ['b', 'Apply'],
        ['a', 'Apply'],
      ],
      [
        ['a', 'Apply'],
        ['b', 'Apply'],
        ['a', 'Apply', t1],
      ],
    ],
    [
      'apply first',
      [
        ['a', 'Update', t1],
        ['a', 'Apply'],
      ],
      [
        ['a', 'Apply'],
        ['a', 'Update', t1],
      ],
    ],
    [
      'newest last',
      [
        ['c', 'Update', t1],
        ['a', 'Apply'],
        ['c', 'Update', t2],
        ['b', 'Apply'],
      ],
      [
        ['a', 'Apply'],
        ['b', 'Apply'],
        ['c', 'Update', t1],
        ['c', 'Update', t2],
      ],
    ],
    [
      'manager sorted',
      [
        ['c', 'Update', t1],
        ['a', 'Apply'],
        ['g', 'Apply'],
        ['f', 'Update', t2],
        ['i', 'Apply'],
        ['d', 'Update', t2],
        ['h', 'Apply'],
        ['e', 'Update', t3],
        ['b', 'Apply'],
      ],
      [
        ['a', 'Apply'],
        ['b', 'Apply'],
        ['g', 'Apply'],
        ['h', 'Apply'],
        ['i', 'Apply'],
        ['c', 'Update', t1],
        ['d', 'Update', t2],
        ['f', 'Update', t2],
        ['e', 'Update', t3],
      ],
    ],
    [
      'entries with subresource field',
      [
        ['a', 'Apply', undefined, 'status'],
        ['a', 'Apply', undefined, 'scale'],
        ['a', 'Apply'],
      ],
      [
        ['a', 'Apply'],
        ['a', 'Apply', undefined, 'scale'],
        ['a', 'Apply', undefined, 'status'],
      ],
    ],
  ];
  const entry = ([manager, operation, time, subresource]: Row): ManagedFieldsEntry => ({
    manager,
    operation,
    ...(time ? { time } : {}),
    ...(subresource ? { subresource } : {}),
  });
  for (const [name, input, want] of sorts) {
    it(`sortEncodedManagedFields ${name}`, () =>
      assert.deepStrictEqual(sortEncodedManagedFields(input.map(entry)), want.map(entry)));
  }
});
