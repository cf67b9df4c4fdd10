// Tests for src/engine/features.ts: each release's gate defaults (pkg/features/kube_features.go),
// withGates and parseFeatureGates (component-base featuregate/feature_gate.go).
import * as assert from 'assert';
import {
  featureNames,
  parseFeatureGates,
  profile136,
  profile137Preview,
  profiles,
  profileVersions,
  withGates,
  type FeatureName,
  type FeatureStage,
  type ProfileVersion,
} from '../../../src/engine/features';

// k8s.io/apiserver pkg/features/kube_features.go, defaultVersionedKubernetesFeatureGates, read at
// release-1.33 3968f09f7576656d7a700fad764b5ef98ec516e4, release-1.34 94c3691ee5c4b3477c800c0155024d58fa89d4c0,
// release-1.35 9633d587027f3ec738d68218a6a03636fff9f106, release-1.36 8f96c522449373766a41e2bf22e5504f8cf6d797,
// master 24a394e516bfda066d7e2221d7d92c052de27c54 (1.37). A release's value is its last entry with
// Version <= the release; a gate with no entry in that file is Absent.
// release, gate, stage, default, lockToDefault
const upstreamDefaults: Array<[ProfileVersion, FeatureName, FeatureStage, boolean, boolean]> = [
  // release-1.33 3968f09f
  ['1.33', 'ConsistentListFromCache', 'Beta', true, false], // {1.31, true, Beta}
  ['1.33', 'ListFromCacheSnapshot', 'Alpha', false, false], // {1.33, false, Alpha}
  ['1.33', 'ResilientWatchCacheInitialization', 'Beta', true, false], // {1.31, true, Beta}
  ['1.33', 'WatchList', 'Beta', false, false], // {1.33, false, Beta} "switch this back to false"
  ['1.33', 'WatchFromStorageWithoutResourceVersion', 'Deprecated', false, true], // {1.33, false, Deprecated, LockToDefault}
  ['1.33', 'DetectCacheInconsistency', 'Absent', false, false], // no entry
  ['1.33', 'WatchCacheInitializationPostStartHook', 'Beta', false, false], // {1.31, false, Beta}
  ['1.33', 'ShardedListAndWatch', 'Absent', false, false], // no entry
  ['1.33', 'EtcdRangeStream', 'Absent', false, false], // no entry
  ['1.33', 'ConsistentListFromCacheSkipTimeoutFallback', 'Absent', false, false], // no entry
  ['1.33', 'WatchListCompression', 'Absent', false, false], // no entry
  // release-1.34 94c3691e
  ['1.34', 'ConsistentListFromCache', 'GA', true, true], // {1.34, true, GA, LockToDefault}
  ['1.34', 'ListFromCacheSnapshot', 'Beta', true, false], // {1.34, true, Beta}
  ['1.34', 'ResilientWatchCacheInitialization', 'GA', true, true], // {1.34, true, GA, LockToDefault}
  ['1.34', 'WatchList', 'Beta', true, false], // {1.34, true, Beta}
  ['1.34', 'WatchFromStorageWithoutResourceVersion', 'Deprecated', false, true], // {1.33, false, Deprecated, LockToDefault}
  ['1.34', 'DetectCacheInconsistency', 'Beta', true, false], // {1.34, true, Beta}
  ['1.34', 'WatchCacheInitializationPostStartHook', 'Beta', false, false], // {1.31, false, Beta}
  ['1.34', 'ShardedListAndWatch', 'Absent', false, false], // no entry
  ['1.34', 'EtcdRangeStream', 'Absent', false, false], // no entry
  ['1.34', 'ConsistentListFromCacheSkipTimeoutFallback', 'Absent', false, false], // no entry
  ['1.34', 'WatchListCompression', 'Absent', false, false], // no entry
  // release-1.35 9633d587
  ['1.35', 'ConsistentListFromCache', 'GA', true, true], // {1.34, true, GA, LockToDefault}
  ['1.35', 'ListFromCacheSnapshot', 'Beta', true, false], // {1.34, true, Beta}
  ['1.35', 'ResilientWatchCacheInitialization', 'GA', true, true], // {1.34, true, GA, LockToDefault}
  ['1.35', 'WatchList', 'Beta', true, false], // {1.34, true, Beta}
  ['1.35', 'WatchFromStorageWithoutResourceVersion', 'Deprecated', false, true], // {1.33, false, Deprecated, LockToDefault}
  ['1.35', 'DetectCacheInconsistency', 'Beta', true, false], // {1.34, true, Beta}
  ['1.35', 'WatchCacheInitializationPostStartHook', 'Beta', false, false], // {1.31, false, Beta}
  ['1.35', 'ShardedListAndWatch', 'Absent', false, false], // no entry
  ['1.35', 'EtcdRangeStream', 'Absent', false, false], // no entry
  ['1.35', 'ConsistentListFromCacheSkipTimeoutFallback', 'Absent', false, false], // no entry
  ['1.35', 'WatchListCompression', 'Absent', false, false], // no entry
  // release-1.36 8f96c522
  ['1.36', 'ConsistentListFromCache', 'GA', true, true], // {1.34, true, GA, LockToDefault}
  ['1.36', 'ListFromCacheSnapshot', 'Beta', true, false], // {1.34, true, Beta}
  ['1.36', 'ResilientWatchCacheInitialization', 'GA', true, true], // {1.34, true, GA, LockToDefault}
  ['1.36', 'WatchList', 'Beta', true, false], // {1.34, true, Beta}
  ['1.36', 'WatchFromStorageWithoutResourceVersion', 'Absent', false, true], // removed; was locked off
  ['1.36', 'DetectCacheInconsistency', 'Beta', true, false], // {1.34, true, Beta}
  ['1.36', 'WatchCacheInitializationPostStartHook', 'Beta', true, false], // {1.36, true, Beta}
  ['1.36', 'ShardedListAndWatch', 'Alpha', false, false], // {1.36, false, Alpha}
  ['1.36', 'EtcdRangeStream', 'Absent', false, false], // no entry
  ['1.36', 'ConsistentListFromCacheSkipTimeoutFallback', 'Absent', false, false], // no entry
  ['1.36', 'WatchListCompression', 'Absent', false, false], // no entry
  // master 24a394e5 (1.37 preview)
  ['1.37', 'ConsistentListFromCache', 'Absent', true, true], // removed; was GA locked on
  ['1.37', 'ListFromCacheSnapshot', 'Beta', true, false], // {1.34, true, Beta}
  ['1.37', 'ResilientWatchCacheInitialization', 'Absent', true, true], // removed; was GA locked on
  ['1.37', 'WatchList', 'Beta', true, false], // {1.34, true, Beta}
  ['1.37', 'WatchFromStorageWithoutResourceVersion', 'Absent', false, true], // removed; was locked off
  ['1.37', 'DetectCacheInconsistency', 'Beta', true, false], // {1.34, true, Beta}
  ['1.37', 'WatchCacheInitializationPostStartHook', 'GA', true, true], // {1.37, true, GA, LockToDefault}
  ['1.37', 'ShardedListAndWatch', 'Alpha', false, false], // {1.36, false, Alpha}
  ['1.37', 'EtcdRangeStream', 'Beta', true, false], // {1.37, true, Beta}
  ['1.37', 'ConsistentListFromCacheSkipTimeoutFallback', 'Alpha', false, false], // {1.37, false, Alpha}
  ['1.37', 'WatchListCompression', 'Beta', true, false], // {1.37, true, Beta}
];

describe('feature gates and semantics profiles (kube_features.go)', () => {
  it("each release's defaults, as read upstream (one row per gate per release)", () => {
    for (const v of profileVersions)
      assert.deepStrictEqual(
        upstreamDefaults.filter((r) => r[0] === v).map((r) => r[1]),
        [...featureNames],
        `${v}: every gate has a row`,
      );
    for (const [v, gate, stage, dflt, locked] of upstreamDefaults) {
      const p = profiles[v];
      assert.deepStrictEqual(
        { ...p.specs[gate] },
        { stage, default: dflt, lockToDefault: locked },
        `${v} ${gate}`,
      );
      assert.strictEqual(p.gates[gate], dflt, `${v} ${gate} is on by default`);
    }
  });

  it('1.33-1.35 run on the 1.36 code; 1.36 and 1.37 on their own', () => {
    const rows: Array<[ProfileVersion, string, string]> = [
      ['1.33', 'release-1.33', '1.36'],
      ['1.34', 'release-1.34', '1.36'],
      ['1.35', 'release-1.35', '1.36'],
      ['1.36', 'release-1.36', '1.36'],
      ['1.37', 'master-1.37-preview', '1.37'],
    ];
    for (const [v, name, code] of rows) {
      assert.strictEqual(profiles[v].name, name, v);
      assert.strictEqual(profiles[v].release, v, v);
      assert.strictEqual(profiles[v].kubernetesVersion, code, v);
    }
  });

  it('release-1.36 and master defaults', () => {
    const rows: Array<[FeatureName, boolean, boolean]> = [
      // name, 1.36 default, master default
      ['ConsistentListFromCache', true, true],
      ['ListFromCacheSnapshot', true, true],
      ['ResilientWatchCacheInitialization', true, true],
      ['WatchList', true, true],
      ['WatchFromStorageWithoutResourceVersion', false, false],
      ['DetectCacheInconsistency', true, true],
      ['WatchCacheInitializationPostStartHook', true, true],
      ['ShardedListAndWatch', false, false],
      ['EtcdRangeStream', false, true],
      ['ConsistentListFromCacheSkipTimeoutFallback', false, false],
      ['WatchListCompression', false, true],
    ];
    assert.deepStrictEqual(
      rows.map((r) => r[0]).sort(),
      [...featureNames].sort(),
      'every gate has a row',
    );
    for (const [name, v136, vMaster] of rows) {
      assert.strictEqual(profile136.gates[name], v136, `1.36 ${name}`);
      assert.strictEqual(profile137Preview.gates[name], vMaster, `master ${name}`);
    }
  });

  it('locks what upstream locks', () => {
    const locked136 = featureNames.filter((n) => profile136.specs[n].lockToDefault);
    assert.deepStrictEqual(locked136, [
      'ConsistentListFromCache',
      'ResilientWatchCacheInitialization',
      'WatchFromStorageWithoutResourceVersion',
    ]);
    assert.strictEqual(profile136.specs.EtcdRangeStream.stage, 'Absent');
    assert.strictEqual(profile137Preview.specs.EtcdRangeStream.stage, 'Beta');
    assert.strictEqual(
      profile137Preview.specs.ConsistentListFromCacheSkipTimeoutFallback.stage,
      'Alpha',
    );
  });

  it('withGates switches gates on a copy and names the change', () => {
    const p = withGates(profile136, { ListFromCacheSnapshot: false, EtcdRangeStream: true });
    assert.strictEqual(p.gates.ListFromCacheSnapshot, false);
    assert.strictEqual(p.gates.EtcdRangeStream, true);
    assert.strictEqual(p.name, 'release-1.36+ListFromCacheSnapshot=false,EtcdRangeStream=true');
    assert.strictEqual(
      profile136.gates.ListFromCacheSnapshot,
      true,
      'the base profile is untouched',
    );
    assert.ok(Object.isFrozen(p.gates) && Object.isFrozen(profile136.gates), 'gates are frozen');
    assert.strictEqual(
      withGates(profile136, { WatchList: true }).name,
      'release-1.36',
      'setting the default changes nothing',
    );
  });

  it('rejects bad overrides with upstream-like messages', () => {
    const cases: Array<{
      name: string;
      overrides: Record<string, unknown>;
      allowLocked?: boolean;
      error?: RegExp;
    }> = [
      {
        name: 'locked gate',
        overrides: { ConsistentListFromCache: false },
        error:
          /^cannot set feature gate ConsistentListFromCache to false, feature is locked to true$/,
      },
      {
        // Removed in 1.36: its kube-apiserver no longer knows the name.
        name: 'locked removed gate',
        overrides: { WatchFromStorageWithoutResourceVersion: true },
        error: /^unrecognized feature gate: WatchFromStorageWithoutResourceVersion$/,
      },
      {
        name: 'unknown gate',
        overrides: { ConsistentListFromCach: true },
        error: /^unrecognized feature gate: ConsistentListFromCach$/,
      },
      {
        name: 'two locked gates: an aggregate, as utilerrors.NewAggregate prints it',
        overrides: { ConsistentListFromCache: false, ResilientWatchCacheInitialization: false },
        error:
          /^\[cannot set feature gate ConsistentListFromCache to false, feature is locked to true, cannot set feature gate ResilientWatchCacheInitialization to false, feature is locked to true\]$/,
      },
      {
        name: 'not a boolean',
        overrides: { WatchList: 'yes' },
        error: /^invalid value of WatchList: expected true or false, got "yes"$/,
      },
      {
        name: 'locked gate under emulation',
        overrides: { ConsistentListFromCache: false },
        allowLocked: true,
      },
      {
        name: 'locked gate set to its locked value',
        overrides: { ResilientWatchCacheInitialization: true },
      },
    ];
    for (const c of cases) {
      const run = () =>
        withGates(profile136, c.overrides as Partial<Record<FeatureName, boolean>>, {
          allowLockedOverride: c.allowLocked,
        });
      const want = c.error;
      if (want)
        assert.throws(run, (e: unknown) => e instanceof Error && want.test(e.message), c.name);
      else assert.doesNotThrow(run, c.name);
    }
  });

  it('parseFeatureGates reads K=V,... as featureGate.Set does', () => {
    const cases: Array<{ in: string; want?: Record<string, boolean>; error?: string }> = [
      { in: 'WatchList=false', want: { WatchList: false } },
      {
        in: ' WatchList = T ,,EtcdRangeStream=1',
        want: { WatchList: true, EtcdRangeStream: true },
      },
      { in: 'WatchList=false,WatchList=true', want: { WatchList: true } },
      { in: 'Unknown=true', want: { Unknown: true } }, // names are withGates' to check
      { in: '', want: {} },
      { in: 'WatchList', error: 'missing bool value for WatchList' },
      {
        in: 'WatchList=maybe',
        error:
          'invalid value of WatchList=maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax',
      },
      {
        in: 'WatchList=yes',
        error:
          'invalid value of WatchList=yes, err: strconv.ParseBool: parsing "yes": invalid syntax',
      },
    ];
    for (const c of cases) {
      if (c.error !== undefined)
        assert.throws(
          () => parseFeatureGates(c.in),
          (e: unknown) => e instanceof Error && e.message === c.error,
          c.in,
        );
      else assert.deepStrictEqual(parseFeatureGates(c.in), c.want, c.in);
    }
  });
});
