// Tests for src/run/views/watcher-interest.ts: the side bar's Watchers view lists watchers that
// ended with an error first, then by events received, then by id in numeric order.
import * as assert from 'assert';
import { byInterest, endedWithError } from '../../../../src/run/views/watcher-interest';
import type { WatcherTrack } from '../../../../src/run/run-model';
import { watcherTrack } from './watcher-track-fixture';

function watcher(id: string, over: Partial<WatcherTrack> = {}): WatcherTrack {
  return watcherTrack({ id, states: [{ at: 0, state: 'WaitingForBookmark' }], ...over });
}

describe('watchers by interest', () => {
  const errorCases: Array<[string, Partial<WatcherTrack>, boolean]> = [
    ['open', {}, false],
    ['timed out', { closeReason: 'timeout' }, false],
    ['stopped by the client', { closeReason: 'stopped' }, false],
    ['client went away', { closeReason: 'client went away' }, false],
    ['terminated', { terminated: true, closeReason: 'terminated (blocked dispatch)' }, true],
    ['history overrun', { closeReason: 'interval invalidated (history overrun)' }, true],
    ['410', { closeReason: 'too old resource version' }, true],
  ];
  for (const [name, over, want] of errorCases) {
    it(`endedWithError: ${name}`, () => {
      assert.strictEqual(endedWithError(watcher('1', over)), want);
    });
  }

  it('errors first, then most events, then id in numeric order', () => {
    const sorted = byInterest([
      watcher('2', { eventsReceived: 5 }),
      watcher('10', { eventsReceived: 5 }),
      watcher('3', { eventsReceived: 9, closeReason: 'timeout' }),
      watcher('7', { terminated: true, eventsReceived: 1 }),
      watcher('1', { eventsReceived: 0 }),
      watcher('4', { closeReason: 'too old resource version', eventsReceived: 0 }),
    ]);
    assert.deepStrictEqual(
      sorted.map((w) => w.id),
      ['7', '4', '3', '2', '10', '1'],
    );
  });

  it('returns a sorted copy; the run model keeps its order', () => {
    const watchers = [watcher('1'), watcher('2', { eventsReceived: 1 })];
    byInterest(watchers);
    assert.deepStrictEqual(
      watchers.map((w) => w.id),
      ['1', '2'],
    );
  });
});
