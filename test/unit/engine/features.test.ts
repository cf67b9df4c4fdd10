// Tests for src/engine/features.ts: the 1.36 and 1.37-preview gate defaults (pkg/features/kube_features.go) and withGates.
import * as assert from 'assert';
import {
  featureNames,
  profile136,
  profile137Preview,
  withGates,
  type FeatureName,
} from '../../../src/engine/features';

describe('feature gates and semantics profiles (kube_features.go)', () => {
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
        name: 'locked removed gate',
        overrides: { WatchFromStorageWithoutResourceVersion: true },
        error: /feature is locked to false/,
      },
      {
        name: 'unknown gate',
        overrides: { ConsistentListFromCach: true },
        error:
          /^unrecognized feature gate: ConsistentListFromCach \(known: ConsistentListFromCache, /,
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
});
