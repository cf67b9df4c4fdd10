// Tests for src/engine/cacher/cacher-delegation.ts: ports TestComputeListLimit
// (pkg/storage/cacher/cacher_whitebox_test.go). The Helper methods are covered by the
// ShouldDelegateList table in delegator/interface.test.ts.
import * as assert from 'assert';
import { computeListLimit } from '../../../src/engine/cacher/cacher-delegation';

describe('computeListLimit (cacher.go)', () => {
  it('TestComputeListLimit', () => {
    const scenarios: Array<{
      name: string;
      opts: { resourceVersion: string; predicate: { limit?: number } };
      expectedLimit: number;
    }> = [
      {
        name: 'limit is zero',
        opts: { resourceVersion: '', predicate: { limit: 0 } },
        expectedLimit: 0,
      },
      {
        name: 'limit is positive, RV is unset',
        opts: { resourceVersion: '', predicate: { limit: 1 } },
        expectedLimit: 1,
      },
      {
        name: 'limit is positive, RV = 100',
        opts: { resourceVersion: '100', predicate: { limit: 1 } },
        expectedLimit: 1,
      },
      {
        name: 'legacy case: limit is positive, RV = 0',
        opts: { resourceVersion: '0', predicate: { limit: 1 } },
        expectedLimit: 0,
      },
      {
        name: 'negative limit',
        opts: { resourceVersion: '100', predicate: { limit: -5 } },
        expectedLimit: 0,
      },
    ];
    for (const s of scenarios)
      assert.strictEqual(computeListLimit(s.opts), s.expectedLimit, s.name);
  });
});
