// Tests for src/engine/cacher/watch-resource-versions.ts: ports TestGetBookmarkAfterResourceVersionLockedFunc
// and TestGetWatchCacheResourceVersion (pkg/storage/cacher/cacher_whitebox_test.go).
import * as assert from 'assert';
import {
  getBookmarkAfterResourceVersionLockedFunc,
  getWatchCacheResourceVersion,
  isListWatchRequest,
  type WatchStartOptions,
} from '../../../src/engine/cacher/watch-resource-versions';

function listOptions(
  allowWatchBookmarks: boolean,
  sendInitialEvents: boolean | undefined,
  resourceVersion: string,
): WatchStartOptions {
  return { resourceVersion, sendInitialEvents, predicate: { allowWatchBookmarks } };
}
const show = (v: boolean | undefined) => (v === undefined ? 'nil' : String(v));

describe('watch start resource versions (cacher.go)', () => {
  it('TestGetBookmarkAfterResourceVersionLockedFunc', () => {
    const scenarios: Array<{
      opts: WatchStartOptions;
      requiredResourceVersion: number;
      expected: number;
    }> = [
      { opts: listOptions(true, undefined, ''), requiredResourceVersion: 100, expected: 0 },
      { opts: listOptions(true, true, ''), requiredResourceVersion: 100, expected: 100 },
      { opts: listOptions(true, false, ''), requiredResourceVersion: 100, expected: 0 },
      { opts: listOptions(false, undefined, ''), requiredResourceVersion: 100, expected: 0 },
      { opts: listOptions(false, true, ''), requiredResourceVersion: 100, expected: 0 },
      { opts: listOptions(false, false, ''), requiredResourceVersion: 100, expected: 0 },
      { opts: listOptions(true, undefined, '0'), requiredResourceVersion: 0, expected: 0 },
      { opts: listOptions(true, true, '0'), requiredResourceVersion: 0, expected: 99 },
      { opts: listOptions(true, false, '0'), requiredResourceVersion: 0, expected: 0 },
      { opts: listOptions(false, undefined, '0'), requiredResourceVersion: 0, expected: 0 },
      { opts: listOptions(false, true, '0'), requiredResourceVersion: 0, expected: 0 },
      { opts: listOptions(false, false, '0'), requiredResourceVersion: 0, expected: 0 },
      { opts: listOptions(true, undefined, '95'), requiredResourceVersion: 0, expected: 0 },
      { opts: listOptions(true, true, '95'), requiredResourceVersion: 0, expected: 95 },
      { opts: listOptions(true, false, '95'), requiredResourceVersion: 0, expected: 0 },
      { opts: listOptions(false, undefined, '95'), requiredResourceVersion: 100, expected: 0 },
      { opts: listOptions(false, true, '95'), requiredResourceVersion: 0, expected: 0 },
      { opts: listOptions(false, false, '95'), requiredResourceVersion: 0, expected: 0 },
    ];
    for (const s of scenarios) {
      const name = `RV=${s.opts.resourceVersion || 'unset'}, allowWatchBookmarks=${s.opts.predicate.allowWatchBookmarks}, sendInitialEvents=${show(s.opts.sendInitialEvents)}`;
      const parsed = s.opts.resourceVersion ? Number(s.opts.resourceVersion) : 0;
      const watchCacheRV = 99;
      const fn = getBookmarkAfterResourceVersionLockedFunc(
        parsed,
        s.requiredResourceVersion,
        s.opts,
        () => watchCacheRV,
      );
      assert.strictEqual(fn(), s.expected, name);
    }
  });

  it('reads the watch cache RV when called, not when built (RV "0" watch-list)', () => {
    let watchCacheRV = 99;
    const fn = getBookmarkAfterResourceVersionLockedFunc(
      0,
      0,
      listOptions(true, true, '0'),
      () => watchCacheRV,
    );
    watchCacheRV = 120;
    assert.strictEqual(fn(), 120);
  });

  it('isListWatchRequest needs sendInitialEvents=true and allowWatchBookmarks', () => {
    const cases: Array<[boolean, boolean | undefined, boolean]> = [
      [true, true, true],
      [true, false, false],
      [true, undefined, false],
      [false, true, false],
    ];
    for (const [bookmarks, sie, want] of cases) {
      assert.strictEqual(
        isListWatchRequest(listOptions(bookmarks, sie, '')),
        want,
        `allowWatchBookmarks=${bookmarks} sendInitialEvents=${show(sie)}`,
      );
    }
  });

  it('TestGetWatchCacheResourceVersion', async () => {
    const scenarios: Array<{ opts: WatchStartOptions; expected: number }> = [];
    // Storage (etcd) is at RV 100. RV unset: 0 for the legacy case (sendInitialEvents nil; 100 only
    // with the removed WatchFromStorageWithoutResourceVersion), etcd's RV otherwise.
    for (const bookmarks of [true, false]) {
      scenarios.push({ opts: listOptions(bookmarks, undefined, ''), expected: 0 });
      scenarios.push({ opts: listOptions(bookmarks, true, ''), expected: 100 });
      scenarios.push({ opts: listOptions(bookmarks, false, ''), expected: 100 });
      for (const sie of [undefined, true, false]) {
        scenarios.push({ opts: listOptions(bookmarks, sie, '0'), expected: 0 });
        scenarios.push({ opts: listOptions(bookmarks, sie, '95'), expected: 95 });
      }
    }
    assert.strictEqual(scenarios.length, 18);
    for (const s of scenarios) {
      const name = `RV=${s.opts.resourceVersion || 'unset'}, allowWatchBookmarks=${s.opts.predicate.allowWatchBookmarks}, sendInitialEvents=${show(s.opts.sendInitialEvents)}`;
      let calls = 0;
      const parsed = s.opts.resourceVersion ? Number(s.opts.resourceVersion) : 0;
      const got = await getWatchCacheResourceVersion(parsed, s.opts, async () => {
        calls++;
        return 100;
      });
      assert.strictEqual(got, s.expected, name);
      assert.strictEqual(
        calls,
        s.opts.resourceVersion === '' && s.opts.sendInitialEvents !== undefined ? 1 : 0,
        `${name}: etcd asked only when needed`,
      );
    }
  });
});
