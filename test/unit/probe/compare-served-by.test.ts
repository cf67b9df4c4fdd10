// Who the profile says serves each LIST probe --compare sends (ShouldDelegateList with the
// Cacher's Helper, through the engine's own decision), as a table. No upstream counterpart.
import * as assert from 'assert';
import { profile136, profile137Preview, withGates } from '../../../src/engine';
import {
  servedByProfile,
  type ComparedList,
  type ServedBy,
} from '../../../src/probe/compare-served-by';

const noSnapshots = withGates(profile136, { ListFromCacheSnapshot: false });

const cases: Array<{
  name: string;
  profile: typeof profile136;
  watchCache?: boolean;
  list: ComparedList;
  servedBy: ServedBy;
  consistentRead?: boolean;
  limitIgnored?: boolean;
  rule: RegExp;
}> = [
  {
    name: '1.36, RV "" with a limit: a consistent read from the cache',
    profile: profile136,
    list: { resourceVersion: '', limit: 500 },
    servedBy: 'cache',
    consistentRead: true,
    rule: /^consistent read/,
  },
  {
    name: '1.36, RV "0" with a limit: the cache, limit ignored',
    profile: profile136,
    list: { resourceVersion: '0', limit: 500 },
    servedBy: 'cache',
    limitIgnored: true,
    rule: /^RV "0"/,
  },
  {
    name: '1.36, Exact at N: a snapshot',
    profile: profile136,
    list: { resourceVersion: '42', resourceVersionMatch: 'Exact', limit: 500 },
    servedBy: 'cache-snapshot',
    rule: /snapshot at or below the RV exists/,
  },
  {
    name: '1.36, a continue page at N: a snapshot',
    profile: profile136,
    list: { resourceVersion: '', limit: 500, continueResourceVersion: 42 },
    servedBy: 'cache-snapshot',
    rule: /snapshot/,
  },
  {
    name: '1.37 preview, Exact at N: a snapshot',
    profile: profile137Preview,
    list: { resourceVersion: '42', resourceVersionMatch: 'Exact', limit: 500 },
    servedBy: 'cache-snapshot',
    rule: /snapshot/,
  },
  {
    name: 'ListFromCacheSnapshot off, Exact at N: etcd',
    profile: noSnapshots,
    list: { resourceVersion: '42', resourceVersionMatch: 'Exact', limit: 500 },
    servedBy: 'etcd',
    rule: /without watch-cache snapshots: etcd/,
  },
  {
    name: 'ListFromCacheSnapshot off, a continue page at N: etcd',
    profile: noSnapshots,
    list: { resourceVersion: '', limit: 500, continueResourceVersion: 42 },
    servedBy: 'etcd',
    rule: /etcd/,
  },
  {
    name: 'no watch cache (events): etcd, whatever the request',
    profile: profile136,
    watchCache: false,
    list: { resourceVersion: '', limit: 500 },
    servedBy: 'etcd',
    rule: /no watch cache/,
  },
];

describe('servedByProfile', () => {
  for (const tc of cases)
    it(tc.name, () => {
      const s = servedByProfile(tc.profile, tc.watchCache ?? true, tc.list);
      assert.strictEqual(s.servedBy, tc.servedBy, tc.name);
      assert.strictEqual(s.consistentRead, tc.consistentRead ?? false, tc.name);
      assert.strictEqual(s.limitIgnored, tc.limitIgnored ?? false, tc.name);
      assert.match(s.rule, tc.rule, tc.name);
    });
});
