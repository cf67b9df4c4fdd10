// Shared fixtures of the store cases, after k8s.io/apiserver pkg/storage/testing/utils.go
// (computePodKey, testPropagateStore, expectNoDiff, ExpectContains, encodeContinueOrDie,
// reproducingTransformer, CreatePodPredicate and its attr funcs) and watcher_tests.go's
// baseNamespacedPod* (release-1.36; master only adds WatchEventWithRecordTime unwrapping).
import * as assert from 'assert';
import type { KV, RangeRequest, RangeResponse } from '../../../src/engine/etcd/kv';
import type { EtcdStore } from '../../../src/engine/etcd3/store';
import { encodeContinue } from '../../../src/engine/storage/continue';
import { isNotFound } from '../../../src/engine/storage/errors';
import type * as fields from '../../../src/engine/storage/fields';
import { newListOptions, type ListOptions } from '../../../src/engine/storage/list-options';
import type { KubeObject, Pod } from '../../../src/engine/storage/objects';
import type { SelectionPredicate } from '../../../src/engine/storage/selection-predicate';
import type { TestEtcd } from '../../harness/etcd-under-test';
import type { StoreUnderTest } from './store-under-test';
import {
  computePodKey,
  createPodPredicate as createPredicate,
  defaultNamespaceScopedAttr,
} from './watch-testing';

export { computePodKey, defaultNamespaceScopedAttr };

/** example.Pod{ObjectMeta{Namespace, Name}}: nothing else set, as upstream's tests write pods. */
export function examplePod(namespace: string, name: string): KubeObject {
  const metadata: KubeObject['metadata'] = { name };
  if (namespace) metadata.namespace = namespace;
  return { metadata };
}

/** testPropagateStore: deletes the key if present, creates obj there; the key and stored object. */
export async function testPropagateStore(
  store: StoreUnderTest,
  obj: KubeObject,
): Promise<{ key: string; stored: KubeObject }> {
  const key = computePodKey(obj);
  try {
    await store.delete(key);
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
  return { key, stored: await store.create(key, obj) };
}

/** expectNoDiff: reflect.DeepEqual, with the diff in the failure. */
export function expectNoDiff(msg: string, expected: unknown, actual: unknown): void {
  assert.deepStrictEqual(actual, expected, msg);
}

/** ExpectContains: equal to one of the alternatives. */
export function expectContains(msg: string, alternatives: unknown[], got: unknown): void {
  assert.ok(alternatives.length > 0, `${msg}: empty expectedList`);
  for (const a of alternatives) {
    try {
      assert.deepStrictEqual(got, a);
      return;
    } catch {
      // Try the next alternative.
    }
  }
  assert.fail(
    `${msg}: differs from all items, first: ${JSON.stringify(alternatives[0])}\ngot: ${JSON.stringify(got)}`,
  );
}

/** encodeContinueOrDie: EncodeContinue("adapter"+key, "adapter", rv). */
export function encodeContinueOrDie(key: string, resourceVersion: number): string {
  return encodeContinue('adapter' + key, 'adapter', resourceVersion);
}

/** storage.ListOptions with upstream's zero values (Predicate: storage.Everything). */
export function listOptions(init: Partial<ListOptions> = {}): ListOptions {
  return newListOptions(init);
}

/** baseNamespacedPod. */
export function baseNamespacedPod(name: string, namespace: string): KubeObject {
  return examplePod(namespace, name);
}

/** baseNamespacedPodUpdated: status.phase Running. */
export function baseNamespacedPodUpdated(name: string, namespace: string): KubeObject {
  return { ...examplePod(namespace, name), status: { phase: 'Running' } } as Pod;
}

/** baseNamespacedPodAssigned: spec.nodeName set. */
export function baseNamespacedPodAssigned(
  name: string,
  namespace: string,
  nodeName: string,
): KubeObject {
  return { ...examplePod(namespace, name), spec: { nodeName } } as unknown as Pod;
}

/** CreatePodPredicate for namespace-scoped pods (the suite's pods all are). */
export function createPodPredicate(
  field: fields.Selector,
  indexFields: string[] | undefined,
): SelectionPredicate {
  return createPredicate(field, true, indexFields);
}

/**
 * reproducingTransformer: every value read from etcd first creates the next object, which injects
 * writes in the middle of a read. Upstream's TransformFromStorage runs as the store decodes a kv;
 * here the creates for a page's kvs are made as the page arrives, before the store decodes it: etcd
 * sees the same order (a page read, one create per kv, the next page read). Its create writes what
 * store.Create writes (the object without resourceVersion), and completes before the decode goes
 * on, as upstream's blocking Create does.
 */
export class ReproducingKV implements KV {
  private index = 0;

  constructor(
    private readonly etcd: TestEtcd,
    private readonly store: () => EtcdStore,
    private readonly nextObject: (index: number) => { key: string; obj: KubeObject },
  ) {}

  /** createObject: the next object, as the transformer creates it before any read. */
  async createObject(): Promise<void> {
    const { key, obj } = this.nextObject(++this.index);
    await this.etcd.put(this.store().prepareKey(key, false), JSON.stringify(obj));
  }

  async range(req: RangeRequest): Promise<RangeResponse> {
    const resp = await this.etcd.range(req);
    for (const kv of resp.kvs) if (kv.value !== '') await this.createObject();
    return resp;
  }

  rangeStream(req: RangeRequest): ReturnType<KV['rangeStream']> {
    return this.etcd.rangeStream(req);
  }

  txn(req: Parameters<KV['txn']>[0]): ReturnType<KV['txn']> {
    return this.etcd.txn(req);
  }

  deleteRange(req: Parameters<KV['deleteRange']>[0]): ReturnType<KV['deleteRange']> {
    return this.etcd.deleteRange(req);
  }

  compaction(req: Parameters<KV['compaction']>[0]): ReturnType<KV['compaction']> {
    return this.etcd.compaction(req);
  }

  watch(req: Parameters<KV['watch']>[0]): ReturnType<KV['watch']> {
    return this.etcd.watch(req);
  }
}

/** The names `namespace/name@rv` of a list's items, for readable failures. */
export function describeItems(items: KubeObject[]): string[] {
  return items.map(
    (i) => `${i.metadata.namespace ?? ''}/${i.metadata.name}@${i.metadata.resourceVersion ?? ''}`,
  );
}

/**
 * t.Run for cases sharing one store: every case runs even after one fails (as t.Errorf goes on),
 * then `done` fails with all of them and checks how many ran.
 */
export class Subtests {
  private readonly failures: string[] = [];
  ran = 0;

  async run(name: string, body: () => Promise<void>): Promise<void> {
    this.ran++;
    try {
      await body();
    } catch (e) {
      this.failures.push(`${name}: ${(e as Error).message}`);
    }
  }

  done(expectedCases: number): void {
    assert.deepStrictEqual(
      this.failures,
      [],
      `${this.failures.length} of ${this.ran} cases failed`,
    );
    assert.strictEqual(this.ran, expectedCases, 'cases run');
  }
}
