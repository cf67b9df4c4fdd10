// Tests for the single-object side of src/engine/etcd3/store.ts (etcd3/store.go Get, Create,
// GuaranteedUpdate, Delete, GetCurrentResourceVersion, prepareKey) and the non-recursive GetList.
import * as assert from 'assert';
import type { KV } from '../../../src/engine/etcd/kv';
import { EtcdStore } from '../../../src/engine/etcd3/store';
import { SelectionPredicate } from '../../../src/engine/storage/selection-predicate';
import { newListOptions } from '../../../src/engine/storage/list-options';
import type { KubeObject } from '../../../src/engine/storage/objects';
import { pod, rejectedStatus, testSetup } from './etcd3-testing';
import type { EtcdUnderTest } from '../../harness/etcd-under-test';

/** Registers the cases over `etcd` (the model in the unit suite, a real etcd in the etcd suite). */
export function storeObjectsCases(etcd: EtcdUnderTest): void {
  describe('etcd3 store objects', () => {
    it('the library API: put/delete/compact on the etcd, getList with the friendly options', async () => {
      const { etcd: e, store } = await testSetup(etcd);
      assert.strictEqual(await e.put('/registry/pods/ns/a', JSON.stringify(pod('ns', 'a'))), 2);
      assert.strictEqual(await e.put('/registry/pods/ns/b', JSON.stringify(pod('ns', 'b'))), 3);
      assert.strictEqual(
        await e.put('/registry/pods/other/c', JSON.stringify(pod('other', 'c'))),
        4,
      );
      const page = await store.getList('/registry/pods/', { predicate: { limit: 2 } });
      assert.deepStrictEqual(
        page.items.map((i) => i.metadata.resourceVersion),
        ['2', '3'],
      );
      assert.strictEqual(page.resourceVersion, '4');
      assert.strictEqual(page.remainingItemCount, 1);
      const ns = await store.getList('/registry/pods/ns/');
      assert.strictEqual(ns.items.length, 2, 'recursive by default');
      const noSlash = await store.getList('/registry/pods/ns');
      assert.deepStrictEqual(
        noSlash,
        ns,
        'a recursive key gets its trailing slash (and the same token prefix)',
      );
      const upstreamStyle = await store.getList('/pods/ns/');
      assert.deepStrictEqual(
        upstreamStyle,
        ns,
        'upstream-style keys are under the /registry path prefix',
      );
      const single = await store.getList('/registry/pods/ns/a', { recursive: false });
      assert.deepStrictEqual(
        single.items.map((i) => i.metadata.name),
        ['a'],
        'recursive: false reads the one key',
      );
      const internal = await store.getList(
        '/registry/pods/ns/',
        newListOptions({ recursive: true, predicate: SelectionPredicate.from({ limit: 1 }) }),
      );
      assert.strictEqual(internal.items.length, 1, 'storage ListOptions are accepted too');
      assert.ok(
        store.metrics.text().includes('apiserver_storage_list_total{group="",resource="pods"} 6'),
      );
    });

    it('non-recursive GetList: Kvs=[kv] Count=1 or nothing; continue is ignored; limit gives no token', async () => {
      const t = await testSetup(etcd);
      await t.store.create('/pods/ns/a', pod('ns', 'a'));
      const rows: [string, string, number][] = [
        ['existing key', '/pods/ns/a', 1],
        ['missing key', '/pods/ns/zz', 0],
        ['a prefix is not listed', '/pods/ns', 0],
      ];
      for (const [name, key, n] of rows) {
        const out = await t.store.getList(key, {
          recursive: false,
          predicate: { limit: 1, continue: 'garbage' },
        });
        assert.strictEqual(out.items.length, n, name);
        assert.strictEqual(out.continue, undefined, name);
        assert.strictEqual(out.resourceVersion, '2', name);
      }
      assert.deepStrictEqual(
        t.recorder.listRequests().map((r) => r.limit),
        [0, 0, 0],
        'single-key gets without a limit',
      );
      assert.strictEqual(
        t.store.metrics.samples()['etcd_requests_total{group="",operation="get",resource="pods"}'],
        3,
      );
    });

    it('getCurrentResourceVersion reads the revision with one get of the resource prefix', async () => {
      const t = await testSetup(etcd);
      await t.store.create('/pods/ns/a', pod('ns', 'a'));
      await t.etcd.put('/registry/other/x', '{}');
      t.recorder.clear();
      assert.strictEqual(await t.store.getCurrentResourceVersion(), 3n);
      assert.deepStrictEqual(t.recorder.listRequests(), [
        { key: '/registry/pods', revision: 0, limit: 0 },
      ]);
    });

    it('get / create / guaranteedUpdate / delete keep metadata.resourceVersion = modRevision', async () => {
      const t = await testSetup(etcd);
      const created = await t.store.create('/pods/ns/a', pod('ns', 'a'));
      assert.strictEqual(created.metadata.resourceVersion, '2');
      assert.strictEqual(
        JSON.parse((await t.etcd.range({ key: '/registry/pods/ns/a' })).kvs[0].value).metadata
          .resourceVersion,
        undefined,
        'the RV is not stored',
      );
      const dup = await rejectedStatus(t.store.create('/pods/ns/a', pod('ns', 'a')), 'duplicate');
      assert.deepStrictEqual(
        [dup.code, dup.reason, dup.message],
        [409, 'AlreadyExists', 'pods "a" already exists'],
      );
      const withRV = {
        ...pod('ns', 'b'),
        metadata: { name: 'b', namespace: 'ns', resourceVersion: '5' },
      };
      await assert.rejects(
        t.store.create('/pods/ns/b', withRV),
        /resourceVersion should not be set on objects to be created/,
      );
      const updated = await t.store.guaranteedUpdate('/pods/ns/a', (cur: KubeObject, meta) => {
        assert.strictEqual(meta.resourceVersion, 2n);
        return { ...cur, metadata: { ...cur.metadata, labels: { x: '1' } } };
      });
      assert.strictEqual(updated.metadata.resourceVersion, '3');
      const same = await t.store.guaranteedUpdate('/pods/ns/a', (cur) => cur);
      assert.strictEqual(same.metadata.resourceVersion, '3', 'an unchanged object is not written');
      assert.strictEqual(t.etcd.currentRevision(), 3);
      const got = await t.store.get('/pods/ns/a');
      assert.deepStrictEqual(got, updated);
      await assert.rejects(
        t.store.get('/pods/ns/a', { resourceVersion: '9' }),
        /Too large resource version: 9, current: 3/,
      );
      const deleted = await t.store.delete('/pods/ns/a');
      assert.strictEqual(
        deleted.metadata.resourceVersion,
        '4',
        'the deleted object carries the delete revision',
      );
      assert.strictEqual(await t.store.get('/pods/ns/a', { ignoreNotFound: true }), undefined);
      const nf = await rejectedStatus(t.store.get('/pods/ns/a'), 'not found');
      assert.deepStrictEqual([nf.code, nf.message], [404, 'pods "a" not found']);
      const nf2 = await rejectedStatus(t.store.delete('/pods/ns/a'), 'delete missing');
      assert.strictEqual(nf2.code, 404);
    });

    it('guaranteedUpdate retries when the object changed between its read and its write', async () => {
      const t = await testSetup(etcd);
      await t.store.create('/pods/ns/a', pod('ns', 'a'));
      // A concurrent writer bumps the key after our first read: its write lands before our txn.
      let concurrent: Promise<unknown> | undefined;
      const kv: KV = {
        range: (req) => t.etcd.range(req),
        rangeStream: (req) => t.etcd.rangeStream(req),
        txn: async (req) => {
          await concurrent;
          return t.etcd.txn(req);
        },
        deleteRange: (req) => t.etcd.deleteRange(req),
        compaction: (req) => t.etcd.compaction(req),
        watch: (req) => t.etcd.watch(req),
      };
      const store = new EtcdStore({
        etcd: kv,
        clock: t.clock,
        groupResource: t.store.groupResource,
      });
      let calls = 0;
      const out = await store.guaranteedUpdate('/pods/ns/a', (cur) => {
        calls++;
        if (calls === 1)
          concurrent = Promise.resolve(
            t.etcd.put(
              '/registry/pods/ns/a',
              JSON.stringify({
                ...pod('ns', 'a'),
                metadata: { name: 'a', namespace: 'ns', labels: { by: 'other' } },
              }),
            ),
          );
        return { ...cur, metadata: { ...cur.metadata, annotations: { mine: 'yes' } } };
      });
      assert.strictEqual(calls, 2);
      assert.deepStrictEqual(
        out.metadata.labels,
        { by: 'other' },
        'the retry started from the concurrent write',
      );
      assert.strictEqual(out.metadata.resourceVersion, '4');
    });

    it('rejects bad keys with upstream`s messages', async () => {
      const t = await testSetup(etcd);
      const rows: [string, RegExp][] = [
        ['/pods/../secrets/', /invalid key: "\/pods\/..\/secrets\/"/],
        ['/pods/./x', /invalid key/],
        ['/', /empty key: "\/"/],
        ['', /empty key: ""/],
      ];
      for (const [key, re] of rows) {
        const st = await rejectedStatus(t.store.getList(key, {}), key);
        assert.match(st.message ?? '', re, key);
        assert.strictEqual(st.code, 500, `${key}: a plain error is a 500`);
      }
      const strict = new EtcdStore({
        etcd: t.etcd,
        clock: t.clock,
        groupResource: { group: '', resource: 'pods' },
        resourcePrefix: '/pods',
      });
      const st = await rejectedStatus(strict.getList('/registry/secrets/', {}), 'other resource');
      assert.strictEqual(st.message, 'invalid key: "/secrets/" lacks resource prefix: "/pods"');
      assert.throws(
        () =>
          new EtcdStore({
            etcd: t.etcd,
            clock: t.clock,
            groupResource: { group: '', resource: '' },
          }),
        /groupResource must be/,
      );
    });

    it('decodes like Go: null and a missing metadata are empty objects; a non-object JSON value is a decode error', async () => {
      const rows: [string, string, boolean][] = [
        ['empty object', '{}', true],
        ['null', 'null', true],
        ['null metadata', '{"metadata":null}', true],
        ['array', '[1]', false],
        ['number', '5', false],
      ];
      for (const [name, value, ok] of rows) {
        const t = await testSetup(etcd);
        await t.etcd.put('/registry/pods/ns/x', value);
        let err: unknown;
        const out = await t.store.getList('/pods/', {}).catch((e) => {
          err = e;
          return undefined;
        });
        assert.strictEqual(err === undefined, ok, `${name}: ${String(err)}`);
        if (ok)
          assert.deepStrictEqual(
            out?.items.map((i) => i.metadata.resourceVersion),
            ['2'],
            name,
          );
      }
    });

    it('a value that is not JSON aborts the LIST (abortOnFirstError) and counts a decode error', async () => {
      const t = await testSetup(etcd);
      await t.etcd.put('/registry/pods/ns/a', JSON.stringify(pod('ns', 'a')));
      await t.etcd.put('/registry/pods/ns/b', 'not json');
      const st = await rejectedStatus(t.store.getList('/pods/', {}), 'corrupt');
      assert.strictEqual(st.code, 500);
      assert.match(st.message ?? '', /unable to decode "\/registry\/pods\/ns\/b"/);
      const s = t.store.metrics.samples();
      assert.strictEqual(s['apiserver_storage_decode_errors_total{group="",resource="pods"}'], 1);
      assert.strictEqual(
        s['apiserver_storage_list_fetched_objects_total{group="",resource="pods"}'],
        2,
      );
      assert.strictEqual(
        s['apiserver_storage_list_evaluated_objects_total{group="",resource="pods"}'],
        1,
      );
      assert.strictEqual(
        s['apiserver_storage_list_returned_objects_total{group="",resource="pods"}'],
        1,
      );
    });
  });
}
