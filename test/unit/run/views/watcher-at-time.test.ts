// Tests for src/run/views/watcher-at-time.ts with src/run/watcher-samples.ts and
// src/sim/run-sampler.ts: a watcher's figures at several moments against the records that
// set them, hand-made and from a real scenario run.
import * as assert from 'assert';
import type { EngineEvent } from '../../../../src/engine/inspect/events';
import { metricsAt } from '../../../../src/run/views/metrics-at-time';
import { watcherFiguresAt, type WatcherFigures } from '../../../../src/run/views/watcher-at-time';
import { RunModelBuilder } from '../../../../src/run/build-run-model';
import type { RunHeader, RunModel, WatcherTrack } from '../../../../src/run/run-model';
import { idRanges } from '../../../../src/sim/run-sampler';
import { runScenario } from '../../../../src/scenarios/runner';
import type { TraceRecord } from '../../../../src/run/trace/trace-format';

const header: RunHeader = {
  format: 'listwatch-trace',
  version: 2,
  scenario: 'bookmark-heartbeats',
  profile: '1.36',
  seed: 1,
  params: {},
};
const gr = { group: '', resource: 'pods' };

type Figures = Pick<
  WatcherFigures,
  'phase' | 'received' | 'bookmarks' | 'lastRv' | 'bufferFill' | 'nextBookmarkSecond' | 'floorRv'
>;

function pick(f: WatcherFigures): Figures {
  return {
    phase: f.phase,
    received: f.received,
    bookmarks: f.bookmarks,
    lastRv: f.lastRv,
    bufferFill: f.bufferFill,
    nextBookmarkSecond: f.nextBookmarkSecond,
    floorRv: f.floorRv,
  };
}

/** Before the watch opened nothing is true of it: every figure blank, none a zero standing in. */
const none: Figures = {
  phase: 'notStarted',
  received: undefined,
  bookmarks: undefined,
  lastRv: undefined,
  bufferFill: undefined,
  nextBookmarkSecond: undefined,
  floorRv: undefined,
};
const opened: Figures = {
  ...none,
  received: 0,
  bookmarks: 0,
  lastRv: 0,
  bufferFill: 0,
  floorRv: 0,
};

describe('watcherFiguresAt', () => {
  // Watcher 7 opens at 1 s waiting for the bookmark after rv 50, reads two events at 2 s (one
  // stays buffered), gets the initial-events-end bookmark at 3 s, and is closed at 5 s.
  const records: Array<TraceRecord | EngineEvent> = [
    {
      type: 'watcher/created',
      at: 1000,
      watcherId: 7,
      groupResource: gr,
      identifier: '',
      chanSize: 10,
      deadline: null,
      allowWatchBookmarks: true,
    },
    {
      type: 'watcher/state',
      at: 1000,
      watcherId: 7,
      from: 'WaitingForBookmark',
      to: 'WaitingForBookmark',
      bookmarkAfterResourceVersion: 50,
    },
    {
      kind: 'metrics',
      scope: 'watchers',
      at: 1000,
      changes: [{ ids: [7], received: 0, lastRv: 0, bufferFill: 0, nextBookmarkSecond: 61 }],
    },
    {
      kind: 'metrics',
      scope: 'watchers',
      at: 2000,
      changes: [{ ids: [[6, 8]], received: 2, lastRv: 48, bufferFill: 1, nextBookmarkSecond: 61 }],
    },
    {
      type: 'watcher/bookmark',
      at: 3000,
      watcherId: 7,
      resourceVersion: 52,
      outcome: 'delivered',
      initialEventsEnd: true,
    },
    {
      type: 'watcher/state',
      at: 3000,
      watcherId: 7,
      from: 'WaitingForBookmark',
      to: 'BookmarkSent',
      bookmarkAfterResourceVersion: 50,
      resourceVersion: 52,
    },
    {
      kind: 'metrics',
      scope: 'watchers',
      at: 3000,
      changes: [{ ids: [7], received: 2, lastRv: 52, bufferFill: 0, nextBookmarkSecond: 63 }],
    },
    { type: 'watcher/closed', at: 5000, watcherId: 7, reason: 'contextDone', delivered: 4 },
  ];
  const b = new RunModelBuilder(header);
  for (const r of records) b.add(r);
  const model = b.finish();
  const w = model.watchers.find((x) => x.id === '7') as WatcherTrack;

  const cases: Array<{ name: string; at: number; want: Figures }> = [
    { name: 'before it opened', at: 0, want: none },
    { name: 'just before it opened', at: 999, want: none },
    {
      name: 'opened, waiting for the bookmark after rv 50',
      at: 1000,
      want: { ...opened, phase: 'WaitingForBookmark', nextBookmarkSecond: 61, floorRv: 50 },
    },
    {
      name: 'two events read, one more buffered',
      at: 2500,
      want: {
        phase: 'WaitingForBookmark',
        received: 2,
        bookmarks: 0,
        lastRv: 48,
        bufferFill: 1,
        nextBookmarkSecond: 61,
        floorRv: 50,
      },
    },
    {
      name: 'the bookmark sent and read',
      at: 3000,
      want: {
        phase: 'BookmarkSent',
        received: 4,
        bookmarks: 1,
        lastRv: 52,
        bufferFill: 0,
        nextBookmarkSecond: 63,
        floorRv: 50,
      },
    },
    {
      name: 'closed: in no bookmark bucket any more',
      at: 6000,
      want: {
        phase: 'closed',
        received: 4,
        bookmarks: 1,
        lastRv: 52,
        bufferFill: 0,
        nextBookmarkSecond: undefined,
        floorRv: 50,
      },
    },
  ];
  for (const c of cases)
    it(`${c.name} (${c.at} ms)`, () => {
      assert.deepStrictEqual(pick(watcherFiguresAt(w, c.at, model.durationMs)), c.want);
    });

  describe('a trace without samples: its last figures, only from the moment they are true', () => {
    const old = new RunModelBuilder(header);
    for (const r of records)
      if (!('kind' in r && r.kind === 'metrics')) old.add(r as TraceRecord | EngineEvent);
    const track = old.finish().watchers[0];
    const cases: Array<{ name: string; at: number; known: boolean; lastRv?: number }> = [
      // Scrubbed back before the watch opened: no Last RV (it used to show the run's last, 52).
      { name: 'before it opened', at: 0, known: false },
      // Open: its figures then are not recorded, and the last ones are later's.
      { name: 'open, before it ended', at: 2500, known: false },
      { name: 'once it ended', at: 5000, known: true, lastRv: 52 },
    ];
    for (const c of cases)
      it(`${c.name} (${c.at} ms)`, () => {
        assert.strictEqual(track.samples, undefined);
        const f = watcherFiguresAt(track, c.at, 5000);
        assert.strictEqual(f.endOfRun, true);
        assert.deepStrictEqual([f.known, f.lastRv], [c.known, c.lastRv]);
        assert.strictEqual(f.bookmarks, c.known ? 1 : undefined);
      });
  });
});

describe('idRanges', () => {
  const cases: Array<[number[], Array<number | [number, number]>]> = [
    [[], []],
    [[3], [3]],
    [
      [1, 2, 3, 5, 7, 8],
      [[1, 3], 5, [7, 8]],
    ],
  ];
  for (const [ids, want] of cases)
    it(`${JSON.stringify(ids)} -> ${JSON.stringify(want)}`, () => {
      assert.deepStrictEqual(idRanges(ids), want);
    });
});

describe('a scenario run records each watcher at every moment', function () {
  this.timeout(60_000);
  let model: RunModel;
  before(async () => {
    ({ model } = await runScenario('bookmark-heartbeats', { watchers: 3, minutes: 2 }));
  });

  it('bookmark-heartbeats: nothing before the watch, then one bookmark a minute', () => {
    const w = model.watchers[0];
    const ticks = model.bookmarkTicks ?? [];
    assert.strictEqual(ticks.length, 2, 'two heartbeat ticks in two minutes');
    const opened = w.states[0].at;
    const at = (t: number) => pick(watcherFiguresAt(w, t, model.durationMs));
    assert.deepStrictEqual(at(0), none);
    assert.deepStrictEqual(at(opened), {
      ...{ ...none, received: 0, bookmarks: 0, lastRv: 0, bufferFill: 0, floorRv: 0 },
      phase: at(opened).phase,
      nextBookmarkSecond: at(opened).nextBookmarkSecond,
    });
    assert.ok(at(opened).nextBookmarkSecond !== undefined, 'in a bookmark bucket once open');
    const [first, second] = ticks;
    assert.deepStrictEqual(
      [at(first.at - 1).received, at(first.at).received, at(first.at).lastRv],
      [0, 1, first.resourceVersion],
      'the first heartbeat is read at its tick, with its RV',
    );
    assert.deepStrictEqual(
      [at(second.at - 1).bookmarks, at(second.at).bookmarks, at(second.at).lastRv],
      [1, 2, second.resourceVersion],
    );
    assert.ok(
      (at(first.at).nextBookmarkSecond ?? 0) > (at(opened).nextBookmarkSecond ?? 0),
      'a popped watcher moves to a later bucket',
    );
    const end = watcherFiguresAt(w, model.durationMs, model.durationMs);
    assert.deepStrictEqual(
      [end.received, end.lastRv, end.bufferFill, end.nextBookmarkSecond],
      [w.eventsReceived, w.lastRvSent, w.bufferFill, w.nextBookmarkSecond],
      'at the end the figures are the final ones',
    );
  });

  it('metric scrapes: the changed series at the last instant of each virtual second and at the end', () => {
    const scrapes = model.scrapes ?? [];
    assert.ok(scrapes.length > 0);
    // One per second at most, and a last one at the end of the run if anything happened since.
    for (let i = 1; i < scrapes.length - 1; i++)
      assert.ok(
        Math.floor(scrapes[i].at / 1000) > Math.floor(scrapes[i - 1].at / 1000),
        'one scrape per second at most',
      );
    assert.ok(scrapes[scrapes.length - 1].at <= model.durationMs);
    const replayed: Record<string, number> = {};
    for (const s of scrapes) Object.assign(replayed, s.samples);
    assert.deepStrictEqual(replayed, model.metrics, 'the scrapes add up to the final samples');
    // Between scrapes the last one holds; from the end on, the final samples.
    const key = 'apiserver_watch_cache_events_dispatched_total{group="",resource="pods"}';
    const mid = scrapes[Math.floor(scrapes.length / 2)];
    const m = metricsAt(model, mid.at + 1);
    assert.strictEqual(m.scrapedAt, mid.at);
    assert.ok(m.samples[key] <= model.metrics[key]);
    assert.deepStrictEqual(metricsAt(model, model.durationMs).samples, model.metrics);
    assert.deepStrictEqual(metricsAt(model, 0).samples, {}, 'nothing scraped at 0 s yet');
  });
});
