// Mirrors k8s.io/apiserver pkg/features/kube_features.go (defaultVersionedKubernetesFeatureGates) as
// read at release-1.33 3968f09f, release-1.34 94c3691e, release-1.35 9633d587, release-1.36 8f96c522
// and master 24a394e5 (the 1.37 preview); `parseFeatureGates` and the messages of `withGates` mirror
// k8s.io/component-base featuregate/feature_gate.go (master 349fbe06) Set and SetFromMap.
// Only the gates that change list/watch behaviour are modelled. A release's value is the last entry
// with Version <= that release. Deliberate differences: a gate that does not exist in a version
// (added later) can still be switched here, so a 1.36 run can preview one master behaviour (upstream
// would answer "unrecognized feature gate"; a removed gate, locked before, is refused with that
// message); and the 1.33-1.35 profiles are those releases' gate defaults over the engine's
// release-1.36 code (kubernetesVersion '1.36').

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

/** The Kubernetes code modelled: release-1.36, and master (24a394e5) as the 1.37 preview. */
export type KubernetesVersion = '1.36' | '1.37';

/** The releases whose gate defaults are modelled (1.33-1.35 run on the 1.36 code). */
export type ProfileVersion = '1.33' | '1.34' | '1.35' | '1.36' | '1.37';

export interface SemanticsProfile {
  /** e.g. "release-1.36". */
  readonly name: string;
  /** The release whose gate defaults these are. */
  readonly release: ProfileVersion;
  /** The Kubernetes code that runs (code differences that are no gate, e.g. metrics). */
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
  release: ProfileVersion,
  kubernetesVersion: KubernetesVersion,
  specs: Record<FeatureName, FeatureGateSpec>,
): SemanticsProfile {
  const gates = {} as Record<FeatureName, boolean>;
  for (const n of featureNames) gates[n] = specs[n].default;
  return Object.freeze({
    name,
    release,
    kubernetesVersion,
    gates: Object.freeze(gates),
    specs: Object.freeze(specs),
  });
}

// The three releases before 1.36, run on 1.36's code. A gate added later is Absent and off (its
// behaviour did not exist); WatchFromStorageWithoutResourceVersion was Deprecated and locked off.

/** k8s.io/apiserver release-1.33 (3968f09f) defaults. */
export const profile133: SemanticsProfile = profile('release-1.33', '1.33', '1.36', {
  ConsistentListFromCache: spec('Beta', true),
  ListFromCacheSnapshot: spec('Alpha', false),
  ResilientWatchCacheInitialization: spec('Beta', true),
  // 1.32 turned it on; 1.33 "switch this back to false" (kube_features.go).
  WatchList: spec('Beta', false),
  WatchFromStorageWithoutResourceVersion: spec('Deprecated', false, true),
  DetectCacheInconsistency: spec('Absent', false),
  WatchCacheInitializationPostStartHook: spec('Beta', false),
  ShardedListAndWatch: spec('Absent', false),
  EtcdRangeStream: spec('Absent', false),
  ConsistentListFromCacheSkipTimeoutFallback: spec('Absent', false),
  WatchListCompression: spec('Absent', false),
});

/** k8s.io/apiserver release-1.34 (94c3691e) and release-1.35 (9633d587): the same list/watch gates. */
const gates134And135: Record<FeatureName, FeatureGateSpec> = {
  ConsistentListFromCache: spec('GA', true, true),
  ListFromCacheSnapshot: spec('Beta', true),
  ResilientWatchCacheInitialization: spec('GA', true, true),
  WatchList: spec('Beta', true),
  WatchFromStorageWithoutResourceVersion: spec('Deprecated', false, true),
  DetectCacheInconsistency: spec('Beta', true),
  WatchCacheInitializationPostStartHook: spec('Beta', false),
  ShardedListAndWatch: spec('Absent', false),
  EtcdRangeStream: spec('Absent', false),
  ConsistentListFromCacheSkipTimeoutFallback: spec('Absent', false),
  WatchListCompression: spec('Absent', false),
};

/** k8s.io/apiserver release-1.34 (94c3691e) defaults. */
export const profile134: SemanticsProfile = profile('release-1.34', '1.34', '1.36', gates134And135);

/** k8s.io/apiserver release-1.35 (9633d587) defaults: the same list/watch gates as 1.34. */
export const profile135: SemanticsProfile = profile('release-1.35', '1.35', '1.36', gates134And135);

/** k8s.io/apiserver release-1.36 defaults (the engine's default semantics). */
export const profile136: SemanticsProfile = profile('release-1.36', '1.36', '1.36', {
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
export const profile137Preview: SemanticsProfile = profile('master-1.37-preview', '1.37', '1.37', {
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

/** Every modelled release, oldest first. */
export const profileVersions: readonly ProfileVersion[] = Object.freeze([
  '1.33',
  '1.34',
  '1.35',
  '1.36',
  '1.37',
] as ProfileVersion[]);

/** The profile of each release. */
export const profiles: Readonly<Record<ProfileVersion, SemanticsProfile>> = Object.freeze({
  '1.33': profile133,
  '1.34': profile134,
  '1.35': profile135,
  '1.36': profile136,
  '1.37': profile137Preview,
});

export function isProfileVersion(v: unknown): v is ProfileVersion {
  return (profileVersions as readonly unknown[]).includes(v);
}

export interface WithGatesOptions {
  /**
   * Allows changing a locked gate, as upstream tests do with an emulated older version
   * (e.g. ConsistentListFromCache=false under emulation version 1.33).
   */
  readonly allowLockedOverride?: boolean;
}

/** A rejected gate setting, with component-base's message (featuregate.Set / SetFromMap). */
export class FeatureGateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeatureGateError';
  }
}

/** strconv.ParseBool's accepted spellings. */
const parseBoolValues: Readonly<Record<string, boolean>> = {
  '1': true,
  t: true,
  T: true,
  TRUE: true,
  true: true,
  True: true,
  '0': false,
  f: false,
  F: false,
  FALSE: false,
  false: false,
  False: false,
};

/**
 * featureGate.Set's parsing of "key1=value1,key2=value2": the settings in input order (a key given
 * twice keeps the last value, as Go's map does). Names are checked by `withGates`.
 */
export function parseFeatureGates(value: string): Record<string, boolean> {
  const m: Record<string, boolean> = {};
  for (const s of value.split(',')) {
    if (s.length === 0) continue;
    const eq = s.indexOf('=');
    const k = (eq < 0 ? s : s.slice(0, eq)).trim();
    if (eq < 0) throw new FeatureGateError(`missing bool value for ${k}`);
    const v = s.slice(eq + 1).trim();
    const b = parseBoolValues[v];
    if (b === undefined)
      throw new FeatureGateError(
        `invalid value of ${k}=${v}, err: strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`,
      );
    m[k] = b;
  }
  return m;
}

/** utilerrors.NewAggregate(errs).Error(): one message alone, several deduplicated inside [a, b]. */
function aggregateMessage(messages: readonly string[]): string {
  const seen = [...new Set(messages)];
  return seen.length === 1 ? seen[0] : `[${seen.join(', ')}]`;
}

/**
 * A copy of `base` with some gates switched. Rejects unknown names and (unless
 * `allowLockedOverride`) changes to locked gates with SetFromMap's messages (an unknown gate stops
 * there, locked ones are all reported), and non-boolean values with a message of its own.
 */
export function withGates(
  base: SemanticsProfile,
  overrides: Partial<Record<FeatureName, boolean>>,
  options: WithGatesOptions = {},
): SemanticsProfile {
  const gates = { ...base.gates } as Record<FeatureName, boolean>;
  const changed: string[] = [];
  const errs: string[] = [];
  for (const [name, value] of Object.entries(overrides as Record<string, unknown>)) {
    if (!(featureNames as readonly string[]).includes(name)) {
      errs.push(`unrecognized feature gate: ${name}`);
      break;
    }
    const key = name as FeatureName;
    if (typeof value !== 'boolean') {
      throw new FeatureGateError(
        `invalid value of ${name}: expected true or false, got ${JSON.stringify(value)}`,
      );
    }
    const s = base.specs[key];
    if (s.lockToDefault && value !== s.default && !options.allowLockedOverride) {
      // A removed gate keeps its locked behaviour; that release's kube-apiserver no longer knows it.
      if (s.stage === 'Absent') {
        errs.push(`unrecognized feature gate: ${name}`);
        break;
      }
      errs.push(`cannot set feature gate ${name} to ${value}, feature is locked to ${s.default}`);
      continue;
    }
    if (gates[key] !== value) changed.push(`${name}=${value}`);
    gates[key] = value;
  }
  if (errs.length > 0) throw new FeatureGateError(aggregateMessage(errs));
  const name = changed.length ? `${base.name}+${changed.join(',')}` : base.name;
  return Object.freeze({
    name,
    release: base.release,
    kubernetesVersion: base.kubernetesVersion,
    gates: Object.freeze(gates),
    specs: base.specs,
  });
}
