// Port of RunTestKeySchema (k8s.io/apiserver pkg/storage/testing/store_tests.go, release-1.36;
// master is the same), run as upstream does from etcd3/store_test.go and cacher_test.go: every
// storage.Interface method rejects keys that are empty, contain `.`/`..` segments or lie outside
// the resource prefix /pods/, with storage.PrepareKey's message.
import * as assert from 'assert';
import type { KubeObject } from '../../../src/engine/storage/objects';
import { listOptions, Subtests } from './store-fixtures';
import { bothStores, type StoreUnderTest } from './store-under-test';
import type { EtcdUnderTest } from '../../harness/etcd-under-test';

/** require.ErrorContains / require.NoError as one table row: the call, and the error text or ''. */
type KeyCase = [key: string, errorContains: string];

async function outcome(p: Promise<unknown>, errorContains: string): Promise<void> {
  let err: unknown;
  try {
    const r = await p;
    (r as { stop?: () => void } | undefined)?.stop?.();
  } catch (e) {
    err = e;
  }
  if (errorContains === '') {
    assert.strictEqual(err, undefined, `unexpected error: ${String(err)}`);
    return;
  }
  assert.ok(err !== undefined, `expected an error containing ${JSON.stringify(errorContains)}`);
  const msg = (err as Error).message;
  assert.ok(
    msg.includes(errorContains),
    `${JSON.stringify(msg)} contains ${JSON.stringify(errorContains)}`,
  );
}

const invalid: KeyCase[] = [
  ['', 'empty key'],
  ['/', 'empty key'],
  ['.', 'invalid key'],
  ['..', 'invalid key'],
];

async function runTestKeySchema(store: StoreUnderTest): Promise<number> {
  const t = new Subtests();
  const emptyPod = (): KubeObject => ({ metadata: {} });
  const recursive = listOptions({ recursive: true });
  const nonRecursive = listOptions({ recursive: false });
  const ops: { op: string; cases: KeyCase[]; call: (key: string) => Promise<unknown> }[] = [
    {
      op: 'Create',
      call: (key) => store.create(key, emptyPod()),
      cases: [
        ...invalid,
        ['pods', 'lacks resource prefix'],
        ['/pods', 'lacks resource prefix'],
        ['/pods.apps', 'lacks resource prefix'],
        ['/foo/', 'lacks resource prefix'],
        ['/pods/', ''],
        ['/pods/name', ''],
        ['/pods/namespace', ''],
        ['/pods/namespace/name', ''],
      ],
    },
    {
      op: 'GetList recursive',
      call: (key) => store.getList(key, recursive),
      cases: [
        ...invalid,
        ['pods', 'lacks resource prefix'],
        ['/pods.apps', 'lacks resource prefix'],
        ['/foo/', 'lacks resource prefix'],
        ['/pods', ''],
        ['/pods/', ''],
        ['/pods/namespace', ''],
        ['/pods/namespace/name', ''],
      ],
    },
    {
      op: 'GetList non-recursive',
      call: (key) => store.getList(key, nonRecursive),
      cases: [['/pods', 'lacks resource prefix']],
    },
    {
      op: 'Get',
      call: (key) => store.get(key, {}),
      cases: [
        ...invalid,
        ['pods', 'lacks resource prefix'],
        ['/pods', 'lacks resource prefix'],
        ['/pods.apps', 'lacks resource prefix'],
        ['/foo/', 'lacks resource prefix'],
        ['/pods/', ''],
        ['/pods/namespace', ''],
        ['/pods/namespace/name', ''],
      ],
    },
    {
      op: 'Watch recursive',
      call: (key) => store.watch(key, recursive),
      cases: [
        ...invalid,
        ['pods', 'lacks resource prefix'],
        ['/pods.apps', 'lacks resource prefix'],
        ['/foo/', 'lacks resource prefix'],
        // Upstream watches /pods twice in a row here.
        ['/pods', ''],
        ['/pods/namespace', ''],
        ['/pods/namespace/name', ''],
      ],
    },
    {
      op: 'Watch non-recursive',
      call: (key) => store.watch(key, nonRecursive),
      cases: [['/pods', 'lacks resource prefix']],
    },
    {
      op: 'GuaranteedUpdate',
      call: (key) => store.guaranteedUpdate(key, () => emptyPod()),
      cases: [
        ...invalid,
        ['pods', 'lacks resource prefix'],
        ['/pods', 'lacks resource prefix'],
        ['/pods.apps', 'lacks resource prefix'],
        ['/foo/', 'lacks resource prefix'],
        ['/pods/', ''],
        ['/pods/namespace', ''],
        ['/pods/namespace/name', ''],
      ],
    },
    {
      op: 'Delete',
      call: (key) => store.delete(key),
      cases: [
        ...invalid,
        ['pods', 'lacks resource prefix'],
        ['/pods', 'lacks resource prefix'],
        ['/pods.apps', 'lacks resource prefix'],
        ['/foo', 'lacks resource prefix'],
        ['/pods/', ''],
        ['/pods/namespace', ''],
        ['/pods/namespace/name', ''],
      ],
    },
  ];
  // The order matters: Create makes the objects that Get, GuaranteedUpdate and Delete find.
  for (const { op, cases, call } of ops) {
    for (const [key, errorContains] of cases) {
      await t.run(`${op} ${JSON.stringify(key)}`, () => outcome(call(key), errorContains));
    }
  }
  store.stop();
  t.done(ops.reduce((n, o) => n + o.cases.length, 0));
  return t.ran;
}

/** Registers the cases over `etcd` (the model in the unit suite, a real etcd in the etcd suite). */
export function storeKeySchemaCases(etcd: EtcdUnderTest): void {
  describe('RunTestKeySchema', () => {
    for (const impl of bothStores(etcd)) {
      it(`${impl.name} (TestKeySchema): 68 calls`, async () => {
        assert.strictEqual(await runTestKeySchema(await impl.setup()), 68);
      });
    }
  });
}
