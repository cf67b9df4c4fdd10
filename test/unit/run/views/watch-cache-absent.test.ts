// The Watch cache tab's sentence when a run has no watch cache to draw (#24 item 5: a live
// recording is no scenario that does not start one).
import * as assert from 'assert';
import { watchCacheAbsentText } from '../../../../src/run/views/watch-cache-absent';

describe('watchCacheAbsentText', () => {
  it('a live recording without cache events says so, never that a scenario does not start the cache', () => {
    const text = watchCacheAbsentText('live', 3);
    assert.doesNotMatch(text, /scenario/);
    assert.match(text, /^This recording holds no watch cache event/);
  });

  it('a scenario whose LISTs go to etcd says it does not start the watch cache', () => {
    assert.match(
      watchCacheAbsentText('selector-death-spiral', 1),
      /^This scenario does not start the watch cache: its LISTs go straight to the etcd3 store/,
    );
  });
});
