// Tests for src/server/registry/delete-preconditions.ts: the preconditions of a namespace's and a
// CRD's first delete, as their REST.Delete checks them (a table: the options' preconditions, the
// 409's message or the storage preconditions and the UID the options keep for Store.Delete).
import * as assert from 'assert';
import { StatusError } from '../../../../src/engine';
import { deletePreconditions } from '../../../../src/server/registry/delete-preconditions';
import type { DeleteOptions } from '../../../../src/server/delete-options';

describe('deletePreconditions (namespace storage.go, apiextensions etcd.go REST.Delete)', () => {
  const meta = { name: 'x', uid: 'u1', resourceVersion: '7' };
  const gr = { group: '', resource: 'namespaces' };
  const cases: {
    name: string;
    preconditions?: DeleteOptions['preconditions'];
    word: 'Precondition' | 'precondition';
    want: { uid?: string; resourceVersion?: string } | string;
  }[] = [
    { name: 'none: the object’s own UID', word: 'Precondition', want: { uid: 'u1' } },
    {
      name: 'a null UID is none',
      preconditions: { uid: null, resourceVersion: null },
      word: 'Precondition',
      want: { uid: 'u1' },
    },
    {
      name: 'a matching resourceVersion is kept',
      preconditions: { uid: 'u1', resourceVersion: '7' },
      word: 'precondition',
      want: { uid: 'u1', resourceVersion: '7' },
    },
    {
      name: 'another UID: 409 (a namespace says Precondition)',
      preconditions: { uid: 'u2' },
      word: 'Precondition',
      want: 'Operation cannot be fulfilled on namespaces "x": Precondition failed: UID in precondition: u2, UID in object meta: u1',
    },
    {
      name: 'another resourceVersion: 409 (a CRD says precondition)',
      preconditions: { resourceVersion: '6' },
      word: 'precondition',
      want: 'Operation cannot be fulfilled on namespaces "x": precondition failed: ResourceVersion in precondition: 6, ResourceVersion in object meta: 7',
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const options: DeleteOptions = c.preconditions
        ? { preconditions: { ...c.preconditions } }
        : {};
      if (typeof c.want === 'string') {
        assert.throws(
          () => deletePreconditions(gr, meta, options, c.word),
          (e: unknown) =>
            e instanceof StatusError && e.status.code === 409 && e.status.message === c.want,
        );
        return;
      }
      assert.deepStrictEqual(deletePreconditions(gr, meta, options, c.word), c.want);
      assert.strictEqual(options.preconditions?.uid, 'u1');
    });
});
