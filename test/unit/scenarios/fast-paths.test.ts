// Every scenario (src/scenarios), run small with the cacher's fast paths on and off
// (RunScenarioOptions.fastPaths, `listwatch scenario run --fast-paths off`), writes the same
// trace byte for byte and the same summary: the fast paths change nothing a run records, which is
// why the setting is not in the trace. The in-place path must actually be taken in the runs.
import * as assert from 'assert';
import { InPlaceDelivery } from '../../../src/engine/cacher/in-place-delivery';
import { listScenarios, runScenario } from '../../../src/scenarios/runner';
import { TraceWriter } from '../../../src/run/trace/trace-writer';

/** Each scenario's parameters for a small run (a new scenario needs a row). */
const small: Record<string, Record<string, number | string | boolean>> = {
  'selector-death-spiral': { objects: 2000, limit: 10 },
  'read-your-writes': { readers: 3 },
  'bookmark-heartbeats': { watchers: 50, minutes: 2, writesPerSecond: 5 },
  'watchlist-starvation': { watchers: 10, stuckSeconds: 5 },
  'serialization-fanout': { watchers: 50, events: 20 },
  'watch-cache-resize': {
    burstEventsPerSecond: 50,
    burstSeconds: 10,
    quietSeconds: 60,
    lateWatcherDelaySeconds: 10,
  },
  'rangestream-fallback': { lists: 5 },
  'slow-watcher-termination': { fastWatchers: 10, slowWatchers: 3, eventsPerSecond: 50 },
};

/** The trace and summary of one run, and how many events were taken in place. */
async function traced(
  name: string,
  seed: number,
  fastPaths: boolean,
): Promise<{ trace: string; summary: string; inPlace: number }> {
  const add = InPlaceDelivery.prototype.add;
  let inPlace = 0;
  InPlaceDelivery.prototype.add = function (this: InPlaceDelivery, e) {
    const took = add.call(this, e);
    if (took) inPlace++;
    return took;
  };
  const lines: string[] = [];
  try {
    const { summary } = await runScenario(name, small[name], {
      seed,
      fastPaths,
      trace: new TraceWriter((l) => lines.push(l)),
    });
    return { trace: lines.join('\n'), summary: JSON.stringify(summary), inPlace };
  } finally {
    InPlaceDelivery.prototype.add = add;
  }
}

describe('scenarios with the fast paths on and off', () => {
  it('every scenario has a small run here', () => {
    assert.deepStrictEqual(
      listScenarios()
        .map((s) => s.name)
        .sort(),
      Object.keys(small).sort(),
    );
  });

  for (const name of Object.keys(small)) {
    it(`${name}: the same trace, byte for byte, and the same summary`, async () => {
      for (const seed of [1, 7]) {
        const on = await traced(name, seed, true);
        const off = await traced(name, seed, false);
        assert.strictEqual(off.inPlace, 0, `${name} seed ${seed}: off takes no event in place`);
        assert.ok(on.trace.length > 1000, `${name} seed ${seed}: a trace`);
        assert.ok(on.trace === off.trace, `${name} seed ${seed}: the traces differ`);
        assert.strictEqual(on.summary, off.summary, `${name} seed ${seed}: summary`);
      }
    });
  }

  it('the in-place path is taken where events fan out to fast clients', async () => {
    for (const name of [
      'serialization-fanout',
      'slow-watcher-termination',
      'watchlist-starvation',
    ]) {
      const { inPlace } = await traced(name, 1, true);
      assert.ok(inPlace > 100, `${name}: ${inPlace} events taken in place`);
    }
  });
});
