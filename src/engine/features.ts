// Mirrors k8s.io/apiserver pkg/features/kube_features.go (release-1.36; master 24a394e5 for the 1.37 preview).
// Only the gates that change list/watch behaviour are modelled. Deliberate difference: a gate that
// does not exist in a version (added later, or already removed) can still be switched here, so a
// 1.36 run can preview one master behaviour; upstream would answer "unrecognized feature gate".

/** The typed switches the engine reads. `true` means the behaviour of the enabled gate. */
export interface FeatureGates {
  /** Consistent (RV="") lists served from the watch cache. 1.36: GA, locked on. Master: gate removed (always on). */
  readonly ConsistentListFromCache: boolean;
  /** Watch-cache snapshots serve exact-RV and continue lists. Beta, on since 1.34. */
  readonly ListFromCacheSnapshot: boolean;
  /** Not-ready cache answers 429 instead of blocking. 1.36: GA, locked on. Master: gate removed (always on). */
  readonly ResilientWatchCacheInitialization: boolean;
  /** sendInitialEvents watch streams, and RV ""/"0" watch defaulting to them. Beta, on since 1.34. */
  readonly WatchList: boolean;
  /** RV="" watches served from etcd. Deprecated and locked off 1.33–1.35; removed in 1.36 (behaves as off). */
  readonly WatchFromStorageWithoutResourceVersion: boolean;
  /** The periodic cache/etcd digest check that calls MarkConsistent (which switches snapshots off). Beta, on. */
  readonly DetectCacheInconsistency: boolean;
  /** The apiserver is not ready until its watch caches are initialised. 1.36: Beta on; master: GA locked on. */
  readonly WatchCacheInitializationPostStartHook: boolean;
  /** shardSelector on list/watch. Alpha, off in 1.36 and master. */
  readonly ShardedListAndWatch: boolean;
  /** etcd RangeStream for lists. Not in 1.36; master: Beta, on. */
  readonly EtcdRangeStream: boolean;
  /** A consistent list that times out waiting for the cache answers 429 instead of falling back to etcd. Not in 1.36; master: Alpha, off. */
  readonly ConsistentListFromCacheSkipTimeoutFallback: boolean;
  /** gzip for watch-list streams. Not in 1.36; master: Beta, on. */
  readonly WatchListCompression: boolean;
}

export type FeatureName = keyof FeatureGates;

/** Where a gate stands in one version. 'Absent' = the gate does not exist there (see `absentBehaviour`). */
export type FeatureStage = 'Alpha' | 'Beta' | 'GA' | 'Deprecated' | 'Absent';

export interface FeatureGateSpec {
  readonly stage: FeatureStage;
  readonly default: boolean;
  /** Upstream LockToDefault: setting another value is an error. */
  readonly lockToDefault: boolean;
}

/** The Kubernetes minors modelled: release-1.36, and master (24a394e5) as the 1.37 preview. */
export type KubernetesVersion = '1.36' | '1.37';

export interface SemanticsProfile {
  /** e.g. "release-1.36". */
  readonly name: string;
  /** The Kubernetes minor whose semantics this is (code differences that are no gate, e.g. metrics). */
  readonly kubernetesVersion: KubernetesVersion;
  readonly gates: FeatureGates;
  readonly specs: Readonly<Record<FeatureName, FeatureGateSpec>>;
}

/** Every gate name, in a stable order (for listings and validation). */
export const featureNames: readonly FeatureName[] = Object.freeze([
  'ConsistentListFromCache',
  'ListFromCacheSnapshot',
  'ResilientWatchCacheInitialization',
  'WatchList',
  'WatchFromStorageWithoutResourceVersion',
  'DetectCacheInconsistency',
  'WatchCacheInitializationPostStartHook',
  'ShardedListAndWatch',
  'EtcdRangeStream',
  'ConsistentListFromCacheSkipTimeoutFallback',
  'WatchListCompression',
] as FeatureName[]);

function spec(stage: FeatureStage, dflt: boolean, lockToDefault = false): FeatureGateSpec {
  return Object.freeze({ stage, default: dflt, lockToDefault });
}

function profile(
  name: string,
  kubernetesVersion: KubernetesVersion,
  specs: Record<FeatureName, FeatureGateSpec>,
): SemanticsProfile {
  const gates = {} as Record<FeatureName, boolean>;
  for (const n of featureNames) gates[n] = specs[n].default;
  return Object.freeze({
    name,
    kubernetesVersion,
    gates: Object.freeze(gates),
    specs: Object.freeze(specs),
  });
}

/** k8s.io/apiserver release-1.36 defaults (the engine's default semantics). */
export const profile136: SemanticsProfile = profile('release-1.36', '1.36', {
  ConsistentListFromCache: spec('GA', true, true),
  ListFromCacheSnapshot: spec('Beta', true),
  ResilientWatchCacheInitialization: spec('GA', true, true),
  WatchList: spec('Beta', true),
  // Removed in 1.36; 1.33–1.35 had it Deprecated and locked off, so "off" is the only behaviour.
  WatchFromStorageWithoutResourceVersion: spec('Absent', false, true),
  DetectCacheInconsistency: spec('Beta', true),
  WatchCacheInitializationPostStartHook: spec('Beta', true),
  ShardedListAndWatch: spec('Alpha', false),
  EtcdRangeStream: spec('Absent', false),
  ConsistentListFromCacheSkipTimeoutFallback: spec('Absent', false),
  WatchListCompression: spec('Absent', false),
});

/** What master (the future 1.37) turns on: RangeStream lists, watch-list gzip; gates removed there keep their locked behaviour. */
export const profile137Preview: SemanticsProfile = profile('master-1.37-preview', '1.37', {
  ConsistentListFromCache: spec('Absent', true, true),
  ListFromCacheSnapshot: spec('Beta', true),
  ResilientWatchCacheInitialization: spec('Absent', true, true),
  WatchList: spec('Beta', true),
  WatchFromStorageWithoutResourceVersion: spec('Absent', false, true),
  DetectCacheInconsistency: spec('Beta', true),
  WatchCacheInitializationPostStartHook: spec('GA', true, true),
  ShardedListAndWatch: spec('Alpha', false),
  EtcdRangeStream: spec('Beta', true),
  ConsistentListFromCacheSkipTimeoutFallback: spec('Alpha', false),
  WatchListCompression: spec('Beta', true),
});

export interface WithGatesOptions {
  /**
   * Allows changing a locked gate, as upstream tests do with an emulated older version
   * (e.g. ConsistentListFromCache=false under emulation version 1.33).
   */
  readonly allowLockedOverride?: boolean;
}

/**
 * A copy of `base` with some gates switched. Rejects unknown names, non-boolean values and (unless
 * `allowLockedOverride`) changes to locked gates, with upstream's messages.
 */
export function withGates(
  base: SemanticsProfile,
  overrides: Partial<Record<FeatureName, boolean>>,
  options: WithGatesOptions = {},
): SemanticsProfile {
  const gates = { ...base.gates } as Record<FeatureName, boolean>;
  const changed: string[] = [];
  for (const [name, value] of Object.entries(overrides as Record<string, unknown>)) {
    if (!(featureNames as readonly string[]).includes(name)) {
      throw new Error(`unrecognized feature gate: ${name} (known: ${featureNames.join(', ')})`);
    }
    const key = name as FeatureName;
    if (typeof value !== 'boolean') {
      throw new Error(
        `invalid value of ${name}: expected true or false, got ${JSON.stringify(value)}`,
      );
    }
    const s = base.specs[key];
    if (s.lockToDefault && value !== s.default && !options.allowLockedOverride) {
      throw new Error(
        `cannot set feature gate ${name} to ${value}, feature is locked to ${s.default}`,
      );
    }
    if (gates[key] !== value) changed.push(`${name}=${value}`);
    gates[key] = value;
  }
  const name = changed.length ? `${base.name}+${changed.join(',')}` : base.name;
  return Object.freeze({
    name,
    kubernetesVersion: base.kubernetesVersion,
    gates: Object.freeze(gates),
    specs: base.specs,
  });
}
