// The live panel's update cost (issue #12, "Performance"): 1,000 real HTTP watch connections to an
// ApiServer and 100 writes/s for 3 s, recorded and folded into a live run, every 250 ms batch
// timed on the host as the panel pays for it (the snapshot, the panel model, the message as JSON)
// beside loading the same run from its saved trace (bench/live-panel.ts measures; `npm run bench`
// prints the same row). A plain Node test, not an extension-host one: the figures are host-side
// work, which the extension host would only add noise to; the webview's share is the message size
// printed here. No wall-clock limits: the counts are asserted, the figures printed.
import * as assert from 'assert';
import { livePanelReport, measureLivePanel } from '../../../bench/live-panel';

describe('live panel update cost (1,000 HTTP watchers, 100 writes/s)', function () {
  this.timeout(180_000);

  it('prints the cost of a batch beside the cost of loading the run from its saved trace', async () => {
    const r = await measureLivePanel({ watchers: 1000, writesPerSecond: 100, seconds: 3 });
    assert.strictEqual(r.writes, 300);
    assert.strictEqual(
      r.eventLines,
      r.watchers * (r.seedPods + r.writes),
      `every watcher read the seed pods and every write (watchers closed by: ${JSON.stringify(closeReasons(r.live.watchers))})`,
    );
    const live = r.live;
    assert.strictEqual(live.watchers.length, 1000, 'every watch has its watcher');
    assert.strictEqual(live.writes?.byVerb.create, 300);
    assert.strictEqual(live.watchRequests?.length, 1000);
    assert.strictEqual(
      live.watchers.filter((w) => w.closeReason === 'client went away').length,
      1000,
    );
    assert.ok(r.batches.length >= 6, `${r.batches.length} batches`);
    assert.deepStrictEqual(r.loaded, live, 'the saved trace reloads to the live model');
    console.log(
      livePanelReport(r)
        .map((l) => `      ${l}`)
        .join('\n'),
    );
  });
});

function closeReasons(watchers: readonly { closeReason?: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const w of watchers)
    counts[w.closeReason ?? 'open'] = (counts[w.closeReason ?? 'open'] ?? 0) + 1;
  return counts;
}
