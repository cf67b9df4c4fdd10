// Ports TestPrepareKey and TestInvalidKeys (k8s.io/apiserver pkg/storage/etcd3/store_test.go,
// release-1.36 = master) to the one storage.PrepareKey (src/engine/storage/keys.ts) behind both
// the etcd3 store and the cacher, plus its Go %q quoting of the key in every error.
import * as assert from 'assert';
import { FakeClock } from '../../../src/engine/clock';
import { MemoryEtcd } from '../../../src/engine/etcd/memory-etcd';
import { EtcdStore } from '../../../src/engine/etcd3/store';
import { prepareKey } from '../../../src/engine/storage/keys';
import { newListOptions } from '../../../src/engine/storage/list-options';
import type { KubeObject } from '../../../src/engine/storage/objects';
import { MockStorage, newTestCacher } from '../cacher/cacher-testing';

/** testSetup with its defaults: resourcePrefix "/pods/", and withPrefix(pathPrefix) when given. */
function newStore(pathPrefix?: string): EtcdStore {
  const clock = new FakeClock();
  return new EtcdStore({
    etcd: new MemoryEtcd({ clock }),
    clock,
    groupResource: { group: '', resource: 'pods' },
    resourcePrefix: '/pods/',
    pathPrefix,
  });
}

/** The error message of a call that must fail, synchronously or not. */
async function errorOf(name: string, f: () => unknown): Promise<string> {
  try {
    await f();
  } catch (e) {
    return (e as Error).message;
  }
  assert.fail(`[${name}] expected invalid key error; got nil`);
}

describe('split: storage.PrepareKey (etcd3 store_test.go)', () => {
  it('TestPrepareKey', () => {
    const validKeys = [
      '/pods/foo/bar/baz/a.b.c/',
      '/pods/foo',
      '/pods/foo/bar/baz',
      '/pods/foo/bar..baz/',
      '/pods/foo/bar..',
      '/pods/foo',
      '/pods/foo/bar',
      '/pods/foo/bar/',
      '/pods/',
    ];
    const invalidKeys = [
      '/pods',
      '/pods/foo/bar/../a.b.c/',
      '/pods/..',
      '/pods/../',
      '/pods/foo/bar/..',
      '/pods/../foo/bar',
      '/pods/../foo',
      '/pods/foo/bar/../',
      '/pods/.',
      '/pods/./',
      '/pods/foo/.',
      '/pods/./bar',
      '/pods/foo/./bar/',
      '/foo/bar/../a.b.c/',
      '..',
      '/..',
      '../',
      '/foo/bar/..',
      '../foo/bar',
      '/../foo',
      '/foo/bar/../',
      '.',
      '/.',
      './',
      '/./',
      '/foo/.',
      './bar',
      '/foo/./bar/',
    ];
    const pathPrefix = '/first/second';
    const expectPrefix = pathPrefix + '/';
    const store = newStore(pathPrefix);

    // Non-recursive
    for (const key of validKeys) {
      const preparedKey = store.prepareKey(key, false);
      assert.ok(
        preparedKey.startsWith(expectPrefix),
        `prepared key ${preparedKey} should have prefix ${expectPrefix}`,
      );
      assert.ok(
        preparedKey.endsWith(key),
        `Prepared non-recursive key ${preparedKey} should have suffix ${key}`,
      );
    }
    // Recursive
    for (const key of validKeys) {
      const preparedKey = store.prepareKey(key, true);
      assert.ok(
        preparedKey.startsWith(expectPrefix),
        `prepared key ${preparedKey} should have prefix ${expectPrefix}`,
      );
      assert.ok(preparedKey.endsWith('/'), `Prepared recursive key ${preparedKey} should end in /`);
    }
    // Invalid
    for (const key of invalidKeys)
      assert.throws(() => store.prepareKey(key, false), Error, `key ${key} should be invalid`);
  });

  it('TestInvalidKeys: every store method rejects the key with the same message', async () => {
    const invalidKey = '/foo/bar/../baz';
    const expectedError = `invalid key: "${invalidKey}"`;
    const store = newStore();
    const nil = undefined as unknown as KubeObject;
    const calls: [string, () => unknown][] = [
      ['Create', () => store.create(invalidKey, nil)],
      ['Delete', () => store.delete(invalidKey)],
      ['Watch', () => store.watch(invalidKey, {})],
      ['Get', () => store.get(invalidKey)],
      ['GetList', () => store.getList(invalidKey, newListOptions())],
      ['GuaranteedUpdate', () => store.guaranteedUpdate(invalidKey, (o) => o)],
    ];
    for (const [name, call] of calls)
      assert.strictEqual(await errorOf(name, call), expectedError, `[${name}]`);
  });

  it('the cacher answers the same messages: one implementation', async () => {
    const t = await newTestCacher(new MockStorage());
    try {
      for (const [key, recursive] of [
        ['/pods/../x', true],
        ['/', false],
        ['/nodes/a', false],
      ] as const) {
        const want = await errorOf(key, () => prepareKey('/pods/', key, recursive));
        const opts = newListOptions({ recursive });
        assert.strictEqual(await errorOf(key, () => t.cacher.getList(key, opts)), want, key);
        assert.strictEqual(await errorOf(key, () => t.cacher.watch(key, opts)), want, key);
      }
    } finally {
      t.cacher.stop();
    }
  });

  it("quotes keys as Go's %q (strconv.Quote)", () => {
    const cases: { key: string; recursive: boolean; want: string }[] = [
      { key: '', recursive: false, want: 'empty key: ""' },
      { key: '/', recursive: true, want: 'empty key: "/"' },
      { key: '/pods/a/../b', recursive: false, want: 'invalid key: "/pods/a/../b"' },
      { key: '/pods/./\x00', recursive: false, want: 'invalid key: "/pods/./\\x00"' },
      {
        key: '/nodes/\x00',
        recursive: false,
        want: 'invalid key: "/nodes/\\x00" lacks resource prefix: "/pods/"',
      },
      {
        key: '/nodes/"q"\\',
        recursive: true,
        want: 'invalid key: "/nodes/\\"q\\"\\\\/" lacks resource prefix: "/pods/"',
      },
      {
        key: '/nodes/\t\n\x7f\u00ad',
        recursive: false,
        want: 'invalid key: "/nodes/\\t\\n\\x7f\\u00ad" lacks resource prefix: "/pods/"',
      },
      {
        key: '/nodes/é\u{1f600}',
        recursive: false,
        want: 'invalid key: "/nodes/é\u{1f600}" lacks resource prefix: "/pods/"',
      },
      {
        key: '/nodes/\u{e0001}',
        recursive: false,
        want: 'invalid key: "/nodes/\\U000e0001" lacks resource prefix: "/pods/"',
      },
    ];
    for (const c of cases)
      assert.throws(
        () => prepareKey('/pods/', c.key, c.recursive),
        (e: Error) => e.message === c.want,
        JSON.stringify(c.key),
      );
  });
});
