// Tests for src/engine/cacher/util.ts: ports TestHasPathPrefix and TestCalculateRetryAfterForUnreadyCache (pkg/storage/cacher/util_test.go).
import * as assert from 'assert';
import { calculateRetryAfterForUnreadyCache, hasPathPrefix } from '../../../src/engine/cacher/util';

describe('cacher util.go', () => {
  it('TestHasPathPrefix', () => {
    const cases: Array<{ s: string; prefix: string; want: boolean; why: string }> = [
      { s: '', prefix: '', want: true, why: 'exact match' },
      { s: 'a', prefix: 'a', want: true, why: 'exact match' },
      { s: 'a/', prefix: 'a/', want: true, why: 'exact match' },
      { s: 'a/../', prefix: 'a/../', want: true, why: 'exact match' },
      { s: 'a/b', prefix: 'a', want: true, why: 'path prefix' },
      { s: 'a/b', prefix: 'a/', want: true, why: 'path prefix' },
      { s: '中文/', prefix: '中文', want: true, why: 'path prefix' },
      { s: 'a', prefix: 'b', want: false, why: 'mismatch' },
      { s: 'a', prefix: 'a/', want: false, why: 'dir requirement' },
      { s: 'ns2', prefix: 'ns', want: false, why: 'prefix mismatch' },
      { s: 'ns2', prefix: 'ns/', want: false, why: 'prefix mismatch' },
      { s: '中文文', prefix: '中文', want: false, why: 'prefix mismatch' },
      { s: 'a/c/../b/', prefix: 'a/b/', want: false, why: 'no normalization' },
      { s: 'a/', prefix: 'a/b/..', want: false, why: 'no normalization' },
    ];
    for (const c of cases) {
      assert.strictEqual(
        hasPathPrefix(c.s, c.prefix),
        c.want,
        `hasPathPrefix(${JSON.stringify(c.s)}, ${JSON.stringify(c.prefix)}) (${c.why})`,
      );
    }
  });

  it('TestCalculateRetryAfterForUnreadyCache', () => {
    const cases: Array<{ downtimeSeconds: number; expected: number }> = [
      { downtimeSeconds: 0, expected: 1 },
      { downtimeSeconds: 1, expected: 1 },
      { downtimeSeconds: 3, expected: 1 },
      { downtimeSeconds: 5, expected: 1 },
      { downtimeSeconds: 7, expected: 1 },
      { downtimeSeconds: 10, expected: 1 },
      { downtimeSeconds: 14, expected: 2 },
      { downtimeSeconds: 20, expected: 3 },
      { downtimeSeconds: 30, expected: 6 },
      { downtimeSeconds: 40, expected: 11 },
      { downtimeSeconds: 540, expected: 30 },
    ];
    for (const c of cases) {
      assert.strictEqual(
        calculateRetryAfterForUnreadyCache(c.downtimeSeconds * 1000),
        c.expected,
        `downtime ${c.downtimeSeconds}s`,
      );
    }
  });

  it('TestRetryAfterForUnreadyCache: 14s of downtime asks clients to retry after 2s', () => {
    assert.strictEqual(calculateRetryAfterForUnreadyCache(14_000), 2);
  });
});
