// Tests for src/engine/cacher/delegator/interface.ts: ports TestShouldDelegateList (the whole table,
// every gate combination, pkg/storage/cacher/cacher_whitebox_test.go) with the Cacher's Helper
// (cacher-delegation.ts), and CacheWithoutSnapshots / ShouldDelegateListMeta.
import * as assert from 'assert';
import {
  CacherDelegation,
  type CacherDelegationView,
} from '../../../../src/engine/cacher/cacher-delegation';
import {
  CacheWithoutSnapshots,
  consistentReadSupported,
  shouldDelegateList,
  shouldDelegateListMeta,
  type DelegatorHelper,
} from '../../../../src/engine/cacher/delegator/interface';
import { profile136, withGates } from '../../../../src/engine/features';
import { ContinueTokenError, encodeContinue } from '../../../../src/engine/storage/continue';
import { InvalidError } from '../../../../src/engine/storage/errors';

interface Opts {
  recursive?: boolean;
  resourceVersion?: string;
  resourceVersionMatch?: string;
  limit?: number;
  continue?: string;
}

const oldRV = '80';
const cacheRV = '100';
const etcdRV = '120';
const keyPrefix = '/pods/';
const continueOnOldRV = encodeContinue(keyPrefix + 'foo', keyPrefix, 80);
const continueOnCacheRV = encodeContinue(keyPrefix + 'foo', keyPrefix, 100);
const continueOnEtcdRV = encodeContinue(keyPrefix + 'foo', keyPrefix, 120); // from an apiserver ahead of us
const continueOnNegativeRV = encodeContinue(keyPrefix + 'foo', keyPrefix, -1);
const tokenNames = new Map([
  [continueOnOldRV, 'continue@80'],
  [continueOnCacheRV, 'continue@100'],
  [continueOnEtcdRV, 'continue@120'],
  [continueOnNegativeRV, 'continue@-1'],
]);

function norm(o: Opts): Required<Opts> {
  return {
    recursive: o.recursive ?? false,
    resourceVersion: o.resourceVersion ?? '',
    resourceVersionMatch: o.resourceVersionMatch ?? '',
    limit: o.limit ?? 0,
    continue: o.continue ?? '',
  };
}
function keyOf(o: Opts): string {
  const n = norm(o);
  return JSON.stringify([
    n.recursive,
    n.resourceVersion,
    n.resourceVersionMatch,
    n.limit,
    n.continue,
  ]);
}
function describeOpts(o: Opts): string {
  const n = norm(o);
  const parts = [
    n.recursive ? 'recursive' : 'non-recursive',
    `RV=${JSON.stringify(n.resourceVersion)}`,
  ];
  if (n.resourceVersionMatch) parts.push(`match=${n.resourceVersionMatch}`);
  if (n.limit) parts.push(`limit=${n.limit}`);
  if (n.continue) parts.push(tokenNames.get(n.continue) ?? 'continue=?');
  return parts.join(' ');
}
function toStorageOpts(o: Opts) {
  const n = norm(o);
  return {
    recursive: n.recursive,
    resourceVersion: n.resourceVersion,
    resourceVersionMatch: n.resourceVersionMatch,
    predicate: { continue: n.continue, limit: n.limit },
  };
}

// The rules of validation.ValidateListOptions (apimachinery, isWatchListFeatureEnabled=false) and
// storage.ValidateListOptions (reference §1.3) that decide which combinations the test must cover.
function passesValidation(o: Opts): boolean {
  const n = norm(o);
  if (n.resourceVersionMatch !== '') {
    if (n.resourceVersion === '') return false;
    if (n.continue !== '') return false;
    if (n.resourceVersionMatch !== 'Exact' && n.resourceVersionMatch !== 'NotOlderThan')
      return false;
    if (n.resourceVersionMatch === 'Exact' && n.resourceVersion === '0') return false;
  }
  if (n.recursive && n.continue !== '' && n.resourceVersion !== '' && n.resourceVersion !== '0')
    return false;
  return true;
}

class Table {
  private readonly m = new Map<string, { opts: Opts; bypass: boolean }>();
  set(opts: Opts, bypass: boolean): void {
    this.m.set(keyOf(opts), { opts: norm(opts), bypass });
  }
  has(opts: Opts): boolean {
    return this.m.has(keyOf(opts));
  }
  entries(): Array<{ opts: Opts; bypass: boolean }> {
    return [...this.m.values()];
  }
  get(opts: Opts): boolean | undefined {
    return this.m.get(keyOf(opts))?.bypass;
  }
}

// The base expectations: delegate (bypass) = true.
const testCases = new Table();
testCases.set({}, true);
testCases.set({ limit: 100 }, true);
testCases.set({ resourceVersion: '0' }, false);
testCases.set({ resourceVersion: '0', limit: 100 }, false);
testCases.set({ resourceVersion: '0', resourceVersionMatch: 'NotOlderThan' }, false);
testCases.set({ resourceVersion: '0', resourceVersionMatch: 'NotOlderThan', limit: 100 }, false);
for (const token of [continueOnOldRV, continueOnCacheRV, continueOnEtcdRV, continueOnNegativeRV]) {
  testCases.set({ continue: token }, true);
  testCases.set({ limit: 100, continue: token }, true);
  testCases.set({ resourceVersion: '0', continue: token }, true);
  testCases.set({ resourceVersion: '0', limit: 100, continue: token }, true);
}
for (const rv of [oldRV, cacheRV, etcdRV]) {
  testCases.set({ resourceVersion: rv }, false);
  testCases.set({ resourceVersion: rv, limit: 100 }, true);
  testCases.set({ resourceVersion: rv, resourceVersionMatch: 'Exact' }, true);
  testCases.set({ resourceVersion: rv, resourceVersionMatch: 'Exact', limit: 100 }, true);
  testCases.set({ resourceVersion: rv, resourceVersionMatch: 'NotOlderThan' }, false);
  testCases.set({ resourceVersion: rv, resourceVersionMatch: 'NotOlderThan', limit: 100 }, false);
}
// Bypass for most requests doesn't depend on Recursive.
for (const { opts, bypass } of testCases.entries())
  testCases.set({ ...opts, recursive: true }, bypass);
// Continue is ignored on non-recursive LIST.
for (const rv of [oldRV, etcdRV]) {
  for (const token of [
    continueOnOldRV,
    continueOnCacheRV,
    continueOnEtcdRV,
    continueOnNegativeRV,
  ]) {
    testCases.set({ resourceVersion: rv, continue: token }, true);
    testCases.set({ resourceVersion: rv, continue: token, limit: 100 }, true);
  }
}

// Exacts and continue on the current cache RV.
const listFromSnapshotEnabledOverrides = new Table();
listFromSnapshotEnabledOverrides.set(
  { recursive: true, resourceVersion: cacheRV, limit: 100 },
  false,
);
listFromSnapshotEnabledOverrides.set(
  { recursive: true, resourceVersion: cacheRV, resourceVersionMatch: 'Exact' },
  false,
);
listFromSnapshotEnabledOverrides.set(
  { recursive: true, resourceVersion: cacheRV, limit: 100, resourceVersionMatch: 'Exact' },
  false,
);
listFromSnapshotEnabledOverrides.set(
  { recursive: true, resourceVersion: '0', limit: 100, continue: continueOnCacheRV },
  false,
);
listFromSnapshotEnabledOverrides.set(
  { recursive: true, resourceVersion: '0', continue: continueOnCacheRV },
  false,
);
listFromSnapshotEnabledOverrides.set(
  { recursive: true, limit: 100, continue: continueOnCacheRV },
  false,
);
listFromSnapshotEnabledOverrides.set({ recursive: true, continue: continueOnCacheRV }, false);

// Exacts and continue RV with a snapshot.
const snapshotAvailableOverrides = new Table();
snapshotAvailableOverrides.set({ recursive: true, continue: continueOnOldRV }, false);
snapshotAvailableOverrides.set({ recursive: true, limit: 100, continue: continueOnOldRV }, false);
snapshotAvailableOverrides.set(
  { recursive: true, resourceVersion: '0', continue: continueOnOldRV },
  false,
);
snapshotAvailableOverrides.set(
  { recursive: true, resourceVersion: '0', limit: 100, continue: continueOnOldRV },
  false,
);
snapshotAvailableOverrides.set({ recursive: true, resourceVersion: oldRV, limit: 100 }, false);
snapshotAvailableOverrides.set(
  { recursive: true, resourceVersion: oldRV, resourceVersionMatch: 'Exact' },
  false,
);
snapshotAvailableOverrides.set(
  { recursive: true, resourceVersion: oldRV, resourceVersionMatch: 'Exact', limit: 100 },
  false,
);

const consistentListFromCacheOverrides = new Table();
for (const recursive of [true, false]) {
  consistentListFromCacheOverrides.set({ recursive }, false);
  consistentListFromCacheOverrides.set({ limit: 100, recursive }, false);
}

const consistentReadWithSnapshotOverrides = new Table();
// Continues with negative RV are the same as a consistent read.
consistentReadWithSnapshotOverrides.set(
  { recursive: true, limit: 0, continue: continueOnNegativeRV },
  false,
);
consistentReadWithSnapshotOverrides.set(
  { recursive: true, limit: 100, continue: continueOnNegativeRV },
  false,
);
consistentReadWithSnapshotOverrides.set(
  { recursive: true, resourceVersion: '0', limit: 0, continue: continueOnNegativeRV },
  false,
);
consistentReadWithSnapshotOverrides.set(
  { recursive: true, resourceVersion: '0', limit: 100, continue: continueOnNegativeRV },
  false,
);
// Exact on an RV not yet observed by the cache.
consistentReadWithSnapshotOverrides.set(
  { recursive: true, resourceVersion: etcdRV, limit: 100 },
  false,
);
consistentReadWithSnapshotOverrides.set(
  { recursive: true, resourceVersion: etcdRV, resourceVersionMatch: 'Exact' },
  false,
);
consistentReadWithSnapshotOverrides.set(
  { recursive: true, resourceVersion: etcdRV, resourceVersionMatch: 'Exact', limit: 100 },
  false,
);
consistentReadWithSnapshotOverrides.set({ recursive: true, continue: continueOnEtcdRV }, false);
consistentReadWithSnapshotOverrides.set(
  { recursive: true, resourceVersion: '0', continue: continueOnEtcdRV },
  false,
);
consistentReadWithSnapshotOverrides.set(
  { recursive: true, continue: continueOnEtcdRV, limit: 100 },
  false,
);
consistentReadWithSnapshotOverrides.set(
  { recursive: true, resourceVersion: '0', continue: continueOnEtcdRV, limit: 100 },
  false,
);

/**
 * The Cacher as newTestCacher leaves it: initialised from a list at RV 100 (so, with
 * ListFromCacheSnapshot, a snapshot at 100), optionally with a snapshot injected at 80; etcd
 * supports progress notifications (forceRequestWatchProgressSupport).
 */
function newTestCacher(
  gates: { ConsistentListFromCache: boolean; ListFromCacheSnapshot: boolean },
  snapshotAvailable: boolean,
): CacherDelegation {
  const snapshots = gates.ListFromCacheSnapshot ? [100] : [];
  if (snapshotAvailable) snapshots.push(80);
  const view: CacherDelegationView = {
    resourcePrefix: keyPrefix,
    snapshottingEnabled: () => gates.ListFromCacheSnapshot,
    notFresh: (rv) => rv > 100,
    canServeExactRV: (rv) => snapshots.some((s) => s <= rv),
    consistentReadSupported: () => consistentReadSupported(gates, true),
  };
  return new CacherDelegation(view);
}

describe('delegator: ShouldDelegateList (delegator/interface.go + Cacher.ShouldDelegate*)', () => {
  it('the table covers exactly the LIST options that pass validation', () => {
    const missing: string[] = [];
    for (const rv of ['', '0', oldRV, etcdRV]) {
      for (const match of ['', 'Exact', 'NotOlderThan']) {
        for (const token of [
          '',
          continueOnOldRV,
          continueOnCacheRV,
          continueOnEtcdRV,
          continueOnNegativeRV,
        ]) {
          for (const limit of [0, 100]) {
            for (const recursive of [true, false]) {
              const opt: Opts = {
                recursive,
                resourceVersion: rv,
                resourceVersionMatch: match,
                limit,
                continue: token,
              };
              if (passesValidation(opt) && !testCases.has(opt)) missing.push(describeOpts(opt));
            }
          }
        }
      }
    }
    assert.deepStrictEqual(missing, [], 'test cases not covered but passing validation');
    const invalid = testCases
      .entries()
      .filter((e) => !passesValidation(e.opts))
      .map((e) => describeOpts(e.opts));
    assert.deepStrictEqual(invalid, [], 'invalid LIST requests that should not be tested');
    assert.strictEqual(
      testCases.entries().length,
      96,
      '40 non-recursive + 40 recursive + 16 ignored-continue cases',
    );
  });

  const scenarios: Array<{
    name: string;
    clfc: boolean;
    lfcs: boolean;
    snapshotAvailable: boolean;
    overrides: Table[];
  }> = [
    {
      name: 'ConsistentListFromCache=false/ListFromCacheSnapshot=false',
      clfc: false,
      lfcs: false,
      snapshotAvailable: false,
      overrides: [],
    },
    {
      name: 'ConsistentListFromCache=false/ListFromCacheSnapshot=true/SnapshotAvailable=false',
      clfc: false,
      lfcs: true,
      snapshotAvailable: false,
      overrides: [listFromSnapshotEnabledOverrides],
    },
    {
      name: 'ConsistentListFromCache=false/ListFromCacheSnapshot=true/SnapshotAvailable=true',
      clfc: false,
      lfcs: true,
      snapshotAvailable: true,
      overrides: [listFromSnapshotEnabledOverrides, snapshotAvailableOverrides],
    },
    {
      name: 'ConsistentListFromCache=true/ListFromCacheSnapshot=false',
      clfc: true,
      lfcs: false,
      snapshotAvailable: false,
      overrides: [consistentListFromCacheOverrides],
    },
    {
      name: 'ConsistentListFromCache=true/ListFromCacheSnapshot=true/SnapshotAvailable=false',
      clfc: true,
      lfcs: true,
      snapshotAvailable: false,
      overrides: [
        listFromSnapshotEnabledOverrides,
        consistentListFromCacheOverrides,
        consistentReadWithSnapshotOverrides,
      ],
    },
    {
      name: 'ConsistentListFromCache=true/ListFromCacheSnapshot=true/SnapshotAvailable=true',
      clfc: true,
      lfcs: true,
      snapshotAvailable: true,
      overrides: [
        listFromSnapshotEnabledOverrides,
        consistentListFromCacheOverrides,
        consistentReadWithSnapshotOverrides,
        snapshotAvailableOverrides,
      ],
    },
  ];
  for (const s of scenarios) {
    it(`TestShouldDelegateList ${s.name}`, () => {
      // ConsistentListFromCache is locked on in 1.36: upstream flips it under emulation version 1.33.
      const gates = withGates(
        profile136,
        { ConsistentListFromCache: s.clfc, ListFromCacheSnapshot: s.lfcs },
        { allowLockedOverride: true },
      ).gates;
      const wrong: string[] = [];
      for (const { opts, bypass } of testCases.entries()) {
        let expectBypass = bypass;
        for (const o of s.overrides) {
          const v = o.get(opts);
          if (v !== undefined) expectBypass = v;
        }
        const cacher = newTestCacher(gates, s.snapshotAvailable);
        const result = shouldDelegateList(toStorageOpts(opts), cacher);
        if (result.shouldDelegate !== expectBypass)
          wrong.push(
            `${describeOpts(opts)}: bypass expected ${expectBypass}, got ${result.shouldDelegate}`,
          );
      }
      assert.deepStrictEqual(wrong, []);
    });
  }

  it('the reference notes decision table (1.36 defaults: consistent reads supported)', () => {
    const D = true;
    const C = false;
    // [request, LFCS=false, LFCS=true without a snapshot at 80, LFCS=true with one]
    const rows: Array<[string, Opts, boolean, boolean, boolean]> = [
      ['RV "" (consistent read)', { recursive: true }, C, C, C],
      ['RV "" limit 100, non-recursive', { limit: 100 }, C, C, C],
      ['RV "0" limit 100', { recursive: true, resourceVersion: '0', limit: 100 }, C, C, C],
      [
        'RV "0" NotOlderThan',
        { recursive: true, resourceVersion: '0', resourceVersionMatch: 'NotOlderThan' },
        C,
        C,
        C,
      ],
      ['RV=120 without limit', { recursive: true, resourceVersion: '120' }, C, C, C],
      [
        'RV=80 NotOlderThan limit 100',
        {
          recursive: true,
          resourceVersion: '80',
          resourceVersionMatch: 'NotOlderThan',
          limit: 100,
        },
        C,
        C,
        C,
      ],
      [
        'RV=80 limit 100 (legacy exact)',
        { recursive: true, resourceVersion: '80', limit: 100 },
        D,
        D,
        C,
      ],
      [
        'RV=80 Exact',
        { recursive: true, resourceVersion: '80', resourceVersionMatch: 'Exact' },
        D,
        D,
        C,
      ],
      ['RV=100 limit 100', { recursive: true, resourceVersion: '100', limit: 100 }, D, C, C],
      [
        'RV=120 Exact (future RV: waits for the cache)',
        { recursive: true, resourceVersion: '120', resourceVersionMatch: 'Exact' },
        D,
        C,
        C,
      ],
      ['continue@80', { recursive: true, continue: continueOnOldRV }, D, D, C],
      [
        'continue@100 with RV "0"',
        { recursive: true, resourceVersion: '0', continue: continueOnCacheRV },
        D,
        C,
        C,
      ],
      ['continue@120', { recursive: true, limit: 100, continue: continueOnEtcdRV }, D, C, C],
      [
        'continue@-1 (consistent read)',
        { recursive: true, continue: continueOnNegativeRV },
        D,
        C,
        C,
      ],
      ['non-recursive Exact', { resourceVersion: '100', resourceVersionMatch: 'Exact' }, D, D, D],
      ['non-recursive legacy exact', { resourceVersion: '80', limit: 100 }, D, D, D],
      ['non-recursive continue', { continue: continueOnCacheRV }, D, D, D],
      [
        'unknown match "Invalid"',
        { recursive: true, resourceVersion: '100', resourceVersionMatch: 'Invalid' },
        D,
        D,
        D,
      ],
    ];
    for (const [name, opts, off, onNoSnap, onSnap] of rows) {
      const got = [
        shouldDelegateList(
          toStorageOpts(opts),
          newTestCacher({ ConsistentListFromCache: true, ListFromCacheSnapshot: false }, false),
        ).shouldDelegate,
        shouldDelegateList(
          toStorageOpts(opts),
          newTestCacher({ ConsistentListFromCache: true, ListFromCacheSnapshot: true }, false),
        ).shouldDelegate,
        shouldDelegateList(
          toStorageOpts(opts),
          newTestCacher({ ConsistentListFromCache: true, ListFromCacheSnapshot: true }, true),
        ).shouldDelegate,
      ];
      assert.deepStrictEqual(got, [off, onNoSnap, onSnap], name);
    }
  });

  it('marks consistent reads (RV "" and continue@-1) but not future exact RVs', () => {
    const cacher = newTestCacher(
      { ConsistentListFromCache: true, ListFromCacheSnapshot: true },
      false,
    );
    const cases: Array<{
      name: string;
      opts: Opts;
      want: { shouldDelegate: boolean; consistentRead: boolean };
    }> = [
      {
        name: 'RV ""',
        opts: { recursive: true },
        want: { shouldDelegate: false, consistentRead: true },
      },
      {
        name: 'continue@-1',
        opts: { recursive: true, continue: continueOnNegativeRV },
        want: { shouldDelegate: false, consistentRead: true },
      },
      {
        name: 'Exact RV=120 (future)',
        opts: { recursive: true, resourceVersion: '120', resourceVersionMatch: 'Exact' },
        want: { shouldDelegate: false, consistentRead: false },
      },
      {
        name: 'continue@120 (future)',
        opts: { recursive: true, continue: continueOnEtcdRV },
        want: { shouldDelegate: false, consistentRead: false },
      },
      {
        name: 'RV "0"',
        opts: { recursive: true, resourceVersion: '0' },
        want: { shouldDelegate: false, consistentRead: false },
      },
      {
        name: 'unknown match',
        opts: { recursive: true, resourceVersion: '1', resourceVersionMatch: 'X' },
        want: { shouldDelegate: true, consistentRead: false },
      },
    ];
    for (const c of cases)
      assert.deepStrictEqual(
        { ...shouldDelegateList(toStorageOpts(c.opts), cacher) },
        c.want,
        c.name,
      );
    const unsupported = newTestCacher(
      { ConsistentListFromCache: false, ListFromCacheSnapshot: true },
      false,
    );
    assert.deepStrictEqual(
      { ...shouldDelegateList(toStorageOpts({ recursive: true }), unsupported) },
      { shouldDelegate: true, consistentRead: true },
      'RV "" without consistent-read support',
    );
  });

  it('passes the continue-token and resource-version errors through', () => {
    const cacher = newTestCacher(
      { ConsistentListFromCache: true, ListFromCacheSnapshot: true },
      false,
    );
    assert.throws(
      () =>
        shouldDelegateList(toStorageOpts({ recursive: true, continue: 'not a token!' }), cacher),
      (e: unknown) =>
        e instanceof ContinueTokenError && /continue key is not valid/.test(e.message),
    );
    assert.throws(
      () =>
        shouldDelegateList(
          toStorageOpts({ recursive: true, resourceVersion: 'abc', resourceVersionMatch: 'Exact' }),
          cacher,
        ),
      (e: unknown) =>
        e instanceof InvalidError &&
        /strconv.ParseUint: parsing "abc": invalid syntax/.test(e.message),
    );
    // Without snapshots nothing is parsed: the request goes to etcd, which reports the error.
    const noSnapshots = newTestCacher(
      { ConsistentListFromCache: true, ListFromCacheSnapshot: false },
      false,
    );
    assert.strictEqual(
      shouldDelegateList(toStorageOpts({ recursive: true, continue: 'not a token!' }), noSnapshots)
        .shouldDelegate,
      true,
    );
  });

  it('CacheWithoutSnapshots and ShouldDelegateListMeta (the APF list work estimator)', () => {
    const cases: Array<{
      name: string;
      supported: boolean;
      opts: {
        resourceVersion?: string;
        resourceVersionMatch?: string;
        continue?: string;
        limit?: number;
      };
      want: { shouldDelegate: boolean; consistentRead: boolean };
    }> = [
      {
        name: 'consistent read, supported',
        supported: true,
        opts: {},
        want: { shouldDelegate: false, consistentRead: true },
      },
      {
        name: 'consistent read, unsupported',
        supported: false,
        opts: { limit: 500 },
        want: { shouldDelegate: true, consistentRead: true },
      },
      {
        name: 'continue (token not parsed: even @-1 is not a consistent read)',
        supported: true,
        opts: { continue: continueOnNegativeRV },
        want: { shouldDelegate: true, consistentRead: false },
      },
      {
        name: 'exact',
        supported: true,
        opts: { resourceVersion: '100', resourceVersionMatch: 'Exact' },
        want: { shouldDelegate: true, consistentRead: false },
      },
      {
        name: 'legacy exact',
        supported: true,
        opts: { resourceVersion: '100', limit: 10 },
        want: { shouldDelegate: true, consistentRead: false },
      },
      {
        name: 'RV "0" any limit',
        supported: true,
        opts: { resourceVersion: '0', limit: 10 },
        want: { shouldDelegate: false, consistentRead: false },
      },
      {
        name: 'NotOlderThan',
        supported: true,
        opts: { resourceVersion: '5', resourceVersionMatch: 'NotOlderThan' },
        want: { shouldDelegate: false, consistentRead: false },
      },
    ];
    for (const c of cases) {
      const helper: DelegatorHelper = new CacheWithoutSnapshots(() => c.supported);
      assert.deepStrictEqual({ ...shouldDelegateListMeta(c.opts, helper) }, c.want, c.name);
    }
  });

  it('consistentReadSupported needs the gate and etcd progress notifications', () => {
    const cases: Array<[boolean, boolean, boolean]> = [
      [true, true, true],
      [true, false, false],
      [false, true, false],
      [false, false, false],
    ];
    for (const [gate, progress, want] of cases) {
      assert.strictEqual(
        consistentReadSupported({ ConsistentListFromCache: gate }, progress),
        want,
        `gate=${gate} requestWatchProgress=${progress}`,
      );
    }
  });
});
