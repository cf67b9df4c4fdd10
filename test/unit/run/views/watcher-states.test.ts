// src/run/views/watcher-states.ts: a watcher's state at a moment of virtual time and the edges it
// took, as the inspector's table, diagram and Watchers view read them.
import * as assert from 'assert';
import type { WatcherTrack } from '../../../../src/run/run-model';
import {
  formatVirtualTime,
  lastIndexAtOrBefore,
  watcherPhaseAt,
  watcherStateText,
  watcherTransitions,
  type WatcherAsked,
} from '../../../../src/run/views/watcher-states';
import type { WatcherStateName } from '../../../../src/run/run-model';
import { watcherTrack } from './watcher-track-fixture';

const track = watcherTrack;

// Opened waiting at 100, the bookmark after its floor received at 2000, sent at 2010, closed at 5000.
const watchList = track({
  states: [
    { at: 100, state: 'WaitingForBookmark' },
    { at: 2000, state: 'BookmarkReceived' },
    { at: 2010, state: 'BookmarkSent' },
  ],
  closeReason: 'timeout',
  closedAt: 5000,
});

describe('watcherPhaseAt', () => {
  const runEnd = 9000;
  const cases: Array<[string, WatcherTrack, number, string]> = [
    ['before it opened', watchList, 99, 'notStarted'],
    ['the instant it opened', watchList, 100, 'WaitingForBookmark'],
    ['waiting', watchList, 1999, 'WaitingForBookmark'],
    ['bookmark received', watchList, 2000, 'BookmarkReceived'],
    ['bookmark sent', watchList, 4999, 'BookmarkSent'],
    ['closed at its time', watchList, 5000, 'closed'],
    ['closed later on', watchList, 8000, 'closed'],
    [
      'two changes in one instant: the last wins',
      track({
        states: [
          { at: 100, state: 'WaitingForBookmark' },
          { at: 100, state: 'BookmarkSent' },
        ],
      }),
      100,
      'BookmarkSent',
    ],
    [
      'closed without a time: open before the end',
      track({
        states: [{ at: 0, state: 'BookmarkSent' }],
        closeReason: 'terminated',
        terminated: true,
      }),
      8999,
      'BookmarkSent',
    ],
    [
      'closed without a time: closed at the end',
      track({
        states: [{ at: 0, state: 'BookmarkSent' }],
        closeReason: 'terminated',
        terminated: true,
      }),
      9000,
      'closed',
    ],
    ['no states recorded', track({}), 5000, 'notStarted'],
  ];
  for (const [name, t, at, want] of cases) {
    it(name, () => assert.strictEqual(watcherPhaseAt(t, at, runEnd), want, name));
  }
});

describe('watcherStateText', () => {
  // A watch that asked for initial events (WatchList) waits for the bookmark after its floor; any
  // other is put from WaitingForBookmark (the zero state) straight into BookmarkSent
  // (setBookmarkAfterResourceVersion(0)) before its first event, so it sends none while waiting.
  const watchListAsked: WatcherAsked = { allowWatchBookmarks: true, bookmarkFloorRv: 1210 };
  const getWatch: WatcherAsked = { allowWatchBookmarks: false, bookmarkFloorRv: 0 };
  const reflector: WatcherAsked = { allowWatchBookmarks: true, bookmarkFloorRv: 0 };
  const cases: Array<[string, WatcherStateName, WatcherAsked, string]> = [
    ['WatchList, waiting', 'WaitingForBookmark', watchListAsked, 'Initial events'],
    ['WatchList, bookmark due', 'BookmarkReceived', watchListAsked, 'End bookmark due'],
    ['WatchList, streaming', 'BookmarkSent', watchListAsked, 'Streaming (initial events done)'],
    ['get -w, before it is registered', 'WaitingForBookmark', getWatch, 'Opening'],
    ['get -w, streaming', 'BookmarkSent', getWatch, 'Streaming (no bookmarks asked)'],
    ['reflector watch, before it is registered', 'WaitingForBookmark', reflector, 'Opening'],
    ['reflector watch, streaming', 'BookmarkSent', reflector, 'Streaming'],
  ];
  for (const [name, state, asked, want] of cases)
    it(name, () => assert.strictEqual(watcherStateText(state, asked), want, name));
});

describe('watcherTransitions', () => {
  it('groups the edges taken, in first-taken order, with their times; repeats of a state are no edge', () => {
    const t = track({
      states: [
        { at: 0, state: 'WaitingForBookmark' },
        { at: 5, state: 'WaitingForBookmark' },
        { at: 10, state: 'BookmarkReceived' },
        { at: 20, state: 'BookmarkSent' },
        { at: 30, state: 'BookmarkReceived' },
        { at: 40, state: 'BookmarkSent' },
      ],
    });
    assert.deepStrictEqual(watcherTransitions(t), [
      { from: 'WaitingForBookmark', to: 'BookmarkReceived', times: [10] },
      { from: 'BookmarkReceived', to: 'BookmarkSent', times: [20, 40] },
      { from: 'BookmarkSent', to: 'BookmarkReceived', times: [30] },
    ]);
  });

  it('a watcher that never changed state took no edge', () => {
    assert.deepStrictEqual(
      watcherTransitions(track({ states: [{ at: 0, state: 'BookmarkSent' }] })),
      [],
    );
  });
});

describe('lastIndexAtOrBefore', () => {
  const items = [{ at: 0 }, { at: 10 }, { at: 10 }, { at: 25 }];
  const cases: Array<[number, number]> = [
    [-1, -1],
    [0, 0],
    [9, 0],
    [10, 2],
    [24, 2],
    [25, 3],
    [1e9, 3],
  ];
  for (const [at, want] of cases) {
    it(`at ${at} -> ${want}`, () =>
      assert.strictEqual(lastIndexAtOrBefore(items, at), want, `at ${at}`));
  }
  it('an empty list has none', () => assert.strictEqual(lastIndexAtOrBefore([], 5), -1));
});

describe('formatVirtualTime', () => {
  const cases: Array<[number, string]> = [
    [0, '0.000 s'],
    [1, '0.001 s'],
    [12345, '12.345 s'],
    [60998.79, '60.999 s'],
    [Number.NaN, '—'],
  ];
  for (const [ms, want] of cases)
    it(`${ms} ms`, () => assert.strictEqual(formatVirtualTime(ms), want));
});
