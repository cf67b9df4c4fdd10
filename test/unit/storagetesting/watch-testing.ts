// The shared fixtures of the watch half of the storage test suite: k8s.io/apiserver
// pkg/storage/testing/utils.go (release-1.36; master also unwraps WatchEventWithRecordTime, which
// the engine does not have) and the pods of watcher_tests.go. What a case needs from a store is
// WatchTestStorage; watch-etcd3.test.ts and watch-cacher.test.ts implement it, as upstream's
// etcd3/watcher_test.go and cacher/cacher_test.go pass their storage.Interface. Waiting is in
// virtual time: where upstream selects on a channel and time.After, these helpers step the
// FakeClock until an event is there or the virtual timeout has passed.
import * as assert from 'assert';
import { defaultNewFunc } from '../../../src/engine/cacher/cacher';
import { settle, type FakeClock } from '../../../src/engine/clock';
import type { ListResult } from '../../../src/engine/etcd3/store';
import { isNotFound, type Status } from '../../../src/engine/storage/errors';
import * as fields from '../../../src/engine/storage/fields';
import * as labels from '../../../src/engine/storage/labels';
import type { ListOptions } from '../../../src/engine/storage/list-options';
import { makePod, type KubeObject, type Pod } from '../../../src/engine/storage/objects';
import { SelectionPredicate, type AttrFunc } from '../../../src/engine/storage/selection-predicate';

/** wait.ForeverTestTimeout. */
export const foreverTestTimeout = 30_000;

/** How far the clock moves per poll while a helper waits for an event (virtual ms). */
const pollStepMs = 10;

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** watch.Event as a case sees it: a cacher's CachingObject is already unwrapped (GetObject). */
export interface TestEvent {
  type: WatchEventType;
  object: KubeObject | Status;
}

/** One receive from ResultChan(): an event, or `closed` once the channel is closed and drained. */
export type Received = { event: TestEvent } | { closed: true };

/** watch.Interface: a non-blocking receive (the helpers wait in virtual time) and Stop. */
export interface TestWatch {
  /** What the result channel holds right now; undefined when a receive would block. */
  tryRecv(): Received | undefined;
  stop(): void;
}

/** What a request's context carries that a watch reads (genericapirequest, context.WithCancel). */
export interface WatchCall {
  /** RequestInfo.Namespace / WithNamespace. */
  requestNamespace?: string;
  /** RequestInfo.Name. */
  requestName?: string;
  /** The request context's Done. */
  signal?: AbortSignal;
}

/**
 * What a case needs of a storage.Interface. Writes go to etcd (the cacher's delegator passes them
 * straight to its storage); reads and watches go through the implementation under test.
 */
export interface WatchTestStorage {
  readonly clock: FakeClock;
  create(key: string, obj: KubeObject): Promise<KubeObject>;
  /** GuaranteedUpdate with ignoreNotFound=true (every upstream watch case passes true). */
  guaranteedUpdate(
    key: string,
    tryUpdate: (current: KubeObject) => KubeObject,
  ): Promise<KubeObject>;
  delete(key: string): Promise<KubeObject>;
  getList(key: string, opts: ListOptions, call?: WatchCall): Promise<ListResult>;
  getCurrentResourceVersion(): Promise<bigint>;
  watch(key: string, opts: ListOptions, call?: WatchCall): Promise<TestWatch>;
}

/** Compaction: compacts the storage (and, for the cacher, its watch cache) up to an RV. */
export type Compaction = (resourceVersion: string) => Promise<void>;

/** InterfaceWithPrefixTransformer: the storage's transformer can be swapped (and put back). */
export interface WatchTestStorageWithPrefixTransformer extends WatchTestStorage {
  updatePrefixTransformer(modifier: (t: PrefixTransformer) => Transformer): () => void;
}

/** value.Transformer, on the string values of the in-memory etcd. */
export interface Transformer {
  /** The stored value as the codec reads it; throws like TransformFromStorage's error. */
  transformFromStorage(data: string): string;
  transformToStorage(data: string): string;
}

/** PrefixTransformer: adds a prefix on the way in and requires it on the way out. */
export class PrefixTransformer implements Transformer {
  constructor(public prefix: string) {}

  transformFromStorage(data: string): string {
    if (!data.startsWith(this.prefix))
      throw new Error(
        `value does not have expected prefix ${JSON.stringify(this.prefix)}: ${data},`,
      );
    return data.slice(this.prefix.length);
  }

  transformToStorage(data: string): string {
    return data.length > 0 ? this.prefix + data : data;
  }
}

/** failingTransformer: every read from storage fails. */
export class FailingTransformer implements Transformer {
  transformFromStorage(): string {
    throw new Error('failed transformation');
  }

  transformToStorage(data: string): string {
    return data;
  }
}

// ---------------------------------------------------------------- pods and keys

/** newPod: example.Pod{} as the stores' newFunc makes it (the object of BOOKMARK events). */
export const newPod = defaultNewFunc({ group: '', resource: 'pods' });

/** computePodKey: /pods/<namespace>/<name>. */
export function computePodKey(obj: KubeObject): string {
  return `/pods/${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;
}

/** example.Pod{ObjectMeta{Name, Namespace}}. */
export function pod(namespace: string, name: string): Pod {
  return makePod({ name, namespace });
}

/** makePod (watcher_tests.go): a pod named pod-<prefix>, no namespace yet. */
export function makeNamedPod(namePrefix: string): Pod {
  return makePod({ name: `pod-${namePrefix}` });
}

export function baseNamespacedPod(podName: string, namespace: string): Pod {
  return makePod({ name: podName, namespace });
}

export function baseNamespacedPodUpdated(podName: string, namespace: string): Pod {
  return makePod({ name: podName, namespace, phase: 'Running' });
}

export function baseNamespacedPodAssigned(
  podName: string,
  namespace: string,
  nodeName: string,
): Pod {
  return makePod({ name: podName, namespace, nodeName });
}

export function basePod(podName: string): Pod {
  return baseNamespacedPod(podName, '');
}

export function basePodUpdated(podName: string): Pod {
  return baseNamespacedPodUpdated(podName, '');
}

export function basePodAssigned(podName: string, nodeName: string): Pod {
  return baseNamespacedPodAssigned(podName, '', nodeName);
}

/** testWatchStruct: write obj, then expect (or not) an event of that type. */
export interface TestWatchStruct {
  obj: Pod;
  expectEvent: boolean;
  watchType: WatchEventType | '';
}

export function deepCopy<T>(obj: T): T {
  return JSON.parse(JSON.stringify(obj)) as T;
}

/** testPropagateStore: deletes the key if present, creates obj there, returns key and stored object. */
export async function testPropagateStore(
  store: WatchTestStorage,
  obj: KubeObject,
): Promise<{ key: string; storedObj: KubeObject }> {
  const key = computePodKey(obj);
  try {
    await store.delete(key);
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
  return { key, storedObj: await store.create(key, obj) };
}

// ---------------------------------------------------------------- predicates

const noLabels: labels.Labels = Object.freeze({});

/** storage.DefaultClusterScopedAttr: labels and metadata.name. */
export const defaultClusterScopedAttr: AttrFunc = (obj) => ({
  labels: obj.metadata.labels ?? noLabels,
  fields: { 'metadata.name': obj.metadata.name ?? '' },
});

/** storage.DefaultNamespaceScopedAttr: labels, metadata.name and metadata.namespace. */
export const defaultNamespaceScopedAttr: AttrFunc = (obj) => ({
  labels: obj.metadata.labels ?? noLabels,
  fields: {
    'metadata.name': obj.metadata.name ?? '',
    'metadata.namespace': obj.metadata.namespace ?? '',
  },
});

function nodeName(obj: KubeObject): string {
  return (obj as Pod).spec?.nodeName ?? '';
}

/** namespacedScopedNodeNameAttrFunc: no labels; spec.nodeName, metadata.name, metadata.namespace. */
const namespacedScopedNodeNameAttrFunc: AttrFunc = (obj) => ({
  labels: noLabels,
  fields: {
    'spec.nodeName': nodeName(obj),
    'metadata.name': obj.metadata.name ?? '',
    'metadata.namespace': obj.metadata.namespace ?? '',
  },
});

/** clusterScopedNodeNameAttrFunc: no labels; spec.nodeName and metadata.name. */
const clusterScopedNodeNameAttrFunc: AttrFunc = (obj) => ({
  labels: noLabels,
  fields: { 'spec.nodeName': nodeName(obj), 'metadata.name': obj.metadata.name ?? '' },
});

/** CreatePodPredicate. */
export function createPodPredicate(
  field: fields.Selector,
  namespaceScoped: boolean,
  indexFields: string[] | undefined,
): SelectionPredicate {
  const getAttrs =
    indexFields !== undefined
      ? namespaceScoped
        ? namespacedScopedNodeNameAttrFunc
        : clusterScopedNodeNameAttrFunc
      : namespaceScoped
        ? defaultNamespaceScopedAttr
        : defaultClusterScopedAttr;
  return new SelectionPredicate({
    label: labels.everything(),
    field,
    getAttrs,
    indexFields: indexFields ?? [],
  });
}

/** storage.Everything, optionally with AllowWatchBookmarks. */
export function everything(allowWatchBookmarks = false): SelectionPredicate {
  return new SelectionPredicate({ allowWatchBookmarks });
}

// ---------------------------------------------------------------- receiving in virtual time

/**
 * A receive that gives up after `timeoutMs` of virtual time (select with time.After): the clock is
 * stepped while nothing is there. Undefined when the time ran out.
 */
export async function receive(
  clock: FakeClock,
  w: TestWatch,
  timeoutMs: number,
): Promise<Received | undefined> {
  const deadline = clock.now() + timeoutMs;
  for (;;) {
    await settle();
    const r = w.tryRecv();
    if (r !== undefined) return r;
    const left = deadline - clock.now();
    if (left <= 0) return undefined;
    await clock.stepAsync(Math.min(pollStepMs, left));
  }
}

/** The ResourceVersion of an event's object (APIObjectVersioner.ObjectResourceVersion). */
export function objectResourceVersion(e: TestEvent): bigint {
  const rv = (e.object as KubeObject).metadata?.resourceVersion ?? '';
  return rv === '' ? 0n : BigInt(rv);
}

/** A short rendering for failure messages: `TYPE ns/name@rv`. */
export function describeEvent(e: TestEvent): string {
  if (e.type === 'ERROR') {
    const s = e.object as Status;
    return `ERROR ${s.code ?? ''} ${s.reason ?? ''}: ${s.message ?? ''}`;
  }
  const m = (e.object as KubeObject).metadata ?? {};
  return `${e.type} ${m.namespace ?? ''}/${m.name ?? ''}@${m.resourceVersion ?? ''}`;
}

async function receiveOne(store: WatchTestStorage, w: TestWatch, name: string): Promise<TestEvent> {
  const r = await receive(store.clock, w, foreverTestTimeout);
  if (r === undefined)
    assert.fail(`${name}: time out after waiting ${foreverTestTimeout}ms on ResultChan`);
  if ('closed' in r) assert.fail(`${name}: ResultChan closed, expected an event`);
  return r.event;
}

/** testCheckEventType. */
export async function testCheckEventType(
  store: WatchTestStorage,
  w: TestWatch,
  expectEventType: WatchEventType,
  name: string,
): Promise<void> {
  const e = await receiveOne(store, w, name);
  assert.strictEqual(e.type, expectEventType, `${name}: event type (${describeEvent(e)})`);
}

/** testCheckResult: the next event equals expectEvent. */
export async function testCheckResult(
  store: WatchTestStorage,
  w: TestWatch,
  expectEvent: TestEvent,
  name: string,
): Promise<void> {
  await testCheckResultFunc(store, w, name, (actual) =>
    assert.deepStrictEqual(actual, expectEvent, `${name}: incorrect event`),
  );
}

/** testCheckResultFunc: the next event passes check. */
export async function testCheckResultFunc(
  store: WatchTestStorage,
  w: TestWatch,
  name: string,
  check: (actual: TestEvent) => void,
): Promise<void> {
  check(await receiveOne(store, w, name));
}

/**
 * testCheckResultWithIgnoreFunc: the expected events in order, ignoring some, then nothing else
 * for 150ms ("wait 150ms forcibly in order to receive watchEvents including bookmark event").
 */
export async function testCheckResultWithIgnoreFunc(
  store: WatchTestStorage,
  w: TestWatch,
  expectedEvents: TestEvent[],
  ignore: ((e: TestEvent) => boolean) | undefined,
  name: string,
): Promise<void> {
  let checkIndex = 0;
  for (;;) {
    const r = await receive(store.clock, w, 150);
    if (r === undefined) {
      assert.strictEqual(
        checkIndex,
        expectedEvents.length,
        `${name}: cannot receive enough events within specific time, rest expected events: ${expectedEvents.slice(checkIndex).map(describeEvent).join(', ')}`,
      );
      return;
    }
    // Go would receive zero events from a closed channel, which no expected event equals.
    if ('closed' in r)
      assert.fail(`${name}: ResultChan closed after ${checkIndex} expected events`);
    const event = r.event;
    if (ignore?.(event)) continue;
    if (checkIndex < expectedEvents.length) {
      assert.deepStrictEqual(event, expectedEvents[checkIndex], `${name}: incorrect event`);
      checkIndex++;
    } else {
      assert.fail(
        `${name}: cannot receive correct event, expect no event, but get a event: ${describeEvent(event)}`,
      );
    }
  }
}

/** testCheckStop: the result channel is closed (no event left in it). */
export async function testCheckStop(
  store: WatchTestStorage,
  w: TestWatch,
  name: string,
): Promise<void> {
  const r = await receive(store.clock, w, foreverTestTimeout);
  if (r === undefined) assert.fail(`${name}: time out after waiting on ResultChan`);
  if (!('closed' in r))
    assert.fail(`${name}: ResultChan should have been closed. Event: ${describeEvent(r.event)}`);
}

/** TestCheckResultsInStrictOrder. */
export async function testCheckResultsInStrictOrder(
  store: WatchTestStorage,
  w: TestWatch,
  expectedEvents: TestEvent[],
  name: string,
): Promise<void> {
  for (const [i, e] of expectedEvents.entries())
    await testCheckResult(store, w, e, `${name} #${i}`);
}

/** TestCheckNoMoreResultsWithIgnoreFunc: nothing (but ignored events) within 100ms. */
export async function testCheckNoMoreResultsWithIgnoreFunc(
  store: WatchTestStorage,
  w: TestWatch,
  ignore: ((e: TestEvent) => boolean) | undefined,
  name: string,
): Promise<void> {
  // Upstream makes a single receive: one ignored event ends the check too.
  const r = await receive(store.clock, w, 100);
  if (r === undefined) return;
  if ('closed' in r) assert.fail(`${name}: Unexpected: ResultChan closed, expected no events`);
  if (ignore === undefined || !ignore(r.event))
    assert.fail(
      `${name}: Unexpected: ${describeEvent(r.event)} event received, expected no events`,
    );
}
