// No upstream counterpart: builds one resource of the engine (createResource: memory etcd, etcd3
// store, watch cache, cacher, delegator) in virtual time and drives it into a ClusterState by
// doing what a cluster does: objects written to etcd, writes to other resources moving etcd's
// revision, the cacher listing at oldestWatchRV, a progress notification bringing the cache to
// cacheRV, a stalled watch stream for a cache that does not catch up, a compaction, a cacher that
// never finished its initial list. The explained request then meets the engine's own rules.
import {
  encodeStoredObject,
  createResource,
  type Resource,
  compactorPollPeriod,
  progressRequestPeriod,
  FakeClock,
  type ProfileVersion,
  type SemanticsProfile,
  EventHub,
  SeededRandom,
  type KubeObject,
} from '../engine';
import { DelayedWatchEtcd } from '../sim/delayed-watch-etcd';
import { ClusterStateError, checkClusterState, type ClusterState } from './cluster-state';
import type { RequestTarget } from './request-target';
import { seededObjects, type SeededObjects } from '../sim/seeded-objects';

/** The seed of every explanation: the same request in the same state gets the same answer. */
export const explainSeed = 13;

/** The revision etcd starts at (an empty etcd's header revision is 1). */
const firstRevision = 1;

/** A key outside every resource prefix: writes to it move etcd's revision, as other resources' writes do. */
const otherResourcesKey = '/registry/listwatch.explain/other-resources';

/** How long a stalled cache stays behind: far beyond blockTimeout and any request explained. */
const stallMs = 3_600_000;

export interface StateInputs {
  /** The release profile (its etcd decides rangeStreamSupported's default). */
  profile: ProfileVersion;
  objects: number;
  /** The RV the request names (resourceVersion, or the one in its continue token); 0 for none. */
  requestRV: number;
}

/** The state with every default filled in; throws ClusterStateError for one the engine cannot reach. */
export function resolveClusterState(
  given: Partial<ClusterState>,
  inputs: StateInputs,
): ClusterState {
  checkClusterState(given);
  const seedRV = firstRevision + inputs.objects;
  const etcdRV =
    given.etcdRV ??
    Math.max(
      seedRV,
      inputs.requestRV,
      given.cacheRV ?? 0,
      given.oldestWatchRV ?? 0,
      given.oldestSnapshotRV ?? 0,
      given.compactedRV ?? 0,
    );
  const cacheRV = given.cacheRV ?? etcdRV;
  const oldestWatchRV = given.oldestWatchRV ?? Math.min(seedRV, cacheRV);
  const state: ClusterState = {
    cacheReady: given.cacheReady ?? true,
    consistentReadsSupported: given.consistentReadsSupported ?? true,
    cacheRV,
    etcdRV,
    cacheCatchesUp: given.cacheCatchesUp ?? true,
    oldestSnapshotRV: given.oldestSnapshotRV ?? oldestWatchRV,
    oldestWatchRV,
    compactedRV: given.compactedRV ?? 0,
    rangeStreamSupported: given.rangeStreamSupported ?? inputs.profile === '1.37',
  };
  const objects = `the ${inputs.objects} objects`;
  if (state.etcdRV < seedRV)
    throw new ClusterStateError(
      `etcdRV=${state.etcdRV} is below ${seedRV}, the revision after writing ${objects} (one revision each after ${firstRevision})`,
    );
  if (state.cacheRV > state.etcdRV)
    throw new ClusterStateError(
      `cacheRV=${state.cacheRV} is ahead of etcdRV=${state.etcdRV}: the watch cache only holds what etcd has written`,
    );
  if (state.oldestWatchRV < seedRV)
    throw new ClusterStateError(
      `oldestWatchRV=${state.oldestWatchRV} is below ${seedRV}: the cache lists etcd after ${objects} are written, so its history starts there at the earliest`,
    );
  if (state.oldestWatchRV > state.cacheRV)
    throw new ClusterStateError(
      `oldestWatchRV=${state.oldestWatchRV} is ahead of cacheRV=${state.cacheRV}: the history cannot start after the cache's own RV`,
    );
  if (state.oldestSnapshotRV < state.oldestWatchRV || state.oldestSnapshotRV > state.cacheRV)
    throw new ClusterStateError(
      `oldestSnapshotRV=${state.oldestSnapshotRV} must lie between oldestWatchRV=${state.oldestWatchRV} (the cache's first snapshot, taken when it listed) and cacheRV=${state.cacheRV}`,
    );
  if (state.oldestSnapshotRV > state.oldestWatchRV && inputs.objects === 0)
    throw new ClusterStateError(
      `oldestSnapshotRV=${state.oldestSnapshotRV} above oldestWatchRV needs --objects >= 1: a snapshot is taken when an object of the resource changes`,
    );
  if (state.compactedRV > state.etcdRV)
    throw new ClusterStateError(
      `compactedRV=${state.compactedRV} is ahead of etcdRV=${state.etcdRV}: etcd cannot compact a revision it has not written`,
    );
  return state;
}

export interface EngineInState {
  resource: Resource;
  clock: FakeClock;
  /** Listened to only while the explained request runs (the setup costs no events). */
  eventSink: EventHub;
  seeded: SeededObjects;
}

export interface EngineTarget {
  target: RequestTarget;
  /** The gates and code the engine runs (a release profile, with any --gates on top). */
  profile: SemanticsProfile;
  /** The resource lives in namespaces (its registry's KeyFunc). */
  namespaced: boolean;
  /** The resource has a watch cache (false: its registry storage is the etcd3 store alone). */
  watchCache: boolean;
  /** Namespace the objects are written to ('' for a cluster-scoped resource). */
  namespace: string;
  objects: number;
  matchRatio: number;
  labelSelector: string;
  fieldSelector: string;
}

/** A fresh engine for `t`, driven into `state` (already resolved). */
export async function engineInState(t: EngineTarget, state: ClusterState): Promise<EngineInState> {
  const clock = new FakeClock(0);
  const eventSink = new EventHub();
  const etcd = new DelayedWatchEtcd({
    clock,
    rangeStream: state.rangeStreamSupported ? 'supported' : 'unimplemented',
  });
  const gr = t.target.groupResource;
  const apiVersion = gr.group ? `${gr.group}/${t.target.version}` : t.target.version;
  const pods = gr.group === '' && gr.resource === 'pods';
  const resource = createResource({
    clock,
    rand: new SeededRandom(explainSeed),
    profile: t.profile,
    groupResource: gr,
    namespaced: t.namespaced,
    watchCache: t.watchCache,
    resourcePrefix: t.target.resourcePrefix,
    etcd,
    eventSink: eventSink,
    cache: { requestWatchProgressSupported: state.consistentReadsSupported },
    ...(pods ? {} : { newFunc: (): KubeObject => ({ apiVersion, kind: 'Object', metadata: {} }) }),
  });
  const seeded = seededObjects({
    resource: gr.resource,
    apiVersion,
    namespace: t.namespace,
    labelSelector: t.labelSelector,
    fieldSelector: t.fieldSelector,
    count: t.objects,
    matchRatio: t.matchRatio,
  });
  const keyOf = (o: KubeObject): string =>
    resource.store.prepareKey(
      resource.objectKey(o.metadata.namespace ?? '', o.metadata.name ?? ''),
      false,
    );
  for (const o of seeded.objects) etcd.put(keyOf(o), encodeStoredObject(o));
  const writeOtherResourcesUntil = (rev: number): void => {
    while (etcd.currentRevision() < rev)
      etcd.put(otherResourcesKey, String(etcd.currentRevision()));
  };

  writeOtherResourcesUntil(state.oldestWatchRV);
  if (!t.watchCache) {
    // No cacher: only etcd's revision matters.
    writeOtherResourcesUntil(state.etcdRV);
  } else if (!state.cacheReady) {
    // The cacher never finishes its initial list: Ready() stays pending.
    writeOtherResourcesUntil(state.etcdRV);
  } else {
    resource.start();
    await resource.waitReady();
    await resource.settle();
    if (state.oldestSnapshotRV > state.oldestWatchRV) {
      // An object changes at oldestSnapshotRV; the snapshots before it are gone (the compactor, or
      // the history ring pushing them out).
      writeOtherResourcesUntil(state.oldestSnapshotRV - 1);
      const first = seeded.objects[0];
      etcd.put(keyOf(first), encodeStoredObject(first));
      await resource.settle();
      resource.watchCache.compact(state.oldestSnapshotRV);
    }
    writeOtherResourcesUntil(state.cacheRV);
    if (resource.watchCache.resourceVersion < state.cacheRV) {
      // A progress notification carries etcd's revision to the cache, as for any quiet resource.
      resource.cacher.progressRequester.add();
      await resource.step(progressRequestPeriod);
      resource.cacher.progressRequester.remove();
    }
    if (state.etcdRV > state.cacheRV && !state.cacheCatchesUp)
      etcd.stallWatches(clock.now() + stallMs);
    writeOtherResourcesUntil(state.etcdRV);
  }
  if (state.compactedRV > 0) {
    await resource.compact(state.compactedRV);
    // The cacher's compactor drops the snapshots etcd can no longer check.
    if (state.cacheReady && t.watchCache) await resource.step(compactorPollPeriod);
  }
  if (t.watchCache && state.cacheReady && resource.watchCache.resourceVersion !== state.cacheRV)
    throw new ClusterStateError(
      `the engine could not bring the watch cache to cacheRV=${state.cacheRV} (it is at ${resource.watchCache.resourceVersion})`,
    );
  return { resource, clock, eventSink: eventSink, seeded };
}
