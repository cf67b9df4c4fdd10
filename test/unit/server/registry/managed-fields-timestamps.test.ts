// Tests for src/server/registry/managed-fields-timestamps.ts (fieldmanager/equality.go's
// IgnoreManagedFieldsTimestampsTransformer, release-1.36): only a write whose sole change is its
// managedFields' times gets the old times back.
import * as assert from 'assert';
import type { KubeObject } from '../../../../src/engine';
import { ignoreManagedFieldsTimestamps } from '../../../../src/server/registry/managed-fields-timestamps';

const entry = (manager: string, time: string): Record<string, unknown> => ({
  apiVersion: 'v1',
  fieldsType: 'FieldsV1',
  fieldsV1: { 'f:data': { 'f:a': {} } },
  manager,
  operation: 'Apply',
  time,
});
const cm = (a: string, entries: Array<Record<string, unknown>>): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'x', resourceVersion: '5', managedFields: entries },
    data: { a },
  }) as unknown as KubeObject;
const t1 = '2026-01-01T00:00:00Z';
const t2 = '2026-01-01T00:00:09Z';

describe('ignoreManagedFieldsTimestamps (IgnoreManagedFieldsTimestampsTransformer)', () => {
  // [name, new object, old object, the new object's times afterwards]
  const cases: Array<[string, KubeObject, KubeObject, string[]]> = [
    [
      'only the time changed: the old time is kept',
      cm('1', [entry('a', t2)]),
      cm('1', [entry('a', t1)]),
      [t1],
    ],
    [
      'the object changed: the new time stays',
      cm('2', [entry('a', t2)]),
      cm('1', [entry('a', t1)]),
      [t2],
    ],
    [
      'the managers changed: the new time stays',
      cm('1', [entry('b', t2)]),
      cm('1', [entry('a', t1)]),
      [t2],
    ],
    [
      'another entry count: the new times stay',
      cm('1', [entry('a', t2), entry('b', t2)]),
      cm('1', [entry('a', t1)]),
      [t2, t2],
    ],
  ];
  for (const [name, next, old, times] of cases)
    it(name, () => {
      const out = ignoreManagedFieldsTimestamps(next, old);
      const entries = (out.metadata as { managedFields: Array<{ time: string }> }).managedFields;
      assert.deepStrictEqual(
        entries.map((e) => e.time),
        times,
      );
    });
});
