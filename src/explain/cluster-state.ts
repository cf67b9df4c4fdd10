// No upstream counterpart: the cluster state an explanation assumes (what the watch cache and etcd
// look like when the request arrives), its documented defaults, and `--state k=v,…` parsing. The
// engine is put into this state (engine-in-state.ts); nothing here decides how a request is served.

/** What the answer to a LIST or WATCH depends on besides the request itself. */
export interface ClusterState {
  /** The watch cache has listed etcd and is serving (false: still initialising, as after a restart). */
  cacheReady: boolean;
  /** etcd answers RequestWatchProgress (etcd >= 3.4.31/3.5.13): consistent reads may use the cache. */
  consistentReadsSupported: boolean;
  /** The watch cache's resource version. */
  cacheRV: number;
  /** etcd's current revision. */
  etcdRV: number;
  /** A cache behind etcd catches up within blockTimeout (3 s) once a read waits for it. */
  cacheCatchesUp: boolean;
  /** The oldest watch-cache snapshot (exact-RV and continue lists at or above it can be served by the cache). */
  oldestSnapshotRV: number;
  /** The oldest RV a watch can resume from in the watch cache's history (older: 410). */
  oldestWatchRV: number;
  /** etcd's last compaction revision (0: never compacted). */
  compactedRV: number;
  /** etcd serves RangeStream (etcd 3.7). */
  rangeStreamSupported: boolean;
}

export type ClusterStateKey = keyof ClusterState;

const booleanKeys: readonly ClusterStateKey[] = [
  'cacheReady',
  'consistentReadsSupported',
  'cacheCatchesUp',
  'rangeStreamSupported',
];
const numberKeys: readonly ClusterStateKey[] = [
  'cacheRV',
  'etcdRV',
  'oldestSnapshotRV',
  'oldestWatchRV',
  'compactedRV',
];

/** Every key, in the order the state is printed. */
export const clusterStateKeys: readonly ClusterStateKey[] = [
  'cacheReady',
  'consistentReadsSupported',
  'cacheRV',
  'etcdRV',
  'cacheCatchesUp',
  'oldestSnapshotRV',
  'oldestWatchRV',
  'compactedRV',
  'rangeStreamSupported',
];

/** How each key defaults, for `--help` and the README. */
export const clusterStateDefaults: Readonly<Record<ClusterStateKey, string>> = {
  cacheReady: 'true',
  consistentReadsSupported: 'true',
  cacheRV: 'etcdRV (the cache is up to date)',
  etcdRV:
    'the revision after writing the objects (1 + objects), or the RV the request names if larger',
  cacheCatchesUp: 'true',
  oldestSnapshotRV: 'oldestWatchRV',
  oldestWatchRV: 'the revision after writing the objects (the cache listed etcd then)',
  compactedRV: '0 (never compacted)',
  rangeStreamSupported: 'false before 1.37 (etcd 3.6 and older), true for 1.37 (etcd 3.7)',
};

/** A bad `--state`: names the key, the value and what was expected. */
export class ClusterStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClusterStateError';
  }
}

/** Parses `cacheReady=false,cacheRV=100` (keys as in ClusterState; spaces around items allowed). */
export function parseClusterState(text: string): Partial<ClusterState> {
  const state: Record<string, boolean | number> = {};
  for (const raw of text.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const eq = item.indexOf('=');
    if (eq < 0)
      throw new ClusterStateError(
        `state item ${JSON.stringify(item)} is not key=value; expected e.g. cacheReady=false`,
      );
    const key = item.slice(0, eq).trim();
    const value = item.slice(eq + 1).trim();
    if (!(clusterStateKeys as readonly string[]).includes(key))
      throw new ClusterStateError(
        `unknown state key ${JSON.stringify(key)}; expected one of: ${clusterStateKeys.join(', ')}`,
      );
    if (key in state) throw new ClusterStateError(`state key ${key} given more than once`);
    state[key] = parseValue(key as ClusterStateKey, value);
  }
  return state as Partial<ClusterState>;
}

function parseValue(key: ClusterStateKey, value: string): boolean | number {
  if (booleanKeys.includes(key)) {
    if (value === 'true') return true;
    if (value === 'false') return false;
    throw new ClusterStateError(
      `state ${key}=${JSON.stringify(value)}: expected a boolean (true or false)`,
    );
  }
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw new ClusterStateError(
      `state ${key}=${JSON.stringify(value)}: expected a resource version (a whole number >= 0)`,
    );
  return Number(value);
}

/** Checks a state given as an object (the library API): known keys, right types. */
export function checkClusterState(state: Partial<ClusterState>): void {
  for (const [key, value] of Object.entries(state)) {
    if (value === undefined) continue;
    if (!(clusterStateKeys as readonly string[]).includes(key))
      throw new ClusterStateError(
        `unknown state key ${JSON.stringify(key)}; expected one of: ${clusterStateKeys.join(', ')}`,
      );
    if (booleanKeys.includes(key as ClusterStateKey) && typeof value !== 'boolean')
      throw new ClusterStateError(
        `state ${key}=${JSON.stringify(value)}: expected a boolean (true or false)`,
      );
    if (
      numberKeys.includes(key as ClusterStateKey) &&
      !(typeof value === 'number' && Number.isSafeInteger(value) && value >= 0)
    )
      throw new ClusterStateError(
        `state ${key}=${JSON.stringify(value)}: expected a resource version (a whole number >= 0)`,
      );
  }
}

/** `k=v,…` of a state (all of it, or only the keys given). */
export function formatClusterState(state: Partial<ClusterState>): string {
  return clusterStateKeys
    .filter((k) => state[k] !== undefined)
    .map((k) => `${k}=${String(state[k])}`)
    .join(',');
}
