// Test fixture: a WatcherTrack with every field at its empty value, for the view tests.
import type { WatcherTrack } from '../../../../src/run/run-model';

/** A watcher track with nothing recorded, but what `over` gives. */
export function watcherTrack(over: Partial<WatcherTrack>): WatcherTrack {
  return {
    id: '1',
    selector: '',
    contentType: 'application/json',
    states: [],
    bookmarkFloorRv: 0,
    lastRvSent: 0,
    bufferFill: 0,
    bufferCapacity: 10,
    bookmarksReceived: 0,
    bookmarksDropped: {},
    eventsReceived: 0,
    terminated: false,
    closeReason: '',
    log: [],
    logDropped: 0,
    ...over,
  };
}
