// Tests for the watch faults a log proves, in the replay (issue #24 item 17, the WATCH side): a
// WATCH the log shows answered 410 (its status, or the `too old resource version` its client logged
// from the stream) proves the watch cache's history no longer held its resourceVersion. The
// baseline replay drops the engine's history there (expire-history) so the engine answers 410
// too; a what-if with its own watch cache size lets that size decide (a big one holds the events
// and the watch opens: the comparison shows it); where the log holds no write since the watch's
// resourceVersion, nothing could have pushed the history, and the replay says it cannot reproduce
// the 410 instead of agreeing.
import * as assert from 'assert';
import * as path from 'path';
import { compareRuns } from '../../../src/run/compare-runs';
import type { ImportedRequest } from '../../../src/run/imported-request';
import { auditLogRequests } from './audit-log-requests';
import { importFiles } from '../../../src/import/import-files';
import { replayToModel } from '../../../src/replay/replay-import';
import { replaySummaryText, type ReplayOptions } from '../../../src/replay/replay-options';
import { replayPanel } from '../../../src/extension/panel/replay-panel';
import { replayCountText } from '../../../src/run/views/replay-count';

const t0 = Date.UTC(2025, 2, 12, 10, 15, 0);
const controller = 'my-controller/v0.1.0 (linux/amd64)';
const writer = 'deployer/v1.0.0 (linux/amd64)';
const log = auditLogRequests({ t0, userAgent: controller });
const req = log.req.bind(log);

const expired = {
  code: 410,
  status: { reason: 'Expired', message: 'too old resource version: 48100 (48160)' },
};

/** A reflector's LIST at rv 48100, `writes` pod updates by another client, its WATCH from 48100 answered 410. */
function story(writes: number): ImportedRequest[] {
  log.restart();
  const out = [
    req('list', '/api/v1/namespaces/default/pods?limit=500', 0, {
      response: { items: 3, resourceVersion: '48100' },
    }),
  ];
  for (let i = 0; i < writes; i++)
    out.push(
      req('update', `/api/v1/namespaces/default/pods/web-${i % 3}`, 1 + i, {
        userAgent: writer,
        objectRef: { resource: 'pods', namespace: 'default', name: `web-${i % 3}` },
      }),
    );
  out.push(
    req('watch', '/api/v1/namespaces/default/pods?resourceVersion=48100&watch=true', 30, expired),
  );
  return out;
}

const base: ReplayOptions = { profile: '1.36', seed: 3, files: ['audit.log'] };

describe('replay: the watch faults the log proves', () => {
  it("a WATCH answered 410: the baseline drops the watch cache's history there, and the engine answers 410 too", async () => {
    const { model, summary } = await replayToModel(story(5), base);
    const watch = model.watchRequests?.find((w) => w.client === controller);
    assert.ok(watch, 'the watch is re-issued');
    assert.strictEqual(watch.error?.code, 410, `the engine's answer: ${JSON.stringify(watch)}`);
    assert.match(watch.error.message, /too old resource version/);
    assert.deepStrictEqual(watch.disagrees ?? [], []);
    const fault = model.faults?.find((f) => f.name === 'expire-history');
    assert.ok(fault, `the history's expiry is in the run: ${JSON.stringify(model.faults)}`);
    assert.match(
      fault.text,
      /the log's 410 on a watch \(audit\.log:7\) proves the watch cache's history no longer held its resourceVersion/,
    );
    assert.match(replaySummaryText(summary), /the engine agrees with every one/);
  });

  it("what-if watchCacheSize: the what-if's own cache decides; a big one holds the events, the watch opens, and the comparison shows it", async () => {
    const requests = story(5);
    const baseline = await replayToModel(requests, base);
    const big = await replayToModel(requests, { ...base, watchCacheSize: 1000 });
    const small = await replayToModel(requests, { ...base, watchCacheSize: 2 });
    const watchOf = (m: typeof big.model) => m.watchRequests?.find((w) => w.client === controller);
    assert.strictEqual(
      big.model.faults?.find((f) => f.name === 'expire-history'),
      undefined,
    );
    assert.strictEqual(watchOf(big.model)?.outcome, 'started', 'a cache of 1000 held all 5 events');
    assert.deepStrictEqual(
      watchOf(big.model)?.disagrees,
      ['status'],
      'the what-if differs from the log',
    );
    assert.strictEqual(
      watchOf(small.model)?.error?.code,
      410,
      'a cache of 2 lost the first events',
    );
    const cmp = compareRuns(baseline.model, big.model);
    assert.strictEqual(cmp.b, '1.36 watchCacheSize=1000');
    const row = cmp.clients.find((c) => c.client === controller);
    assert.deepStrictEqual([row?.a.http410, row?.b.http410], [1, 0]);
    assert.ok(
      big.summary.notes.some((n) =>
        /what-if: the log's 410 on the watch at audit\.log:7 is left to the watch cache of 1000 events/.test(
          n,
        ),
      ),
      big.summary.notes.join('\n'),
    );
  });

  it('no write since the watch\'s resourceVersion: the replay says it cannot reproduce the 410, never "agrees"', async () => {
    const { model, summary } = await replayToModel(story(0), base);
    const watch = model.watchRequests?.find((w) => w.client === controller);
    assert.strictEqual(watch?.outcome, 'started', 'nothing pushed the history: the watch opens');
    assert.strictEqual(
      model.faults?.find((f) => f.name === 'expire-history'),
      undefined,
    );
    assert.deepStrictEqual(watch?.disagrees ?? [], [], 'not blamed on the apiserver');
    const row = replayPanel(model)!.rows.find((r) => r.kind === 'watch');
    assert.match(
      row?.notReproduced ?? '',
      /^cannot reproduce the log's 410 on the watch/,
      'the Replay tab row',
    );
    for (const text of [replaySummaryText(summary), replayCountText(replayPanel(model)!.count)]) {
      assert.doesNotMatch(text, /agrees with every one/, text);
      assert.match(
        text,
        /cannot reproduce the log's 410 on the watch at audit\.log:2: the log holds no write of pods since its resourceVersion, so nothing could have pushed the watch cache's history past it/,
        text,
      );
    }
  });

  it("client-go's in-stream `too old resource version` (1.27 -v=6), 100 s into the stream: a 410 the replay cannot reproduce there (in-stream-expiry.test.ts)", async () => {
    const file = path.join(
      __dirname,
      '../../../../test/fixtures/import/client-go-1.27-v6-expired.log',
    );
    const requests: ImportedRequest[] = [];
    await importFiles(
      [{ path: file, name: 'client-go.log' }],
      {},
      { request: (r) => requests.push(r), reject: () => undefined },
    );
    const { model, summary } = await replayToModel(requests, {
      ...base,
      files: ['client-go.log'],
    });
    const first = model.watchRequests?.[0];
    assert.strictEqual(
      first?.logged?.status,
      410,
      "the stream's ERROR event is the watch's answer",
    );
    assert.deepStrictEqual(first?.disagrees ?? [], []);
    assert.match(
      replaySummaryText(summary),
      /cannot reproduce the log's 410 on the watch at client-go\.log:\d+: it came 100\.\d+ s into the stream/,
    );
  });

  it("client-go's in-stream `too old resource version` after writes: the baseline re-creates it", async () => {
    const requests = story(2);
    const watch = requests[requests.length - 1];
    // As client-go logs it: a 200 whose stream's one ERROR event is the 410.
    watch.code = 200;
    delete watch.status;
    watch.watchEnd = {
      message: 'too old resource version: 48100 (48160)',
      source: { file: 'client-go.log', line: 9, format: 'client-go' },
    };
    const { model } = await replayToModel(requests, base);
    const w = model.watchRequests?.find((x) => x.client === controller);
    assert.strictEqual(w?.error?.code, 410);
    assert.deepStrictEqual(w?.disagrees ?? [], []);
    assert.ok(model.faults?.some((f) => f.name === 'expire-history'));
  });
});
