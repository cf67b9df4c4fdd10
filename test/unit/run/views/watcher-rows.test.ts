// Tests for src/extension/panel/watcher-rows.ts (the Watchers tab's rows at the scrubber's time)
// with src/run/views/watcher-at-time.ts and watcher-states.ts: a row shows only what is true at
// its time (nothing before the watch opened, its outcome only once it ended), states read as the
// watch's user sees them, and the count the detail pane says comes from the rows' own source.
import * as assert from 'assert';
import { WatcherRows } from '../../../../src/extension/panel/watcher-rows';
import type { WatcherRow } from '../../../../src/protocol';
import type { RunModel, WatcherTrack } from '../../../../src/run/run-model';
import { watcherStateText } from '../../../../src/run/views/watcher-states';
import { watcherTrack } from './watcher-track-fixture';
import { liveRunHeader } from '../live-run-header-fixture';

const track = watcherTrack;

function model(watchers: WatcherTrack[], durationMs: number): RunModel {
  return {
    header: liveRunHeader(),
    durationMs,
    watchers,
    capacity: [],
    resourceVersions: [],
    serialization: {
      encodes: 0,
      hits: 0,
      lazyDeepCopies: 0,
      invalidations: 0,
      perIdentifier: {},
      perEvent: [],
    },
    lists: [],
    metrics: {},
    metricsText: '',
    rejected: { count: 0, samples: [] },
  };
}

// Three `kubectl get -w` watches (no bookmarks asked, so upstream marks them BookmarkSent as they
// open): the first opens at 1 s and ends at 5 s with a 410, the others open at 2 s and 3 s and stay
// open. As a live run records them (reads one by one: samples), and as an older trace (no samples).
const opens = [1000, 2000, 3000];
function getWatch(i: number, samples: boolean): WatcherTrack {
  const at = opens[i];
  return track({
    id: String(i + 1),
    allowWatchBookmarks: false,
    states: [
      { at, state: 'WaitingForBookmark' },
      { at, state: 'BookmarkSent' },
    ],
    lastRvSent: 2028,
    eventsReceived: 3,
    ...(i === 0 ? { closedAt: 5000, closeReason: 'too old resource version' } : {}),
    ...(samples
      ? {
          samples: [
            {
              at,
              received: 0,
              bookmarks: 0,
              lastRv: 0,
              bufferFill: 0,
              nextBookmarkSecond: null,
              floorRv: 0,
            },
            {
              at: at + 500,
              received: 3,
              bookmarks: 0,
              lastRv: 2028,
              bufferFill: 0,
              nextBookmarkSecond: null,
              floorRv: 0,
            },
          ],
        }
      : {}),
  });
}

/** The figures a row shows, and what its Outcome column reads from. */
function shown(r: WatcherRow) {
  return {
    phase: r.phase,
    stateText: r.stateText,
    lastRv: r.lastRv,
    received: r.received,
    bufferFill: r.bufferFill,
    floorRv: r.floorRv,
    outcome: r.outcome,
    endsAt: r.endsAt,
  };
}

const notOpened = {
  phase: 'notStarted',
  stateText: 'Not opened yet',
  lastRv: undefined,
  received: undefined,
  bufferFill: undefined,
  floorRv: undefined,
  outcome: '',
  endsAt: undefined,
};

for (const samples of [true, false]) {
  describe(`Watchers rows at the scrubber's time (${samples ? 'with samples' : 'a trace without samples'})`, () => {
    const end = 10_000;
    const rows = new WatcherRows(
      model(
        opens.map((_, i) => getWatch(i, samples)),
        end,
      ),
    );
    const rowAt = (id: string, at: number) => shown(rows.row(id, at) as WatcherRow);

    it('before a watch opened: no figure, no outcome, no end', () => {
      // Scrubbed back to 0.5 s: all three say "Not opened yet" and nothing else.
      for (const id of ['1', '2', '3']) assert.deepStrictEqual(rowAt(id, 500), notOpened, id);
      // At 1.5 s watcher 3 is still not open.
      assert.deepStrictEqual(rowAt('3', 1500), notOpened);
    });

    it('an open watch: no outcome yet, and what it had read only when the run knows it', () => {
      const r = rowAt('1', 2000);
      assert.strictEqual(r.phase, 'BookmarkSent');
      assert.strictEqual(r.outcome, '', 'its 410 comes later');
      assert.strictEqual(r.endsAt, 5000, 'when it ends, for the tooltip');
      // With samples: what it had read at 2 s; without: not known before it ended.
      assert.deepStrictEqual([r.received, r.lastRv], samples ? [3, 2028] : [undefined, undefined]);
    });

    it('once it ended: its outcome and its last figures', () => {
      const r = rowAt('1', 6000);
      assert.deepStrictEqual(
        [r.phase, r.outcome, r.endsAt, r.received, r.lastRv],
        ['closed', 'too old resource version', undefined, 3, 2028],
      );
    });

    it('a watch that asked for no bookmarks does not say a bookmark was sent', () => {
      const r = rowAt('2', 6000);
      assert.strictEqual(r.stateText, 'Streaming (no bookmarks asked)');
      assert.doesNotMatch(r.stateText, /bookmark sent/i);
    });

    it('counts the watchers at a moment from the rows themselves', () => {
      const cases: Array<[number, { open: number; later: number; ended: number }]> = [
        [500, { open: 0, later: 3, ended: 0 }],
        [1000, { open: 1, later: 2, ended: 0 }],
        [3000, { open: 3, later: 0, ended: 0 }],
        [5000, { open: 2, later: 0, ended: 1 }],
      ];
      for (const [at, want] of cases) {
        assert.deepStrictEqual(rows.watchersAt(at), want, `at ${at} ms`);
        const answer = rows.query({ search: '', state: '' }, at, 0, 10);
        assert.deepStrictEqual(answer.watchersAt, want, `the answer at ${at} ms`);
        // The same as the rows' phases say.
        const phases = answer.rows.map((r) => r.phase);
        assert.strictEqual(phases.filter((p) => p === 'notStarted').length, want.later);
        assert.strictEqual(phases.filter((p) => p === 'closed').length, want.ended);
      }
    });
  });
}

describe('watcherStateText: the state as the watch asked for it', () => {
  const cases: Array<[string, Parameters<typeof watcherStateText>, string]> = [
    [
      'WatchList, sending',
      ['WaitingForBookmark', { bookmarkFloorRv: 50, allowWatchBookmarks: true }],
      'Initial events',
    ],
    [
      'WatchList, the RV reached',
      ['BookmarkReceived', { bookmarkFloorRv: 50, allowWatchBookmarks: true }],
      'End bookmark due',
    ],
    [
      'WatchList, end bookmark sent',
      ['BookmarkSent', { bookmarkFloorRv: 50, allowWatchBookmarks: true }],
      'Streaming (initial events done)',
    ],
    [
      'kubectl get -w',
      ['BookmarkSent', { bookmarkFloorRv: 0, allowWatchBookmarks: false }],
      'Streaming (no bookmarks asked)',
    ],
    [
      'a reflector',
      ['BookmarkSent', { bookmarkFloorRv: 0, allowWatchBookmarks: true }],
      'Streaming',
    ],
    ['a trace that does not say', ['BookmarkSent', { bookmarkFloorRv: 0 }], 'Streaming'],
  ];
  for (const [name, args, want] of cases)
    it(name, () => assert.strictEqual(watcherStateText(...args), want));
});
