// Tests for src/engine/cacher/caching-object.ts: ports TestCachingObject, TestCachingObjectFieldAccessors,
// TestCachingObjectRaces (as a seeded interleaving) and TestCachingObjectLazyDeepCopy
// (pkg/storage/cacher/caching_object_test.go), plus setCachingObjects' rules (cacher.go) as
// TestCachingObjects / TestCachingDeleteEvents check them.
import * as assert from 'assert';
import { FakeClock } from '../../../src/engine/clock';
import { SeededRandom } from '../../../src/engine/rand';
import type { KubeObject } from '../../../src/engine/storage/objects';
import type { WatchCacheEvent } from '../../../src/engine/cacher/watch-cache-event';
import {
  CacheInvalidationWarnings,
  CachingObject,
  baseObjectThreadUnsafe,
  getMutableObject,
  goDeepEqual,
  newCachingObject,
  setCachingObjects,
  updateResourceVersion,
  type CachingObjectHooks,
} from '../../../src/engine/cacher/caching-object';

const text = new TextEncoder();
const str = (b: Uint8Array) => new TextDecoder().decode(b);

class MockEncoder {
  callsNumber = 0;
  constructor(
    readonly identifier: string,
    readonly expectedResult: string,
    readonly expectedError?: Error,
  ) {}
  encode = (): Uint8Array => {
    this.callsNumber++;
    if (this.expectedError) throw this.expectedError;
    return text.encode(this.expectedResult);
  };
}

const emptyPod = (): KubeObject => ({ metadata: {} });

function pod(name: string, rv: string, labels?: Record<string, string>): KubeObject {
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name, namespace: 'ns', resourceVersion: rv, ...(labels ? { labels } : {}) },
  };
}

describe('cachingObject (caching_object.go)', () => {
  it('TestCachingObject: each identifier is encoded once; results and errors are cached', () => {
    const object = newCachingObject(emptyPod());
    const mockError = new Error('mock error');
    const encoders = [
      new MockEncoder('1', 'result1'),
      new MockEncoder('2', '', mockError),
      new MockEncoder('3', 'result3'),
    ];
    for (let round = 1; round <= 2; round++) {
      for (const e of encoders) {
        if (e.expectedError) {
          assert.throws(
            () => object.cacheEncode(e.identifier, e.encode),
            (err: unknown) => err === mockError,
            `${e.identifier} round ${round}: the cached error`,
          );
        } else {
          assert.strictEqual(
            str(object.cacheEncode(e.identifier, e.encode)),
            e.expectedResult,
            `${e.identifier} round ${round}`,
          );
        }
      }
    }
    for (const e of encoders)
      assert.strictEqual(e.callsNumber, 1, `${e.identifier}: number of encode() calls`);
    assert.deepStrictEqual(
      [...object.serializationCounts()],
      [
        ['1', { encodes: 1, hits: 1, errors: 0 }],
        ['2', { encodes: 1, hits: 1, errors: 1 }],
        ['3', { encodes: 1, hits: 1, errors: 0 }],
      ],
    );
  });

  it('TestCachingObjectFieldAccessors: encoders and GetObject see a set field', () => {
    const object = newCachingObject(emptyPod());
    object.setNamespace('namespace');
    const encodeNamespace = (o: KubeObject) => text.encode(o.metadata.namespace ?? '');
    assert.strictEqual(str(object.cacheEncode('', encodeNamespace)), 'namespace');
    assert.strictEqual(str(encodeNamespace(object.getObject())), 'namespace');
  });

  it('TestCachingObjectRaces: 1000 interleaved workers still encode each identifier once', () => {
    const object = newCachingObject(emptyPod());
    const encoders = Array.from({ length: 10 }, (_, i) => new MockEncoder(String(i), 'result'));
    // Each worker: SetNamespace, then CacheEncode with every encoder (checking the call count), then
    // GetObject. JS has no threads: a seeded scheduler interleaves the workers' steps instead.
    const steps: Array<Array<() => void>> = [];
    for (let w = 0; w < 1000; w++) {
      const mine: Array<() => void> = [() => object.setNamespace('namespace')];
      for (const e of encoders) {
        mine.push(() => {
          assert.strictEqual(str(object.cacheEncode(e.identifier, e.encode)), 'result');
          assert.strictEqual(
            e.callsNumber,
            1,
            `worker ${w}, encoder ${e.identifier}: number of serializations`,
          );
        });
      }
      mine.push(() =>
        assert.strictEqual(
          object.getObject().metadata.namespace,
          'namespace',
          `worker ${w}: namespace`,
        ),
      );
      steps.push(mine);
    }
    const rand = new SeededRandom(42);
    const runnable = steps.map((_, i) => i);
    while (runnable.length) {
      const pick = rand.intn(runnable.length);
      const w = runnable[pick];
      steps[w].shift()!();
      if (steps[w].length === 0) runnable.splice(pick, 1);
    }
    for (const e of encoders) assert.strictEqual(e.callsNumber, 1, `encoder ${e.identifier}`);
  });

  it('TestCachingObjectLazyDeepCopy', () => {
    const original = { metadata: { name: 'name', resourceVersion: '123' } };
    const object = newCachingObject(original);
    assert.strictEqual(object.deepCopied, false, 'object deep-copied without the need');
    object.setResourceVersion('123');
    assert.strictEqual(object.deepCopied, false, 'object deep-copied on no-op change');
    object.setResourceVersion('234');
    assert.strictEqual(object.deepCopied, true, 'object not deep-copied on change');
    assert.strictEqual(
      original.metadata.resourceVersion,
      '123',
      'the shared original is untouched',
    );
    assert.strictEqual(object.getResourceVersion(), '234');
  });

  it('refuses what is not an object with metadata', () => {
    const cases: Array<{ name: string; input: unknown }> = [
      { name: 'null', input: null },
      { name: 'a string', input: 'pod' },
      { name: 'an array', input: [] },
      { name: 'metadata not an object', input: { metadata: 'x' } },
      { name: 'undefined', input: undefined },
    ];
    for (const c of cases) {
      assert.throws(
        () => newCachingObject(c.input),
        (e: unknown) =>
          e instanceof Error && e.message.startsWith("can't cast object to metav1.Object: "),
        c.name,
      );
    }
    assert.doesNotThrow(
      () => newCachingObject({ kind: 'Pod' }),
      'an object without metadata (all fields zero)',
    );
  });

  it('setters: no-ops keep the cache and the shared object; changes copy once and drop the cache', () => {
    type Case = {
      name: string;
      start: Record<string, unknown>;
      set: (o: CachingObject) => void;
      noop: boolean;
      check?: (o: KubeObject) => void;
    };
    const t = '2024-01-01T00:00:00Z';
    const cases: Case[] = [
      {
        name: 'SetNamespace same',
        start: { namespace: 'a' },
        set: (o) => o.setNamespace('a'),
        noop: true,
      },
      {
        name: 'SetNamespace other',
        start: { namespace: 'a' },
        set: (o) => o.setNamespace('b'),
        noop: false,
        check: (o) => assert.strictEqual(o.metadata.namespace, 'b'),
      },
      { name: 'SetName "" on unset name', start: {}, set: (o) => o.setName(''), noop: true },
      {
        name: 'SetName "" removes the field (omitempty)',
        start: { name: 'x' },
        set: (o) => o.setName(''),
        noop: false,
        check: (o) => assert.ok(!('name' in o.metadata)),
      },
      {
        name: 'SetGenerateName same',
        start: { generateName: 'g-' },
        set: (o) => o.setGenerateName('g-'),
        noop: true,
      },
      { name: 'SetUID other', start: { uid: 'u1' }, set: (o) => o.setUID('u2'), noop: false },
      {
        name: 'SetResourceVersion same',
        start: { resourceVersion: '5' },
        set: (o) => o.setResourceVersion('5'),
        noop: true,
      },
      { name: 'SetGeneration 0 on unset', start: {}, set: (o) => o.setGeneration(0), noop: true },
      {
        name: 'SetGeneration 2',
        start: {},
        set: (o) => o.setGeneration(2),
        noop: false,
        check: (o) => assert.strictEqual(o.metadata.generation, 2),
      },
      {
        name: 'SetSelfLink same',
        start: { selfLink: '/x' },
        set: (o) => o.setSelfLink('/x'),
        noop: true,
      },
      {
        name: 'SetCreationTimestamp equal value (metav1.Time by value)',
        start: { creationTimestamp: t },
        set: (o) => o.setCreationTimestamp(t),
        noop: true,
      },
      {
        name: 'SetDeletionTimestamp nil on nil',
        start: {},
        set: (o) => o.setDeletionTimestamp(undefined),
        noop: true,
      },
      {
        name: 'SetDeletionTimestamp equal value (a new pointer)',
        start: { deletionTimestamp: t },
        set: (o) => o.setDeletionTimestamp(t),
        noop: false,
      },
      {
        name: 'SetDeletionGracePeriodSeconds nil on nil',
        start: {},
        set: (o) => o.setDeletionGracePeriodSeconds(undefined),
        noop: true,
      },
      {
        name: 'SetDeletionGracePeriodSeconds 0 (a pointer to 0 is kept)',
        start: {},
        set: (o) => o.setDeletionGracePeriodSeconds(0),
        noop: false,
        check: (o) =>
          assert.strictEqual((o.metadata as Record<string, unknown>).deletionGracePeriodSeconds, 0),
      },
      {
        name: 'SetLabels deep-equal map',
        start: { labels: { a: '1', b: '2' } },
        set: (o) => o.setLabels({ b: '2', a: '1' }),
        noop: true,
      },
      {
        name: 'SetLabels empty map on nil (DeepEqual: nil != empty)',
        start: {},
        set: (o) => o.setLabels({}),
        noop: false,
      },
      { name: 'SetLabels nil on nil', start: {}, set: (o) => o.setLabels(undefined), noop: true },
      {
        name: 'SetAnnotations other',
        start: { annotations: { a: '1' } },
        set: (o) => o.setAnnotations({ a: '2' }),
        noop: false,
      },
      {
        name: 'SetFinalizers same order',
        start: { finalizers: ['x', 'y'] },
        set: (o) => o.setFinalizers(['x', 'y']),
        noop: true,
      },
      {
        name: 'SetFinalizers other order',
        start: { finalizers: ['x', 'y'] },
        set: (o) => o.setFinalizers(['y', 'x']),
        noop: false,
      },
      {
        name: 'SetOwnerReferences deep-equal',
        start: { ownerReferences: [{ apiVersion: 'v1', kind: 'RS', name: 'r', uid: 'u' }] },
        set: (o) => o.setOwnerReferences([{ apiVersion: 'v1', kind: 'RS', name: 'r', uid: 'u' }]),
        noop: true,
      },
      {
        name: 'SetManagedFields other',
        start: { managedFields: [{ manager: 'a' }] },
        set: (o) => o.setManagedFields([{ manager: 'b' }]),
        noop: false,
      },
    ];
    for (const c of cases) {
      const shared = { kind: 'Pod', apiVersion: 'v1', metadata: c.start } as KubeObject;
      const before = JSON.stringify(shared);
      const o = newCachingObject(shared);
      o.cacheEncode('json', (x) => text.encode(JSON.stringify(x)));
      c.set(o);
      assert.strictEqual(o.deepCopied, !c.noop, `${c.name}: deepCopied`);
      assert.deepStrictEqual(
        o.cachedIdentifiers(),
        c.noop ? ['json'] : [],
        `${c.name}: cached serializations`,
      );
      assert.strictEqual(
        JSON.stringify(shared),
        before,
        `${c.name}: the shared object is never modified`,
      );
      c.check?.(o.getObject());
    }
  });

  it('keeps ObjectMeta field order when a setter adds a field', () => {
    const o = newCachingObject({ metadata: { name: 'a', labels: { x: '1' } } });
    o.setResourceVersion('7');
    o.setNamespace('ns');
    assert.deepStrictEqual(Object.keys(o.getObject().metadata), [
      'name',
      'namespace',
      'resourceVersion',
      'labels',
    ]);
  });

  it('getObject returns a deep copy the caller owns', () => {
    const o = newCachingObject(pod('a', '1', { app: 'x' }));
    const copy = o.getObject();
    copy.metadata.labels!.app = 'changed';
    copy.metadata.name = 'changed';
    assert.strictEqual(o.getLabels()!.app, 'x');
    assert.strictEqual(o.getName(), 'a');
  });

  it('DeepCopyObject: a new caching object over a copy, with an empty cache', () => {
    const o = newCachingObject(pod('a', '1'));
    o.cacheEncode('json', (x) => text.encode(JSON.stringify(x)));
    const c = o.deepCopyObject();
    assert.ok(c instanceof CachingObject);
    assert.strictEqual(c.deepCopied, true);
    assert.deepStrictEqual(c.cachedIdentifiers(), []);
    assert.notStrictEqual(c.peekObject(), o.peekObject());
    assert.deepStrictEqual(c.getObject(), o.getObject());
    assert.deepStrictEqual(c.getObjectKind(), { apiVersion: 'v1', kind: 'Pod' });
  });

  it('warns about an unexpected invalidation at most once per second (virtual clock)', () => {
    const clock = new FakeClock(10_000);
    const logged: string[] = [];
    const warnings = new CacheInvalidationWarnings(clock, (m) => logged.push(m));
    const steps: Array<{ name: string; at: number; encodeFirst: boolean; logged: number }> = [
      {
        name: 'no cached serialization: nothing to invalidate, no warning',
        at: 10_000,
        encodeFirst: false,
        logged: 0,
      },
      { name: 'first invalidation is logged', at: 10_000, encodeFirst: true, logged: 1 },
      { name: '500ms later: suppressed', at: 10_500, encodeFirst: true, logged: 1 },
      {
        name: 'exactly 1s later: still suppressed (strictly after)',
        at: 11_000,
        encodeFirst: true,
        logged: 1,
      },
      { name: '1.001s later: logged', at: 11_001, encodeFirst: true, logged: 2 },
    ];
    let rv = 1;
    for (const s of steps) {
      clock.advanceTo(s.at);
      const o = newCachingObject(pod('p', '1'), { warnings });
      if (s.encodeFirst) o.cacheEncode('json', (x) => text.encode(JSON.stringify(x)));
      o.setResourceVersion(String(++rv));
      assert.strictEqual(logged.length, s.logged, s.name);
    }
    assert.strictEqual(warnings.suppressed, 2);
    assert.match(
      logged[0],
      /^Unexpected cache invalidation for \{"kind":"Pod","apiVersion":"v1","metadata":\{"name":"p","namespace":"ns","resourceVersion":"1"\}\}\n\(by setResourceVersion\)$/,
    );
  });

  it('reports encodes, hits, the lazy copy and invalidations to the inspector', () => {
    const events: string[] = [];
    const eventSink: CachingObjectHooks = {
      encoded: (e) =>
        events.push(
          `encoded ${e.identifier} hit=${e.hit} bytes=${e.bytes}${e.error ? ` error=${e.error}` : ''}`,
        ),
      deepCopied: (e) => events.push(`deepCopied ${e.setter}`),
      invalidated: (e) => events.push(`invalidated ${e.setter} [${e.identifiers.join(',')}]`),
    };
    const o = newCachingObject(pod('p', '1'), { eventSink: eventSink });
    o.cacheEncode('a', () => text.encode('abc'));
    o.cacheEncode('a', () => text.encode('zzz'));
    assert.throws(() =>
      o.cacheEncode('b', () => {
        throw new Error('boom');
      }),
    );
    o.setResourceVersion('1');
    o.setResourceVersion('2');
    o.setResourceVersion('3');
    assert.deepStrictEqual(events, [
      'encoded a hit=false bytes=3',
      'encoded a hit=true bytes=3',
      'encoded b hit=false bytes=0 error=boom',
      'deepCopied setResourceVersion',
      'invalidated setResourceVersion [a,b]',
    ]);
  });

  it('getMutableObject and baseObjectThreadUnsafe (cache_watcher.go / cacher.go)', () => {
    const plain = pod('p', '1');
    const co = newCachingObject(plain);
    assert.strictEqual(getMutableObject(co), co, 'a caching object is handed out as is');
    const copy = getMutableObject(plain);
    assert.notStrictEqual(copy, plain, 'a plain object is deep-copied');
    assert.deepStrictEqual(copy, plain);
    assert.strictEqual(baseObjectThreadUnsafe(co), plain, 'unwraps without copying');
    assert.strictEqual(baseObjectThreadUnsafe(plain), plain);
  });

  it('updateResourceVersion sets metadata.resourceVersion ("" for 0) on plain and caching objects', () => {
    const cases: Array<{ name: string; rv: number; want: string | undefined }> = [
      { name: 'rv 42', rv: 42, want: '42' },
      { name: 'rv 0 clears it', rv: 0, want: undefined },
    ];
    for (const c of cases) {
      const plain = pod('p', '1');
      updateResourceVersion(plain, c.rv);
      assert.strictEqual(plain.metadata.resourceVersion, c.want, `${c.name}: plain`);
      const co = newCachingObject(pod('p', '1'));
      updateResourceVersion(co, c.rv);
      assert.strictEqual(
        co.getObject().metadata.resourceVersion,
        c.want,
        `${c.name}: caching object`,
      );
    }
  });

  it('goDeepEqual follows reflect.DeepEqual for JSON data', () => {
    const cases: Array<[unknown, unknown, boolean]> = [
      [undefined, undefined, true],
      [undefined, {}, false],
      [[], undefined, false],
      [{ a: '1', b: '2' }, { b: '2', a: '1' }, true],
      [['a', 'b'], ['b', 'a'], false],
      [{ a: [{ x: 1 }] }, { a: [{ x: 1 }] }, true],
      [{ a: 1 }, { a: 1, b: 2 }, false],
      [[], {}, false],
    ];
    for (const [a, b, want] of cases)
      assert.strictEqual(goDeepEqual(a, b), want, `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
  });
});

describe('setCachingObjects (cacher.go)', () => {
  function event(
    type: WatchCacheEvent['type'],
    object: KubeObject | undefined,
    prevObject: KubeObject | undefined,
    resourceVersion: number,
  ): WatchCacheEvent<KubeObject | CachingObject> {
    return {
      type,
      object,
      prevObject,
      objLabels: {},
      objFields: {},
      key: '/pods/ns/pod',
      resourceVersion,
      recordTime: 0,
    };
  }

  it('wraps Object for ADDED/MODIFIED, PrevObject at the event RV for DELETED, nothing for BOOKMARK', () => {
    const pod1 = pod('pod', '1001');
    const pod2 = pod('pod', '1002');
    const pod3 = pod('pod', '1003');
    const cases: Array<{
      name: string;
      ev: WatchCacheEvent<KubeObject | CachingObject>;
      objectWrapped: boolean;
      prevWrapped: boolean;
      wantObjectRV?: string;
      wantPrevRV?: string;
    }> = [
      {
        name: 'ADDED',
        ev: event('ADDED', pod1, undefined, 1001),
        objectWrapped: true,
        prevWrapped: false,
        wantObjectRV: '1001',
      },
      {
        name: 'MODIFIED (PrevObject stays plain)',
        ev: event('MODIFIED', pod2, pod1, 1002),
        objectWrapped: true,
        prevWrapped: false,
        wantObjectRV: '1002',
      },
      {
        name: 'DELETED (PrevObject at the delete RV)',
        ev: event('DELETED', pod3, pod2, 1003),
        objectWrapped: false,
        prevWrapped: true,
        wantPrevRV: '1003',
      },
      {
        name: 'BOOKMARK',
        ev: event('BOOKMARK', { metadata: { resourceVersion: '1004' } }, undefined, 1004),
        objectWrapped: false,
        prevWrapped: false,
      },
    ];
    for (const c of cases) {
      const shallow = { ...c.ev }; // the dispatch's copy: the stored event keeps plain objects
      setCachingObjects(shallow);
      assert.strictEqual(
        shallow.object instanceof CachingObject,
        c.objectWrapped,
        `${c.name}: object`,
      );
      assert.strictEqual(
        shallow.prevObject instanceof CachingObject,
        c.prevWrapped,
        `${c.name}: prevObject`,
      );
      assert.ok(
        !(c.ev.object instanceof CachingObject) && !(c.ev.prevObject instanceof CachingObject),
        `${c.name}: the stored event is untouched`,
      );
      if (c.wantObjectRV)
        assert.strictEqual(
          (shallow.object as CachingObject).getResourceVersion(),
          c.wantObjectRV,
          `${c.name}: object RV`,
        );
      if (c.wantPrevRV) {
        const prev = shallow.prevObject as CachingObject;
        assert.strictEqual(prev.getResourceVersion(), c.wantPrevRV, `${c.name}: prevObject RV`);
        assert.strictEqual(prev.deepCopied, true, `${c.name}: copied before the RV change`);
      }
    }
    assert.strictEqual(
      pod2.metadata.resourceVersion,
      '1002',
      'the cached PrevObject keeps its own RV',
    );
  });

  it('GetObject of each wrapped event object equals the cached one (DELETED: with the delete RV)', () => {
    const objs = [pod('pod', '1001'), pod('pod', '1002'), pod('pod', '1003')];
    const evs = [
      event('ADDED', objs[0], undefined, 1001),
      event('MODIFIED', objs[1], objs[0], 1002),
      event('DELETED', objs[2], objs[1], 1003),
    ];
    for (const e of evs) {
      const shallow = { ...e };
      setCachingObjects(shallow);
      const delivered = (
        e.type === 'DELETED' ? shallow.prevObject : shallow.object
      ) as CachingObject;
      const expected = JSON.parse(
        JSON.stringify(e.type === 'DELETED' ? e.prevObject : e.object),
      ) as KubeObject;
      if (e.type === 'DELETED') expected.metadata.resourceVersion = String(e.resourceVersion);
      assert.deepStrictEqual(delivered.getObject(), expected, e.type);
    }
  });

  it('reports what it cannot wrap and leaves it as is', () => {
    const errors: string[] = [];
    const bad = event('ADDED', 'not an object' as unknown as KubeObject, undefined, 5);
    setCachingObjects(bad, { onError: (m) => errors.push(m) });
    assert.strictEqual(bad.object, 'not an object');
    assert.deepStrictEqual(errors, ['couldn\'t create cachingObject from: "not an object"']);
  });
});
