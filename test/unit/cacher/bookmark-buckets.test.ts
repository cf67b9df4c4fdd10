// Tests for src/engine/cacher/bookmark-buckets.ts: ports TestTimeBucketWatchersBasic and
// TestBookmarkAfterResourceVersionWatchers (pkg/storage/cacher/cache_watcher_test.go).
import * as assert from 'assert';
import * as fc from 'fast-check';
import { FakeClock } from '../../../src/engine/clock';
import {
  WatcherBookmarkTimeBuckets,
  defaultBookmarkFrequency,
  newTimeBucketWatchers,
  zeroTime,
  type BookmarkWatcher,
} from '../../../src/engine/cacher/bookmark-buckets';

// A stand-in for cacheWatcher with its nextBookmarkTime and bookmark state machine (§5.2).
type State = 'WaitingForBookmark' | 'BookmarkReceived' | 'BookmarkSent';
class TestWatcher implements BookmarkWatcher {
  state: State = 'WaitingForBookmark';
  bookmarkAfterResourceVersion = 0;
  constructor(
    readonly id: number | string,
    readonly deadline: number | undefined,
  ) {}
  setBookmarkAfterResourceVersion(rv: number): void {
    this.state = rv === 0 ? 'BookmarkSent' : 'WaitingForBookmark';
    this.bookmarkAfterResourceVersion = rv;
  }
  markBookmarkAfterRvAsReceived(event: { type: string; resourceVersion: number }): void {
    if (event.type === 'BOOKMARK' && this.state === 'WaitingForBookmark')
      this.state = 'BookmarkReceived';
  }
  nextBookmarkTime(now: number, bookmarkFrequency: number): number {
    if (this.state === 'WaitingForBookmark') return zeroTime;
    let heartbeatTime = now + bookmarkFrequency;
    if (this.deadline === undefined) return heartbeatTime;
    const pretimeoutTime = this.deadline - 2000;
    if (pretimeoutTime < heartbeatTime) heartbeatTime = pretimeoutTime;
    if (heartbeatTime < now) return NaN;
    return heartbeatTime;
  }
}

const sizes = (groups: TestWatcher[][]): number[] => groups.map((g) => g.length);

describe('watcherBookmarkTimeBuckets (cacher.go)', () => {
  it('TestTimeBucketWatchersBasic', () => {
    const clock = new FakeClock(1_700_000_000_000);
    const newWatcher = (id: number, deadline: number) => {
      const w = new TestWatcher(id, deadline);
      w.setBookmarkAfterResourceVersion(0);
      return w;
    };
    const watchers = newTimeBucketWatchers<TestWatcher>(clock, defaultBookmarkFrequency);
    const now = clock.now();
    watchers.addWatcherThreadUnsafe(newWatcher(1, now + 10_000));
    watchers.addWatcherThreadUnsafe(newWatcher(2, now + 20_000));
    watchers.addWatcherThreadUnsafe(newWatcher(3, now + 20_000));
    assert.deepStrictEqual(
      [...watchers.watchersBuckets.keys()],
      [8, 18],
      'deadline-2s lands in buckets 8 and 18',
    );

    const steps: Array<{ name: string; stepMs: number; want: number[] }> = [
      { name: 'nothing due at start', stepMs: 0, want: [] },
      { name: 'after 10s: one group of one', stepMs: 10_000, want: [1] },
      { name: 'popping again finds nothing', stepMs: 0, want: [] },
      { name: 'after 22s: one group of two', stepMs: 12_000, want: [2] },
    ];
    for (const s of steps) {
      clock.step(s.stepMs);
      assert.deepStrictEqual(sizes(watchers.popExpiredWatchersThreadUnsafe()), s.want, s.name);
    }
  });

  it('TestBookmarkAfterResourceVersionWatchers', () => {
    const clock = new FakeClock(1_700_000_000_000);
    const target = newTimeBucketWatchers<TestWatcher>(clock, defaultBookmarkFrequency);
    const w = new TestWatcher('1', clock.now() + 120_000);
    w.setBookmarkAfterResourceVersion(10);
    assert.ok(target.addWatcherThreadUnsafe(w), 'adding the watcher');

    const steps: Array<{ name: string; stepMs: number; want: number[]; then?: () => void }> = [
      { name: 'waiting for its bookmark: scheduled immediately', stepMs: 0, want: [1] },
      { name: 'after 1s still expired', stepMs: 1_000, want: [1] },
      {
        name: 'after 29s more still expired',
        stepMs: 29_000,
        want: [1],
        then: () => w.markBookmarkAfterRvAsReceived({ type: 'BOOKMARK', resourceVersion: 10 }),
      },
      { name: 'received: next bookmark a minute later, not after 30s', stepMs: 30_000, want: [] },
      { name: 'received: due after 60s', stepMs: 30_000, want: [1] },
    ];
    for (const s of steps) {
      clock.step(s.stepMs);
      const got = target.popExpiredWatchersThreadUnsafe();
      assert.deepStrictEqual(sizes(got), s.want, s.name);
      s.then?.();
      if (got.length) assert.ok(target.addWatcherThreadUnsafe(got[0][0]), `${s.name}: re-adding`);
    }
  });

  it('puts times into whole-second buckets, truncating toward zero and clamping to the start bucket', () => {
    const cases: Array<{ name: string; offsetMs: number; startBucket?: number; want: number }> = [
      { name: 'just before a second boundary', offsetMs: 1_999, want: 1 },
      { name: 'on the boundary', offsetMs: 2_000, want: 2 },
      { name: 'half a second before creation truncates to 0, not -1', offsetMs: -500, want: 0 },
      { name: 'two seconds before creation clamps to the start bucket', offsetMs: -2_000, want: 0 },
      {
        name: 'a time before the start bucket clamps to it',
        offsetMs: 3_000,
        startBucket: 5,
        want: 5,
      },
      {
        name: 'the zero time clamps to the start bucket',
        offsetMs: Number.NEGATIVE_INFINITY,
        startBucket: 7,
        want: 7,
      },
    ];
    for (const c of cases) {
      const clock = new FakeClock(50_000);
      const buckets = new WatcherBookmarkTimeBuckets<BookmarkWatcher>(
        clock,
        defaultBookmarkFrequency,
      );
      if (c.startBucket !== undefined) {
        clock.step(c.startBucket * 1000 - 1);
        buckets.popExpiredWatchersThreadUnsafe();
        assert.strictEqual(buckets.startBucketID, c.startBucket, `${c.name}: start bucket`);
      }
      const time = 50_000 + c.offsetMs;
      buckets.addWatcherThreadUnsafe({ id: 'w', nextBookmarkTime: () => time });
      assert.deepStrictEqual([...buckets.watchersBuckets.keys()], [c.want], c.name);
    }
  });

  it('does not add a watcher that wants no more bookmarks (deadline within 2s)', () => {
    const clock = new FakeClock();
    const buckets = newTimeBucketWatchers<TestWatcher>(clock, defaultBookmarkFrequency);
    const w = new TestWatcher(1, clock.now() + 1_500);
    w.setBookmarkAfterResourceVersion(0);
    assert.strictEqual(buckets.addWatcherThreadUnsafe(w), false);
    assert.strictEqual(buckets.watchersBuckets.size, 0);
  });

  it('reports scheduling and pops to the inspector, in bucket order', () => {
    const clock = new FakeClock();
    const popped: Array<{ bucketId: number; watcherIds: Array<number | string>; at: number }> = [];
    const scheduled: number[] = [];
    const buckets = newTimeBucketWatchers<BookmarkWatcher>(clock, 60_000, {
      bucketPopped: (e) => popped.push(e),
      watcherScheduled: (e) => scheduled.push(e.bucketId),
    });
    for (const [id, t] of [
      ['a', 3_000],
      ['b', 1_000],
      ['c', 3_500],
    ] as const) {
      buckets.addWatcherThreadUnsafe({ id, nextBookmarkTime: () => t });
    }
    assert.deepStrictEqual(scheduled, [3, 1, 3]);
    clock.step(4_000);
    const got = buckets.popExpiredWatchersThreadUnsafe();
    assert.deepStrictEqual(
      got.map((g) => g.map((w) => w.id)),
      [['b'], ['a', 'c']],
    );
    assert.deepStrictEqual(popped, [
      { bucketId: 1, watcherIds: ['b'], at: 4_000 },
      { bucketId: 3, watcherIds: ['a', 'c'], at: 4_000 },
    ]);
    assert.strictEqual(buckets.startBucketID, 5);
    assert.strictEqual(buckets.scheduledWatchers(), 0);
  });

  it('pops exactly what walking every second would, however far the clock jumps (property)', () => {
    // Reference: upstream's loop over every bucket id from startBucketID to the current one.
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            at: fc.integer({ min: -5_000, max: 400_000 }),
            advance: fc.integer({ min: 0, max: 120_000 }),
          }),
          { maxLength: 40 },
        ),
        (ops) => {
          const clock = new FakeClock(10_000);
          const buckets = new WatcherBookmarkTimeBuckets<BookmarkWatcher>(clock, 60_000);
          const ref = new Map<number, Array<number | string>>();
          let refStart = 0;
          let id = 0;
          for (const op of ops) {
            const now = clock.now();
            const w: BookmarkWatcher = {
              id: id++,
              nextBookmarkTime: () => now + op.at,
            };
            buckets.addWatcherThreadUnsafe(w);
            let b = Math.trunc((now + op.at - 10_000) / 1000);
            if (b < refStart) b = refStart;
            ref.set(b, [...(ref.get(b) ?? []), w.id]);
            clock.step(op.advance);
            const cur = Math.trunc((clock.now() - 10_000) / 1000);
            const want: Array<Array<number | string>> = [];
            for (; refStart <= cur; refStart++) {
              const ws = ref.get(refStart);
              if (ws) {
                ref.delete(refStart);
                want.push(ws);
              }
            }
            const got = buckets.popExpiredWatchersThreadUnsafe().map((g) => g.map((x) => x.id));
            assert.deepStrictEqual(got, want);
            assert.strictEqual(buckets.startBucketID, refStart);
          }
        },
      ),
      { seed: 7, numRuns: 200 },
    );
  });
});
