// Helpers for the etcd3 store tests: upstream's testSetup, seedMultiLevelData, compactStorage and
// encodeContinueOrDie (pkg/storage/testing/utils.go, etcd3/store_test.go), over the etcd a suite is
// given (the in-memory model, or a real etcd in the etcd suite: test/harness/etcd-under-test.ts).
import * as assert from 'assert';
import type { FakeClock } from '../../../src/engine/clock';
import type { MemoryEtcd } from '../../../src/engine/etcd/memory-etcd';
import { RequestRecorder } from '../../../src/engine/etcd/request-recorder';
import { RecordingSink } from '../../../src/engine/inspect/events';
import { encodeContinue } from '../../../src/engine/storage/continue';
import { StatusError, type Status } from '../../../src/engine/storage/errors';
import { makePod, type KubeObject } from '../../../src/engine/storage/objects';
import { EtcdStore, type EtcdStoreFeatures } from '../../../src/engine/etcd3/store';
import type { EtcdUnderTest, OpenEtcdOptions, TestEtcd } from '../../harness/etcd-under-test';

export interface TestSetup {
  clock: FakeClock;
  etcd: TestEtcd;
  /** The in-memory member, for the memory-only cases (fault hooks, RangeStream, get). */
  memory: MemoryEtcd | undefined;
  store: EtcdStore;
  recorder: RequestRecorder;
  eventSink: RecordingSink;
  /** Lets the etcd answer what it was asked (microtask turns in memory). */
  settle(turns?: number): Promise<void>;
}

export interface SetupOptions extends OpenEtcdOptions {
  features?: EtcdStoreFeatures;
}

/** testSetup: a fresh etcd (revision 1), a pods store under /registry, a request recorder. */
export async function testSetup(
  etcdUnderTest: EtcdUnderTest,
  o: SetupOptions = {},
): Promise<TestSetup> {
  const { clock, etcd, memory, settle } = await etcdUnderTest.open(o);
  const recorder = new RequestRecorder();
  etcd.addRequestListener(recorder.record);
  const eventSink = new RecordingSink();
  const store = new EtcdStore({
    etcd,
    clock,
    groupResource: { group: '', resource: 'pods' },
    features: o.features,
    eventSink: eventSink,
  });
  return { clock, etcd, memory, store, recorder, eventSink: eventSink, settle };
}

/** A pod as upstream's example.Pod{ObjectMeta{Namespace, Name}}. */
export function pod(namespace: string, name: string): KubeObject {
  return makePod({ name, namespace });
}

/** computePodKey: /pods/<namespace>/<name> (an empty namespace gives /pods//<name>). */
export function computePodKey(obj: KubeObject): string {
  return `/pods/${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;
}

/** encodeContinueOrDie (utils.go): EncodeContinue("adapter"+start, "adapter", rv), i.e. just `start`. */
export function encodeContinueOrDie(start: string, rv: number | bigint): string {
  return encodeContinue('adapter' + start, 'adapter', rv);
}

/** compactStorage: etcd3's Compact writes compact_rev_key (one revision) and then compacts. */
export async function compactStorage(etcd: TestEtcd, rv: string | number): Promise<void> {
  await etcd.put('compact_rev_key', String(rv));
  await etcd.compact(Number(rv));
}

/** The memory-only part of a setup, for a case that needs the model's hooks. */
export function memoryOf(t: TestSetup): MemoryEtcd {
  assert.ok(t.memory, 'a memory-only case runs over the in-memory etcd');
  return t.memory;
}

export interface SeededData {
  initialRV: string;
  created: KubeObject[];
  updated: KubeObject;
  /** list.ResourceVersion of `/pods/second` right after seeding (9). */
  continueRV: number;
}

/**
 * seedMultiLevelData + the start of RunTestList: six creates (RVs 2..7), the update of first/bar
 * (spec.nodeName=fakeNode, RV 8), the delete of second/baz (RV 9), then compaction at RV 2 which
 * bumps the revision to 10.
 */
export async function seedMultiLevelData(s: TestSetup): Promise<SeededData> {
  const { store, etcd } = s;
  const initial = await store.getList('/pods/', { recursive: true });
  const preset = [
    pod('first', 'bar'),
    pod('second', 'bar'),
    pod('second', 'foo'),
    pod('third', 'barfoo'),
    pod('third', 'foo'),
    pod('second', 'baz'),
  ];
  const created: KubeObject[] = [];
  for (const p of preset) created.push(await store.create(computePodKey(p), p));
  const updated = await store.guaranteedUpdate(
    computePodKey(preset[0]),
    (cur) => {
      const next = JSON.parse(JSON.stringify(cur)) as KubeObject & { spec: { nodeName?: string } };
      next.spec.nodeName = 'fakeNode';
      return next;
    },
    { ignoreNotFound: true },
  );
  await store.delete(computePodKey(preset[5]));
  const list = await store.getList('/pods/second', { recursive: true });
  await compactStorage(etcd, created[0].metadata.resourceVersion as string);
  return {
    initialRV: initial.resourceVersion,
    created,
    updated,
    continueRV: Number(list.resourceVersion),
  };
}

/** The Status of a rejected request. */
export async function rejectedStatus(p: Promise<unknown>, name: string): Promise<Status> {
  try {
    await p;
  } catch (e) {
    const status = (e as { status?: Status }).status;
    assert.ok(status, `${name}: the error carries a Status (${String(e)})`);
    return status as Status;
  }
  assert.fail(`${name}: expected the request to be rejected`);
}

export function isStatusError(e: unknown): e is StatusError {
  return e instanceof StatusError;
}

/** The names `ns/name` of a list's items. */
export function names(items: KubeObject[]): string[] {
  return items.map((i) => `${i.metadata.namespace ?? ''}/${i.metadata.name}`);
}

/** checkStorageCallsInvariants' expected etcd calls for a page size and the objects processed. */
export function estimatedGetCalls(
  pageSize: number,
  estimatedProcessedObjects: number,
  maxLimit = 10000,
): number {
  let calls = 1;
  if (pageSize !== 0) {
    // n+1 calls for the smallest n with pageSize + 2*pageSize + ... >= objects; sum starts at 1 upstream.
    let currLimit = pageSize;
    for (let sum = 1; sum < estimatedProcessedObjects;) {
      currLimit *= 2;
      if (currLimit > maxLimit) currLimit = maxLimit;
      sum += currLimit;
      calls++;
    }
  }
  return calls;
}
