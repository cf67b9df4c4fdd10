// Ports k8s.io/apiserver pkg/storage/testing/watcher_tests.go (release-1.36; master differs only in
// RunTestWatchWithUnsafeDelete, not ported here): the watch cases shared by the etcd3 store and
// the cacher. Each Run function takes what upstream's takes (a storage, sometimes a compaction
// or a transformer hook) and throws on the first failed expectation, naming the case.
// Deliberate differences are commented where they are; `ctx` values become WatchCall fields.
import * as assert from 'assert';
import { initialEventsAnnotationKey } from '../../../src/engine/etcd3/watcher';
import type { Status } from '../../../src/engine/storage/errors';
import * as fields from '../../../src/engine/storage/fields';
import * as labels from '../../../src/engine/storage/labels';
import { newListOptions, type ListOptions } from '../../../src/engine/storage/list-options';
import type { KubeObject, Pod } from '../../../src/engine/storage/objects';
import { SelectionPredicate } from '../../../src/engine/storage/selection-predicate';
import {
  FailingTransformer,
  baseNamespacedPod,
  baseNamespacedPodAssigned,
  baseNamespacedPodUpdated,
  basePod,
  basePodAssigned,
  basePodUpdated,
  computePodKey,
  createPodPredicate,
  deepCopy,
  everything,
  foreverTestTimeout,
  makeNamedPod,
  newPod,
  objectResourceVersion,
  pod,
  receive,
  testCheckEventType,
  testCheckNoMoreResultsWithIgnoreFunc,
  testCheckResult,
  testCheckResultFunc,
  testCheckResultWithIgnoreFunc,
  testCheckResultsInStrictOrder,
  testCheckStop,
  testPropagateStore,
  describeEvent,
  type Compaction,
  type TestEvent,
  type TestWatch,
  type TestWatchStruct,
  type WatchTestStorage,
  type WatchTestStorageWithPrefixTransformer,
} from './watch-testing';

function opts(o: Partial<ListOptions>): ListOptions {
  return newListOptions({ predicate: everything(), ...o });
}

/** The field selector of a predicate whose GetAttrs reports just these fields. */
function fieldPredicate(
  selector: string,
  attrs: (p: Pod) => Record<string, string>,
): SelectionPredicate {
  return new SelectionPredicate({
    label: labels.everything(),
    field: fields.parseSelector(selector),
    getAttrs: (obj) => ({ labels: {}, fields: attrs(obj as Pod) }),
  });
}

function withNamespace(p: Pod, namespace: string): Pod {
  const c = deepCopy(p);
  c.metadata.namespace = namespace;
  return c;
}

/** The initial-events-end BOOKMARK at an RV (storage.AnnotateInitialEventsEndBookmark on newFunc()). */
function initialEventsEndBookmark(resourceVersion: string): TestEvent {
  const object = newPod();
  object.metadata = {
    resourceVersion,
    annotations: { [initialEventsAnnotationKey]: 'true' },
  };
  return { type: 'BOOKMARK', object };
}

/** Events for a write that the watch sees as ADDED (or MODIFIED, DELETED). */
function ev(type: TestEvent['type'], object: KubeObject): TestEvent {
  return { type, object };
}

// ---------------------------------------------------------------- RunTestWatch

/** RunTestWatch: testWatch non-recursive, then recursive. */
export async function runTestWatch(store: WatchTestStorage): Promise<void> {
  await testWatch(store, false);
  await testWatch(store, true);
}

/**
 * testWatch: the first occurrence notifies ADDED, an update MODIFIED, an update that gets
 * filtered out DELETED.
 */
async function testWatch(store: WatchTestStorage, recursive: boolean): Promise<void> {
  const basePodObj = testWatchPod('');
  const basePodAssignedObj = testWatchPod('bar');
  const selectedPod = (p: Pod): Pod => {
    const r = deepCopy(p);
    r.metadata.labels = { select: 'true' };
    return r;
  };
  const nodeNameAttrs = (p: Pod) => ({ 'spec.nodeName': p.spec?.nodeName ?? '' });
  const tests: {
    name: string;
    namespace: string;
    pred: SelectionPredicate;
    watchTests: { obj: Pod | undefined; expectEvent: boolean; watchType: TestEvent['type'] | '' }[];
  }[] = [
    {
      name: 'create a key',
      namespace: `test-ns-1-${recursive}`,
      watchTests: [{ obj: basePodObj, expectEvent: true, watchType: 'ADDED' }],
      pred: everything(),
    },
    {
      name: 'key updated to match predicate',
      namespace: `test-ns-2-${recursive}`,
      watchTests: [
        { obj: basePodObj, expectEvent: false, watchType: '' },
        { obj: basePodAssignedObj, expectEvent: true, watchType: 'ADDED' },
      ],
      pred: fieldPredicate('spec.nodeName=bar', nodeNameAttrs),
    },
    {
      name: 'update',
      namespace: `test-ns-3-${recursive}`,
      watchTests: [
        { obj: basePodObj, expectEvent: true, watchType: 'ADDED' },
        { obj: basePodAssignedObj, expectEvent: true, watchType: 'MODIFIED' },
      ],
      pred: everything(),
    },
    {
      name: 'delete because of being filtered',
      namespace: `test-ns-4-${recursive}`,
      watchTests: [
        { obj: basePodObj, expectEvent: true, watchType: 'ADDED' },
        { obj: basePodAssignedObj, expectEvent: true, watchType: 'DELETED' },
      ],
      pred: fieldPredicate('spec.nodeName!=bar', nodeNameAttrs),
    },
    {
      name: 'filtering',
      namespace: `test-ns-5-${recursive}`,
      watchTests: [
        { obj: selectedPod(basePodObj), expectEvent: true, watchType: 'ADDED' },
        { obj: basePodObj, expectEvent: true, watchType: 'DELETED' },
        { obj: selectedPod(basePodObj), expectEvent: true, watchType: 'ADDED' },
        { obj: selectedPod(basePodAssignedObj), expectEvent: true, watchType: 'MODIFIED' },
        { obj: undefined, expectEvent: true, watchType: 'DELETED' },
      ],
      pred: new SelectionPredicate({
        label: labels.selectorFromSet({ select: 'true' }),
        field: fields.everything(),
        getAttrs: (obj) => ({ labels: obj.metadata.labels ?? {}, fields: {} }),
      }),
    },
  ];
  for (const tt of tests) {
    const name = `testWatch(recursive=${recursive}) ${tt.name}`;
    let watchKey = `/pods/${tt.namespace}`;
    const key = watchKey + '/foo';
    if (!recursive) watchKey = key;

    // Get the current RV from which we can start watching.
    const out = await store.getList(watchKey, opts({ predicate: tt.pred, recursive }));
    const w = await store.watch(
      watchKey,
      opts({ resourceVersion: out.resourceVersion, predicate: tt.pred, recursive }),
    );

    // Create a pod in a different namespace first to ensure that its corresponding event will
    // not be propagated.
    await store.guaranteedUpdate(`/pods/${tt.namespace}-bad/foo`, () =>
      withNamespace(basePodObj, `${tt.namespace}-bad`),
    );

    let prevObj: KubeObject | undefined;
    for (const [i, watchTest] of tt.watchTests.entries()) {
      const obj = watchTest.obj;
      const written =
        obj !== undefined
          ? await store.guaranteedUpdate(key, () => withNamespace(obj, tt.namespace))
          : await store.delete(key);
      if (watchTest.expectEvent) {
        let expectObj = written;
        if (watchTest.watchType === 'DELETED') {
          expectObj = deepCopy(prevObj as KubeObject);
          expectObj.metadata.resourceVersion = written.metadata.resourceVersion;
        }
        await testCheckResult(
          store,
          w,
          ev(watchTest.watchType as TestEvent['type'], expectObj),
          `${name} step ${i}`,
        );
      }
      prevObj = written;
    }
    w.stop();
    await testCheckStop(store, w, name);
  }
}

/** basePod / basePodAssigned of testWatch: name foo, optionally on a node. */
function testWatchPod(nodeName: string): Pod {
  const p = pod('', 'foo');
  if (nodeName) p.spec = { ...p.spec, nodeName };
  return p;
}

// ---------------------------------------------------------------- from zero / non-zero

/**
 * RunTestWatchFromZero: a watch from 0 syncs up and gets the object added before; for etcd it
 * still does after its earlier versions were compacted, and an RV from before the compaction is
 * then 410 Gone (or, as etcd sometimes says, an internal error).
 */
export async function runTestWatchFromZero(
  store: WatchTestStorage,
  compaction: Compaction | undefined,
): Promise<void> {
  const name = 'RunTestWatchFromZero';
  const { key, storedObj } = await testPropagateStore(store, pod('test-ns', 'foo'));

  let w = await store.watch(key, opts({ resourceVersion: '0' }));
  await testCheckResult(store, w, ev('ADDED', storedObj), `${name}: first watch from 0`);

  // Update
  const out = await store.guaranteedUpdate(key, () => {
    const p = pod('test-ns', 'foo');
    p.metadata.annotations = { a: '1' };
    return p;
  });
  // The MODIFIED event also shows that the cache (for the cacher) has caught up.
  await testCheckResult(store, w, ev('MODIFIED', out), `${name}: MODIFIED`);
  w.stop();

  // Make sure when we watch from 0 we receive an ADDED event.
  w = await store.watch(key, opts({ resourceVersion: '0' }));
  await testCheckResult(store, w, ev('ADDED', out), `${name}: second watch from 0`);
  w.stop();

  // Compact previous versions (both callers pass a compaction: upstream's t.Skip never runs).
  if (compaction === undefined) return;

  // Update again
  const newOut = await store.guaranteedUpdate(key, () => pod('test-ns', 'foo'));
  await compaction(newOut.metadata.resourceVersion as string);

  // Make sure we can still watch from 0 and receive an ADDED event.
  w = await store.watch(key, opts({ resourceVersion: '0' }));
  try {
    await testCheckResult(store, w, ev('ADDED', newOut), `${name}: watch from 0 after compaction`);
  } finally {
    w.stop();
  }

  // Make sure we can't watch from older resource versions any more and get a "Gone" error.
  const tooOldWatcher = await store.watch(
    key,
    opts({ resourceVersion: out.metadata.resourceVersion }),
  );
  try {
    const expiredError: Status = { metadata: {}, status: 'Failure', code: 410, reason: 'Expired' };
    // etcd may answer "etcd event received with PrevKv=nil" as an internal error instead.
    const internalError: Status = {
      metadata: {},
      status: 'Failure',
      code: 500,
      reason: 'InternalError',
    };
    await testCheckResultFunc(store, tooOldWatcher, `${name}: too old`, (actual) => {
      assert.strictEqual(actual.type, 'ERROR', `${name}: incorrect event type`);
      assert.ok(
        deepDerivative(expiredError, actual.object) || deepDerivative(internalError, actual.object),
        `${name}: expected ${JSON.stringify(expiredError)}; got ${JSON.stringify(actual.object)}`,
      );
    });
  } finally {
    tooOldWatcher.stop();
  }
}

/**
 * apiequality.Semantic.DeepDerivative: every field set in `expected` equals actual's (empty
 * strings, nil pointers and slices in expected match anything).
 */
function deepDerivative(expected: unknown, actual: unknown): boolean {
  if (expected === undefined || expected === null || expected === '') return true;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || expected.length > actual.length) return false;
    return expected.every((e, i) => deepDerivative(e, actual[i]));
  }
  if (typeof expected === 'object') {
    if (typeof actual !== 'object' || actual === null) return false;
    return Object.entries(expected).every(([k, v]) =>
      deepDerivative(v, (actual as Record<string, unknown>)[k]),
    );
  }
  return expected === actual;
}

/** RunTestDeleteTriggerWatch. */
export async function runTestDeleteTriggerWatch(store: WatchTestStorage): Promise<void> {
  const { key, storedObj } = await testPropagateStore(store, pod('test-ns', 'foo'));
  const w = await store.watch(key, opts({ resourceVersion: storedObj.metadata.resourceVersion }));
  await store.delete(key);
  await testCheckEventType(store, w, 'DELETED', 'RunTestDeleteTriggerWatch');
}

/** RunTestWatchFromNonZero: a watch from a non-0 RV sees just the changes after it. */
export async function runTestWatchFromNonZero(store: WatchTestStorage): Promise<void> {
  const { key, storedObj } = await testPropagateStore(store, pod('test-ns', 'foo'));
  const w = await store.watch(key, opts({ resourceVersion: storedObj.metadata.resourceVersion }));
  const out = await store.guaranteedUpdate(key, () => {
    const newObj = deepCopy(storedObj);
    newObj.metadata.annotations = { version: '2' };
    return newObj;
  });
  await testCheckResult(store, w, ev('MODIFIED', out), 'RunTestWatchFromNonZero');
}

// ---------------------------------------------------------------- delivery and timeouts

/**
 * RunTestDelayedWatchDelivery: 21 events (the most Cacher buffers before it would have to close
 * a blocked watcher), one read, a second's pause, Stop: at least the out buffer (10) + 1 arrive.
 */
export async function runTestDelayedWatchDelivery(store: WatchTestStorage): Promise<void> {
  const name = 'RunTestDelayedWatchDelivery';
  const { storedObj } = await testPropagateStore(store, pod('test-ns', 'foo'));
  const startRV = storedObj.metadata.resourceVersion;
  const watcher = await store.watch(
    '/pods/test-ns',
    opts({ resourceVersion: startRV, recursive: true }),
  );

  const totalPods = 21;
  for (let i = 0; i < totalPods; i++) {
    const p = pod('test-ns', `foo-${i}`);
    await store.guaranteedUpdate(computePodKey(p), () => p);
  }

  let watched = 0;
  for (;;) {
    // A bare channel receive upstream: a watch that neither delivers nor closes hangs the test.
    const r = await receive(store.clock, watcher, foreverTestTimeout);
    if (r === undefined) assert.fail(`${name}: neither an event nor a close after ${watched}`);
    if ('closed' in r) break;
    assert.strictEqual(
      (r.event.object as KubeObject).metadata.name,
      `foo-${watched}`,
      `${name}: Unexpected object watched`,
    );
    watched++;
    // Before stopping the watcher wait for an event to arrive and give them time to fill the queue.
    if (watched === 1) {
      await store.clock.stepAsync(1000);
      // Stop the watcher to check if the consecutive events will be delivered.
      watcher.stop();
    }
  }
  // At least N events, depending on the implementation; for Cacher the out buffer (10) + 1.
  const outBufferSize = 10;
  const expectWatched = outBufferSize + 1;
  assert.ok(
    watched >= expectWatched,
    `${name}: Unexpected number of events: ${watched}, expected at least: ${expectWatched}`,
  );
}

/** RunTestWatchError: a watch whose event cannot be read from storage gets an ERROR event. */
export async function runTestWatchError(
  store: WatchTestStorageWithPrefixTransformer,
): Promise<void> {
  const obj = pod('test-ns', 'foo');
  const key = computePodKey(obj);

  // Compute the initial resource version from which we can start watching later.
  const list = await store.getList('/pods/', opts({ resourceVersion: '0', recursive: true }));
  await store.guaranteedUpdate(key, () => obj);

  // Now trigger watch error by injecting failing transformer.
  const revertTransformer = store.updatePrefixTransformer(() => new FailingTransformer());
  try {
    const w = await store.watch(key, opts({ resourceVersion: list.resourceVersion }));
    await testCheckEventType(store, w, 'ERROR', 'RunTestWatchError');
  } finally {
    revertTransformer();
  }
}

/** RunTestWatchContextCancel: a watch with a cancelled context closes without an error. */
export async function runTestWatchContextCancel(store: WatchTestStorage): Promise<void> {
  const cancelled = new AbortController();
  cancelled.abort();
  const w = await store.watch('/pods/not-existing', opts({ resourceVersion: '0' }), {
    signal: cancelled.signal,
  });
  const r = await receive(store.clock, w, foreverTestTimeout);
  if (r === undefined)
    assert.fail(`RunTestWatchContextCancel: timeout after ${foreverTestTimeout}`);
  assert.ok(
    'closed' in r,
    `RunTestWatchContextCancel: ResultChan() should be closed, got ${'event' in r ? describeEvent(r.event) : ''}`,
  );
}

/**
 * RunTestWatcherTimeout: 50 watchers that never read do not block a reading one for long while
 * 22 objects are created (one more than Cacher buffers per watcher).
 */
export async function runTestWatcherTimeout(store: WatchTestStorage): Promise<void> {
  const name = 'RunTestWatcherTimeout';
  // initialRV is used to initiate the watcher at the beginning of the world.
  const podList = await store.getList('/pods/', opts({ recursive: true }));
  const options = opts({ resourceVersion: podList.resourceVersion, recursive: true });

  // Create a number of watchers that will not be reading any result.
  const nonReadingWatchers = 50;
  const watchers: TestWatch[] = [];
  try {
    for (let i = 0; i < nonReadingWatchers; i++)
      watchers.push(await store.watch('/pods/test-ns', options));
    // Create a second watcher that will be reading result.
    const readingWatcher = await store.watch('/pods/test-ns', options);
    watchers.push(readingWatcher);

    // Create more events than Cacher buffers, to ensure that we're not blocking other watchers
    // forever. Virtual time: the limit is on how far the clock had to move.
    const startTime = store.clock.now();
    for (let i = 0; i < 22; i++) {
      const p = pod('test-ns', `foo-${i}`);
      const out = await store.create(computePodKey(p), p);
      await testCheckResult(store, readingWatcher, ev('ADDED', out), `${name}: foo-${i}`);
    }
    const took = store.clock.now() - startTime;
    assert.ok(
      took <= 250 * nonReadingWatchers,
      `${name}: waiting for events took too long: ${took}ms`,
    );
  } finally {
    for (const w of watchers) w.stop();
  }
}

/** RunTestWatchDeleteEventObjectHaveLatestRV: the DELETED object carries the delete's RV. */
export async function runTestWatchDeleteEventObjectHaveLatestRV(
  store: WatchTestStorage,
): Promise<void> {
  const name = 'RunTestWatchDeleteEventObjectHaveLatestRV';
  const { key, storedObj } = await testPropagateStore(store, pod('test-ns', 'foo'));
  const w = await store.watch(key, opts({ resourceVersion: storedObj.metadata.resourceVersion }));
  const deletedObj = await store.delete(key);
  // Verify that ResourceVersion has changed on deletion.
  assert.notStrictEqual(
    deletedObj.metadata.resourceVersion,
    storedObj.metadata.resourceVersion,
    `${name}: ResourceVersion didn't change on deletion`,
  );
  await testCheckResult(store, w, ev('DELETED', deletedObj), name);
}

/**
 * RunTestWatchInitializationSignal. Deliberate difference: the engine does not model API Priority
 * and Fairness, so there is no utilflowcontrol InitializationSignal for the watch to fire and for
 * the test to Wait on; what remains is that the watch on the stored object is established.
 */
export async function runTestWatchInitializationSignal(store: WatchTestStorage): Promise<void> {
  const { key, storedObj } = await testPropagateStore(store, pod('test-ns', 'foo'));
  const w = await store.watch(key, opts({ resourceVersion: storedObj.metadata.resourceVersion }));
  w.stop();
}

// ---------------------------------------------------------------- scoped watches

interface ScopedWatchCase {
  name: string;
  requestedName?: string;
  requestedNamespace?: string;
  recursive?: boolean;
  fieldSelector: fields.Selector;
  indexFields?: string[];
  watchTests: TestWatchStruct[];
}

const parse = fields.parseSelector;
/** A testWatchStruct literal: {obj, expectEvent, watchType}. */
const t = (obj: Pod, expectEvent: boolean, watchType: TestWatchStruct['watchType'] = '') => ({
  obj,
  expectEvent,
  watchType,
});

/** RunTestClusterScopedWatch: watches of a cluster-scoped resource. */
export async function runTestClusterScopedWatch(store: WatchTestStorage): Promise<void> {
  const tests: ScopedWatchCase[] = [
    {
      name: 'cluster-wide watch, request without name, without field selector',
      recursive: true,
      fieldSelector: fields.everything(),
      watchTests: [
        t(basePod('t1-foo1'), true, 'ADDED'),
        t(basePodUpdated('t1-foo1'), true, 'MODIFIED'),
        t(basePodAssigned('t1-foo2', 't1-bar1'), true, 'ADDED'),
      ],
    },
    {
      name: 'cluster-wide watch, request without name, field selector with spec.nodeName',
      recursive: true,
      fieldSelector: parse('spec.nodeName=t2-bar1'),
      indexFields: ['spec.nodeName'],
      watchTests: [
        t(basePod('t2-foo1'), false),
        t(basePodAssigned('t2-foo1', 't2-bar1'), true, 'ADDED'),
      ],
    },
    {
      name: 'cluster-wide watch, request without name, field selector with spec.nodeName to filter out watch',
      recursive: true,
      fieldSelector: parse('spec.nodeName!=t3-bar1'),
      indexFields: ['spec.nodeName'],
      watchTests: [
        t(basePod('t3-foo1'), true, 'ADDED'),
        t(basePod('t3-foo2'), true, 'ADDED'),
        t(basePodUpdated('t3-foo1'), true, 'MODIFIED'),
        t(basePodAssigned('t3-foo1', 't3-bar1'), true, 'DELETED'),
      ],
    },
    {
      name: 'cluster-wide watch, request with name, field selector with metadata.name',
      requestedName: 't4-foo1',
      fieldSelector: parse('metadata.name=t4-foo1'),
      watchTests: [
        t(basePod('t4-foo1'), true, 'ADDED'),
        t(basePod('t4-foo2'), false),
        t(basePodUpdated('t4-foo1'), true, 'MODIFIED'),
        t(basePodUpdated('t4-foo2'), false),
      ],
    },
    {
      name: 'cluster-wide watch, request with name, field selector with metadata.name and spec.nodeName',
      requestedName: 't5-foo1',
      fieldSelector: fields.selectorFromSet({
        'metadata.name': 't5-foo1',
        'spec.nodeName': 't5-bar1',
      }),
      indexFields: ['spec.nodeName'],
      watchTests: [
        t(basePod('t5-foo1'), false),
        t(basePod('t5-foo2'), false),
        t(basePodUpdated('t5-foo1'), false),
        t(basePodUpdated('t5-foo2'), false),
        t(basePodAssigned('t5-foo1', 't5-bar1'), true, 'ADDED'),
      ],
    },
    {
      name: 'cluster-wide watch, request with name, field selector with metadata.name, and with spec.nodeName to filter out watch',
      requestedName: 't6-foo1',
      fieldSelector: fields.andSelectors(
        parse('spec.nodeName!=t6-bar1'),
        fields.selectorFromSet({ 'metadata.name': 't6-foo1' }),
      ),
      indexFields: ['spec.nodeName'],
      watchTests: [
        t(basePod('t6-foo1'), true, 'ADDED'),
        t(basePod('t6-foo2'), false),
        t(basePodUpdated('t6-foo1'), true, 'MODIFIED'),
        t(basePodAssigned('t6-foo1', 't6-bar1'), true, 'DELETED'),
        t(basePodAssigned('t6-foo2', 't6-bar1'), false),
      ],
    },
  ];
  for (const tt of tests) {
    let watchKey = '/pods/';
    if (tt.requestedName) watchKey += tt.requestedName;
    await runScopedWatchCase(store, tt, watchKey, false, (p) => '/pods/' + p.metadata.name);
  }
}

/** RunTestNamespaceScopedWatch: watches of a namespace-scoped resource. */
export async function runTestNamespaceScopedWatch(store: WatchTestStorage): Promise<void> {
  const p = baseNamespacedPod;
  const u = baseNamespacedPodUpdated;
  const a = baseNamespacedPodAssigned;
  const tests: ScopedWatchCase[] = [
    {
      name: 'namespaced watch, request without name, request without namespace, without field selector',
      recursive: true,
      fieldSelector: fields.everything(),
      watchTests: [
        t(p('t1-foo1', 't1-ns1'), true, 'ADDED'),
        t(p('t1-foo2', 't1-ns2'), true, 'ADDED'),
        t(u('t1-foo1', 't1-ns1'), true, 'MODIFIED'),
        t(u('t1-foo2', 't1-ns2'), true, 'MODIFIED'),
      ],
    },
    {
      name: 'namespaced watch, request without name, request without namespace, field selector with metadata.namespace',
      recursive: true,
      fieldSelector: parse('metadata.namespace=t2-ns1'),
      watchTests: [
        t(p('t2-foo1', 't2-ns1'), true, 'ADDED'),
        t(p('t2-foo1', 't2-ns2'), false),
        t(u('t2-foo1', 't2-ns1'), true, 'MODIFIED'),
        t(u('t2-foo1', 't2-ns2'), false),
      ],
    },
    {
      name: 'namespaced watch, request without name, request without namespace, field selector with spec.nodename',
      recursive: true,
      fieldSelector: parse('spec.nodeName=t3-bar1'),
      indexFields: ['spec.nodeName'],
      watchTests: [
        t(p('t3-foo1', 't3-ns1'), false),
        t(p('t3-foo2', 't3-ns2'), false),
        t(a('t3-foo1', 't3-ns1', 't3-bar1'), true, 'ADDED'),
        t(a('t3-foo2', 't3-ns2', 't3-bar1'), true, 'ADDED'),
      ],
    },
    {
      name: 'namespaced watch, request without name, request without namespace, field selector with spec.nodename to filter out watch',
      recursive: true,
      fieldSelector: parse('spec.nodeName!=t4-bar1'),
      indexFields: ['spec.nodeName'],
      watchTests: [
        t(p('t4-foo1', 't4-ns1'), true, 'ADDED'),
        t(p('t4-foo2', 't4-ns1'), true, 'ADDED'),
        t(u('t4-foo1', 't4-ns1'), true, 'MODIFIED'),
        t(a('t4-foo1', 't4-ns1', 't4-bar1'), true, 'DELETED'),
      ],
    },
    {
      name: 'namespaced watch, request without name, request with namespace, without field selector',
      requestedNamespace: 't5-ns1',
      recursive: true,
      fieldSelector: fields.everything(),
      watchTests: [
        t(p('t5-foo1', 't5-ns1'), true, 'ADDED'),
        t(p('t5-foo1', 't5-ns2'), false),
        t(p('t5-foo2', 't5-ns1'), true, 'ADDED'),
        t(u('t5-foo1', 't5-ns1'), true, 'MODIFIED'),
        t(u('t5-foo1', 't5-ns2'), false),
      ],
    },
    {
      name: 'namespaced watch, request without name, request with namespace, field selector with matched metadata.namespace',
      requestedNamespace: 't6-ns1',
      recursive: true,
      fieldSelector: parse('metadata.namespace=t6-ns1'),
      watchTests: [
        t(p('t6-foo1', 't6-ns1'), true, 'ADDED'),
        t(p('t6-foo1', 't6-ns2'), false),
        t(u('t6-foo1', 't6-ns1'), true, 'MODIFIED'),
      ],
    },
    {
      name: 'namespaced watch, request without name, request with namespace, field selector with non-matched metadata.namespace',
      requestedNamespace: 't7-ns1',
      recursive: true,
      fieldSelector: parse('metadata.namespace=t7-ns2'),
      watchTests: [
        t(p('t7-foo1', 't7-ns1'), false),
        t(p('t7-foo1', 't7-ns2'), false),
        t(u('t7-foo1', 't7-ns1'), false),
        t(u('t7-foo1', 't7-ns2'), false),
      ],
    },
    {
      name: 'namespaced watch, request without name, request with namespace, field selector with spec.nodename',
      requestedNamespace: 't8-ns1',
      recursive: true,
      fieldSelector: parse('spec.nodeName=t8-bar2'),
      indexFields: ['spec.nodeName'],
      watchTests: [
        t(p('t8-foo1', 't8-ns1'), false),
        t(a('t8-foo1', 't8-ns1', 't8-bar1'), false),
        t(a('t8-foo1', 't8-ns2', 't8-bar2'), false),
        t(a('t8-foo1', 't8-ns1', 't8-bar2'), true, 'ADDED'),
      ],
    },
    {
      name: 'namespaced watch, request without name, request with namespace, field selector with spec.nodename to filter out watch',
      requestedNamespace: 't9-ns2',
      recursive: true,
      fieldSelector: parse('spec.nodeName!=t9-bar1'),
      indexFields: ['spec.nodeName'],
      watchTests: [
        t(p('t9-foo1', 't9-ns1'), false),
        t(p('t9-foo1', 't9-ns2'), true, 'ADDED'),
        t(a('t9-foo1', 't9-ns2', 't9-bar1'), true, 'DELETED'),
        t(a('t9-foo1', 't9-ns2', 't9-bar2'), true, 'ADDED'),
      ],
    },
    {
      name: 'namespaced watch, request with name, request without namespace, field selector with metadata.name',
      requestedName: 't10-foo1',
      recursive: true,
      fieldSelector: parse('metadata.name=t10-foo1'),
      watchTests: [
        t(p('t10-foo1', 't10-ns1'), true, 'ADDED'),
        t(p('t10-foo1', 't10-ns2'), true, 'ADDED'),
        t(p('t10-foo2', 't10-ns1'), false),
        t(u('t10-foo1', 't10-ns1'), true, 'MODIFIED'),
        t(a('t10-foo1', 't10-ns1', 't10-bar1'), true, 'MODIFIED'),
      ],
    },
    {
      name: 'namespaced watch, request with name, request without namespace, field selector with metadata.name and metadata.namespace',
      requestedName: 't11-foo1',
      recursive: true,
      fieldSelector: fields.selectorFromSet({
        'metadata.name': 't11-foo1',
        'metadata.namespace': 't11-ns1',
      }),
      watchTests: [
        t(p('t11-foo1', 't11-ns1'), true, 'ADDED'),
        t(p('t11-foo2', 't11-ns1'), false),
        t(p('t11-foo1', 't11-ns2'), false),
        t(u('t11-foo1', 't11-ns1'), true, 'MODIFIED'),
        t(a('t11-foo1', 't11-ns1', 't11-bar1'), true, 'MODIFIED'),
      ],
    },
    {
      name: 'namespaced watch, request with name, request without namespace, field selector with metadata.name and spec.nodeName',
      requestedName: 't12-foo1',
      recursive: true,
      fieldSelector: fields.selectorFromSet({
        'metadata.name': 't12-foo1',
        'spec.nodeName': 't12-bar1',
      }),
      indexFields: ['spec.nodeName'],
      watchTests: [
        t(p('t12-foo1', 't12-ns1'), false),
        t(u('t12-foo1', 't12-ns1'), false),
        t(a('t12-foo1', 't12-ns1', 't12-bar1'), true, 'ADDED'),
      ],
    },
    {
      name: 'namespaced watch, request with name, request without namespace, field selector with metadata.name, and with spec.nodeName to filter out watch',
      requestedName: 't15-foo1',
      recursive: true,
      fieldSelector: fields.andSelectors(
        parse('spec.nodeName!=t15-bar1'),
        fields.selectorFromSet({ 'metadata.name': 't15-foo1' }),
      ),
      indexFields: ['spec.nodeName'],
      watchTests: [
        t(p('t15-foo1', 't15-ns1'), true, 'ADDED'),
        t(p('t15-foo2', 't15-ns1'), false),
        t(u('t15-foo1', 't15-ns1'), true, 'MODIFIED'),
        t(a('t15-foo1', 't15-ns1', 't15-bar1'), true, 'DELETED'),
        t(a('t15-foo1', 't15-ns1', 't15-bar2'), true, 'ADDED'),
      ],
    },
    {
      name: 'namespaced watch, request with name, request with namespace, with field selector metadata.name',
      requestedName: 't16-foo1',
      requestedNamespace: 't16-ns1',
      fieldSelector: parse('metadata.name=t16-foo1'),
      watchTests: [
        t(p('t16-foo1', 't16-ns1'), true, 'ADDED'),
        t(p('t16-foo2', 't16-ns1'), false),
        t(u('t16-foo1', 't16-ns1'), true, 'MODIFIED'),
        t(a('t16-foo1', 't16-ns1', 't16-bar1'), true, 'MODIFIED'),
      ],
    },
    {
      name: 'namespaced watch, request with name, request with namespace, with field selector metadata.name and metadata.namespace',
      requestedName: 't17-foo2',
      requestedNamespace: 't17-ns1',
      fieldSelector: fields.selectorFromSet({
        'metadata.name': 't17-foo2',
        'metadata.namespace': 't17-ns1',
      }),
      watchTests: [
        t(p('t17-foo1', 't17-ns1'), false),
        t(p('t17-foo2', 't17-ns1'), true, 'ADDED'),
        t(u('t17-foo1', 't17-ns1'), false),
        t(a('t17-foo2', 't17-ns1', 't17-bar1'), true, 'MODIFIED'),
      ],
    },
    {
      name: 'namespaced watch, request with name, request with namespace, with field selector metadata.name, metadata.namespace and spec.nodename',
      requestedName: 't18-foo1',
      requestedNamespace: 't18-ns1',
      fieldSelector: fields.selectorFromSet({
        'metadata.name': 't18-foo1',
        'metadata.namespace': 't18-ns1',
        'spec.nodeName': 't18-bar1',
      }),
      indexFields: ['spec.nodeName'],
      watchTests: [
        t(p('t18-foo1', 't18-ns1'), false),
        t(p('t18-foo2', 't18-ns1'), false),
        t(p('t18-foo1', 't18-ns2'), false),
        t(u('t18-foo1', 't18-ns1'), false),
        t(a('t18-foo1', 't18-ns1', 't18-bar1'), true, 'ADDED'),
      ],
    },
    {
      name: 'namespaced watch, request with name, request with namespace, with field selector metadata.name, metadata.namespace, and with spec.nodename to filter out watch',
      requestedName: 't19-foo2',
      requestedNamespace: 't19-ns1',
      fieldSelector: fields.andSelectors(
        parse('spec.nodeName!=t19-bar1'),
        fields.selectorFromSet({ 'metadata.name': 't19-foo2', 'metadata.namespace': 't19-ns1' }),
      ),
      indexFields: ['spec.nodeName'],
      watchTests: [
        t(p('t19-foo1', 't19-ns1'), false),
        t(p('t19-foo2', 't19-ns2'), false),
        t(p('t19-foo2', 't19-ns1'), true, 'ADDED'),
        t(u('t19-foo2', 't19-ns1'), true, 'MODIFIED'),
        t(a('t19-foo2', 't19-ns1', 't19-bar1'), true, 'DELETED'),
      ],
    },
  ];
  for (const tt of tests) {
    let watchKey = '/pods/';
    if (tt.requestedNamespace) {
      watchKey += tt.requestedNamespace + '/';
      if (tt.requestedName) watchKey += tt.requestedName;
    }
    await runScopedWatchCase(
      store,
      tt,
      watchKey,
      true,
      (o) => `/pods/${o.metadata.namespace}/${o.metadata.name}`,
    );
  }
}

/** The loop body shared by RunTestClusterScopedWatch and RunTestNamespaceScopedWatch. */
async function runScopedWatchCase(
  store: WatchTestStorage,
  tt: ScopedWatchCase,
  watchKey: string,
  namespaceScoped: boolean,
  keyOf: (p: Pod) => string,
): Promise<void> {
  const call = {
    requestNamespace: tt.requestedNamespace ?? '',
    requestName: tt.requestedName ?? '',
  };
  const predicate = createPodPredicate(tt.fieldSelector, namespaceScoped, tt.indexFields);
  const list = await store.getList(
    '/pods/',
    opts({ resourceVersion: '', predicate, recursive: true }),
    call,
  );
  const w = await store.watch(
    watchKey,
    opts({ resourceVersion: list.resourceVersion, predicate, recursive: !!tt.recursive }),
    call,
  );
  const currentObjs = new Map<string, KubeObject>();
  for (const [i, watchTest] of tt.watchTests.entries()) {
    const out = await store.guaranteedUpdate(keyOf(watchTest.obj), () => deepCopy(watchTest.obj));
    let expectObj = out;
    const id = keyOf(watchTest.obj);
    if (watchTest.watchType === 'DELETED') {
      expectObj = deepCopy(currentObjs.get(id) as KubeObject);
      expectObj.metadata.resourceVersion = out.metadata.resourceVersion;
      currentObjs.delete(id);
    } else {
      currentObjs.set(id, out);
    }
    if (watchTest.expectEvent) {
      await testCheckResult(
        store,
        w,
        ev(watchTest.watchType as TestEvent['type'], expectObj),
        `${tt.name} step ${i}`,
      );
    }
  }
  w.stop();
  await testCheckStop(store, w, tt.name);
}

// ---------------------------------------------------------------- watch-list semantics

/**
 * RunSendInitialEventsBackwardCompatibility: SendInitialEvents with RV "" and no bookmarks still
 * establishes a watch.
 */
export async function runSendInitialEventsBackwardCompatibility(
  store: WatchTestStorage,
): Promise<void> {
  const w = await store.watch('/pods/', opts({ sendInitialEvents: true }));
  w.stop();
}

interface WatchSemanticsScenario {
  name: string;
  allowWatchBookmarks?: boolean;
  sendInitialEvents?: boolean;
  resourceVersion?: string;
  /** Watch from the storage's current RV after the initial pods. */
  useCurrentRV?: boolean;
  initialPods: Pod[];
  podsAfterEstablishingWatch: Pod[];
  expectedInitialEvents?: (createdInitialPods: KubeObject[]) => TestEvent[];
  expectedInitialEventsBookmarkWithMinimalRV?: (createdInitialPods: KubeObject[]) => TestEvent;
  expectedEventsAfterEstablishingWatch?: (createdPodsAfterWatch: KubeObject[]) => TestEvent[];
}

const addEventsFromCreatedPods = (created: KubeObject[]): TestEvent[] =>
  created.map((o) => ev('ADDED', o));
const initialEventsEndFromLastCreatedPod = (created: KubeObject[]): TestEvent =>
  initialEventsEndBookmark(created[created.length - 1].metadata.resourceVersion as string);
const threePods = (): Pod[] => [makeNamedPod('1'), makeNamedPod('2'), makeNamedPod('3')];
const twoPods = (): Pod[] => [makeNamedPod('4'), makeNamedPod('5')];

/**
 * RunWatchSemantics: every combination of RV (unset, 0, 1, current), allowWatchBookmarks and
 * sendInitialEvents, plus the legacy RV=0 and RV=unset. Upstream switches the WatchList gate on;
 * a store's gates are fixed when it is built, and both profiles the callers use have it on.
 */
export async function runWatchSemantics(store: WatchTestStorage): Promise<void> {
  const scenarios: WatchSemanticsScenario[] = [
    {
      name: 'allowWatchBookmarks=true, sendInitialEvents=true, RV=unset',
      allowWatchBookmarks: true,
      sendInitialEvents: true,
      initialPods: threePods(),
      expectedInitialEvents: addEventsFromCreatedPods,
      expectedInitialEventsBookmarkWithMinimalRV: initialEventsEndFromLastCreatedPod,
      podsAfterEstablishingWatch: twoPods(),
      expectedEventsAfterEstablishingWatch: addEventsFromCreatedPods,
    },
    {
      name: 'allowWatchBookmarks=true, sendInitialEvents=false, RV=unset',
      allowWatchBookmarks: true,
      sendInitialEvents: false,
      initialPods: threePods(),
      podsAfterEstablishingWatch: twoPods(),
      expectedEventsAfterEstablishingWatch: addEventsFromCreatedPods,
    },
    {
      name: 'allowWatchBookmarks=false, sendInitialEvents=false, RV=unset',
      sendInitialEvents: false,
      initialPods: threePods(),
      podsAfterEstablishingWatch: twoPods(),
      expectedEventsAfterEstablishingWatch: addEventsFromCreatedPods,
    },
    {
      name: 'allowWatchBookmarks=false, sendInitialEvents=true, RV=unset',
      sendInitialEvents: true,
      initialPods: threePods(),
      expectedInitialEvents: addEventsFromCreatedPods,
      podsAfterEstablishingWatch: twoPods(),
      expectedEventsAfterEstablishingWatch: addEventsFromCreatedPods,
    },
    {
      name: 'allowWatchBookmarks=true, sendInitialEvents=true, RV=0',
      allowWatchBookmarks: true,
      sendInitialEvents: true,
      resourceVersion: '0',
      initialPods: threePods(),
      expectedInitialEvents: addEventsFromCreatedPods,
      expectedInitialEventsBookmarkWithMinimalRV: initialEventsEndFromLastCreatedPod,
      podsAfterEstablishingWatch: twoPods(),
      expectedEventsAfterEstablishingWatch: addEventsFromCreatedPods,
    },
    {
      name: 'allowWatchBookmarks=true, sendInitialEvents=false, RV=0',
      allowWatchBookmarks: true,
      sendInitialEvents: false,
      resourceVersion: '0',
      initialPods: threePods(),
      podsAfterEstablishingWatch: twoPods(),
      expectedEventsAfterEstablishingWatch: addEventsFromCreatedPods,
    },
    {
      name: 'allowWatchBookmarks=false, sendInitialEvents=false, RV=0',
      sendInitialEvents: false,
      resourceVersion: '0',
      initialPods: threePods(),
      podsAfterEstablishingWatch: twoPods(),
      expectedEventsAfterEstablishingWatch: addEventsFromCreatedPods,
    },
    {
      name: 'allowWatchBookmarks=false, sendInitialEvents=true, RV=0',
      sendInitialEvents: true,
      resourceVersion: '0',
      initialPods: threePods(),
      expectedInitialEvents: addEventsFromCreatedPods,
      podsAfterEstablishingWatch: twoPods(),
      expectedEventsAfterEstablishingWatch: addEventsFromCreatedPods,
    },
    {
      name: 'allowWatchBookmarks=true, sendInitialEvents=true, RV=1',
      allowWatchBookmarks: true,
      sendInitialEvents: true,
      resourceVersion: '1',
      initialPods: threePods(),
      expectedInitialEvents: addEventsFromCreatedPods,
      expectedInitialEventsBookmarkWithMinimalRV: initialEventsEndFromLastCreatedPod,
      podsAfterEstablishingWatch: twoPods(),
      expectedEventsAfterEstablishingWatch: addEventsFromCreatedPods,
    },
    {
      name: 'allowWatchBookmarks=true, sendInitialEvents=false, RV=1',
      allowWatchBookmarks: true,
      sendInitialEvents: false,
      resourceVersion: '1',
      initialPods: threePods(),
      expectedInitialEvents: addEventsFromCreatedPods,
      podsAfterEstablishingWatch: twoPods(),
      expectedEventsAfterEstablishingWatch: addEventsFromCreatedPods,
    },
    {
      name: 'allowWatchBookmarks=false, sendInitialEvents=false, RV=1',
      sendInitialEvents: false,
      resourceVersion: '1',
      initialPods: threePods(),
      expectedInitialEvents: addEventsFromCreatedPods,
      podsAfterEstablishingWatch: twoPods(),
      expectedEventsAfterEstablishingWatch: addEventsFromCreatedPods,
    },
    {
      name: 'allowWatchBookmarks=false, sendInitialEvents=true, RV=1',
      sendInitialEvents: true,
      resourceVersion: '1',
      initialPods: threePods(),
      expectedInitialEvents: addEventsFromCreatedPods,
      podsAfterEstablishingWatch: twoPods(),
      expectedEventsAfterEstablishingWatch: addEventsFromCreatedPods,
    },
    {
      name: 'allowWatchBookmarks=true, sendInitialEvents=true, RV=useCurrentRV',
      allowWatchBookmarks: true,
      sendInitialEvents: true,
      useCurrentRV: true,
      initialPods: threePods(),
      expectedInitialEvents: addEventsFromCreatedPods,
      expectedInitialEventsBookmarkWithMinimalRV: initialEventsEndFromLastCreatedPod,
      podsAfterEstablishingWatch: twoPods(),
      expectedEventsAfterEstablishingWatch: addEventsFromCreatedPods,
    },
    {
      name: 'allowWatchBookmarks=true, sendInitialEvents=false, RV=useCurrentRV',
      allowWatchBookmarks: true,
      sendInitialEvents: false,
      useCurrentRV: true,
      initialPods: threePods(),
      podsAfterEstablishingWatch: twoPods(),
      expectedEventsAfterEstablishingWatch: addEventsFromCreatedPods,
    },
    {
      name: 'allowWatchBookmarks=false, sendInitialEvents=false, RV=useCurrentRV',
      sendInitialEvents: false,
      useCurrentRV: true,
      initialPods: threePods(),
      podsAfterEstablishingWatch: twoPods(),
      expectedEventsAfterEstablishingWatch: addEventsFromCreatedPods,
    },
    {
      name: 'allowWatchBookmarks=false, sendInitialEvents=true, RV=useCurrentRV',
      sendInitialEvents: true,
      useCurrentRV: true,
      initialPods: threePods(),
      expectedInitialEvents: addEventsFromCreatedPods,
      podsAfterEstablishingWatch: twoPods(),
      expectedEventsAfterEstablishingWatch: addEventsFromCreatedPods,
    },
    {
      name: 'legacy, RV=0',
      resourceVersion: '0',
      initialPods: threePods(),
      expectedInitialEvents: addEventsFromCreatedPods,
      podsAfterEstablishingWatch: twoPods(),
      expectedEventsAfterEstablishingWatch: addEventsFromCreatedPods,
    },
    {
      name: 'legacy, RV=unset',
      initialPods: threePods(),
      expectedInitialEvents: addEventsFromCreatedPods,
      podsAfterEstablishingWatch: twoPods(),
      expectedEventsAfterEstablishingWatch: addEventsFromCreatedPods,
    },
  ];
  assert.strictEqual(scenarios.length, 18, 'the table has upstream`s 18 scenarios');
  // Upstream runs the scenarios in parallel (t.Parallel), each in its own namespace; here they run
  // one after another on the same store, which the per-namespace keys make equivalent.
  for (const [idx, scenario] of scenarios.entries()) {
    await runWatchSemanticsScenario(store, scenario, idx);
  }
}

async function runWatchSemanticsScenario(
  store: WatchTestStorage,
  scenario: WatchSemanticsScenario,
  idx: number,
): Promise<void> {
  const name = `RunWatchSemantics ${scenario.name}`;
  const expectedInitialEvents = scenario.expectedInitialEvents ?? (() => []);
  const expectedEventsAfter = scenario.expectedEventsAfterEstablishingWatch ?? (() => []);

  let createdPods: KubeObject[] = [];
  const ns = `ns-${idx}`;
  for (const obj of scenario.initialPods) {
    obj.metadata.namespace = ns;
    createdPods.push(await store.create(computePodKey(obj), obj));
  }
  if (createdPods.length > 0) {
    // This list call ensures that the cache has seen the created pods, which makes the watch
    // request below deterministic.
    const list = await store.getList(
      `/pods/${ns}`,
      opts({
        recursive: true,
        resourceVersion: createdPods[createdPods.length - 1].metadata.resourceVersion,
        resourceVersionMatch: 'NotOlderThan',
      }),
    );
    assert.strictEqual(list.items.length, createdPods.length, `${name}: list`);
  }
  let resourceVersion = scenario.resourceVersion ?? '';
  if (scenario.useCurrentRV) resourceVersion = String(await store.getCurrentResourceVersion());

  const w = await store.watch(
    `/pods/${ns}`,
    opts({
      predicate: everything(!!scenario.allowWatchBookmarks),
      recursive: true,
      sendInitialEvents: scenario.sendInitialEvents,
      resourceVersion,
    }),
  );
  try {
    // Make sure we only get initial events.
    await testCheckResultsInStrictOrder(store, w, expectedInitialEvents(createdPods), name);

    // Make sure that the actual bookmark has at least RV >= the expected one.
    const bookmarkWithMinRV = scenario.expectedInitialEventsBookmarkWithMinimalRV;
    if (bookmarkWithMinRV !== undefined) {
      await testCheckResultFunc(store, w, `${name} bookmark`, (actual) => {
        const expected = bookmarkWithMinRV(createdPods);
        const expectedRV = objectResourceVersion(expected);
        const actualRV = objectResourceVersion(actual);
        assert.ok(actualRV >= expectedRV, `${name}: bookmark RV ${actualRV} < ${expectedRV}`);
        // Once the RV is at least the expected one, rewrite it so that the objects compare.
        (expected.object as KubeObject).metadata.resourceVersion = (
          actual.object as KubeObject
        ).metadata.resourceVersion;
        assert.deepStrictEqual(actual, expected, `${name}: incorrect event`);
      });
    }

    createdPods = [];
    // Add pods newer than the storage's RV when the watch was started.
    for (const obj of scenario.podsAfterEstablishingWatch) {
      obj.metadata.namespace = ns;
      createdPods.push(await store.create(computePodKey(obj), obj));
    }
    const ignoreBookmarks = (e: TestEvent) => e.type === 'BOOKMARK';
    await testCheckResultWithIgnoreFunc(
      store,
      w,
      expectedEventsAfter(createdPods),
      ignoreBookmarks,
      name,
    );
    await testCheckNoMoreResultsWithIgnoreFunc(store, w, ignoreBookmarks, name);
  } finally {
    w.stop();
  }
}

/**
 * RunWatchSemanticInitialEventsExtended: the bookmark ending the initial events carries the
 * global RV (a pod in another namespace advanced it).
 */
export async function runWatchSemanticInitialEventsExtended(
  store: WatchTestStorage,
): Promise<void> {
  const name = 'RunWatchSemanticInitialEventsExtended';
  const initialPods: KubeObject[] = [];
  const ns = 'ns-foo';
  for (const p of ['1', '2', '3', '4', '5'].map(makeNamedPod)) {
    p.metadata.namespace = ns;
    initialPods.push(await store.create(computePodKey(p), p));
  }
  // Add a pod to a different namespace to advance the global RV.
  const other = makeNamedPod('1');
  other.metadata.namespace = 'other-ns-foo';
  const otherNsPod = await store.create(computePodKey(other), other);

  const w = await store.watch(
    `/pods/${ns}`,
    opts({ predicate: everything(true), recursive: true, sendInitialEvents: true }),
  );
  try {
    // Only the initial events of the first namespace, then the bookmark with the global RV.
    await testCheckResultsInStrictOrder(
      store,
      w,
      [
        ...initialPods.map((o) => ev('ADDED', o)),
        initialEventsEndBookmark(otherNsPod.metadata.resourceVersion as string),
      ],
      name,
    );
    await testCheckNoMoreResultsWithIgnoreFunc(store, w, undefined, name);
  } finally {
    w.stop();
  }
}

/** RunWatchListMatchSingle: a watch-list with metadata.name=pod-1 sends that pod, then the bookmark. */
export async function runWatchListMatchSingle(store: WatchTestStorage): Promise<void> {
  const name = 'RunWatchListMatchSingle';
  // Add the pod the field selector selects.
  const ns = 'ns-foo';
  const initialPod = makeNamedPod('1');
  initialPod.metadata.namespace = ns;
  const expectedPod = await store.create(computePodKey(initialPod), initialPod);
  // Add more pods that don't match the field selector.
  let lastAddedPod = expectedPod;
  for (const otherPod of ['2', '3', '4', '5'].map(makeNamedPod)) {
    otherPod.metadata.namespace = ns;
    lastAddedPod = await store.create(computePodKey(otherPod), otherPod);
  }
  const predicate = fieldPredicate('metadata.name=pod-1', (p) => ({
    'metadata.name': p.metadata.name ?? '',
  }));
  predicate.allowWatchBookmarks = true;
  const w = await store.watch(
    '/pods/',
    opts({ predicate, recursive: true, sendInitialEvents: true }),
  );
  try {
    await testCheckResultsInStrictOrder(
      store,
      w,
      [
        ev('ADDED', expectedPod),
        initialEventsEndBookmark(lastAddedPod.metadata.resourceVersion as string),
      ],
      name,
    );
    await testCheckNoMoreResultsWithIgnoreFunc(store, w, undefined, name);
  } finally {
    w.stop();
  }
}

/**
 * RunWatchErrorIsBlockingFurtherEvents: once an object fails TransformFromStorage, its ERROR
 * event is the last one; the later (readable) object is never sent. Upstream runs the 10 watches
 * in goroutines to hit a race; here all 10 are open before any is read.
 */
export async function runWatchErrorIsBlockingFurtherEvents(
  store: WatchTestStorageWithPrefixTransformer,
): Promise<void> {
  const name = 'RunWatchErrorIsBlockingFurtherEvents';
  const fooCreated = await store.create('/pods/test/foo', pod('test', 'foo'));
  await store.create('/pods/test/bar', pod('test', 'bar'));

  // Update the transformer so that bar becomes effectively corrupted.
  const revertTransformer = store.updatePrefixTransformer((transformer) => {
    transformer.prefix = 'other-prefix';
    return transformer;
  });
  try {
    await store.create('/pods/test/baz', pod('test', 'baz'));
    const options = opts({
      resourceVersion: fooCreated.metadata.resourceVersion,
      recursive: true,
    });
    const concurrentWatches = 10;
    const watches: TestWatch[] = [];
    for (let i = 0; i < concurrentWatches; i++) watches.push(await store.watch('/pods/', options));
    // The watch starts after foo: bar fails to transform and is an ERROR event; baz's ADDED must
    // not follow it.
    for (const [i, w] of watches.entries()) {
      for (;;) {
        const r = await receive(store.clock, w, foreverTestTimeout);
        if (r === undefined) assert.fail(`${name}: watch ${i} neither closed nor sent an event`);
        if ('closed' in r) break;
        assert.strictEqual(
          r.event.type,
          'ERROR',
          `${name}: unexpected event: ${describeEvent(r.event)}`,
        );
      }
    }
  } finally {
    revertTransformer();
  }
}
