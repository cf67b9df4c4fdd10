// Tests for a 410 the log shows arriving inside a watch's stream, in the replay (issue #24): a
// client's `closed with: too old resource version` logged well after the watch was answered. The
// watch cache sends its 410 only as a watch's first event (cacher.go Watch, newErrWatcher) and
// closes a watcher that falls out of its history without one (cache_watcher.go processInterval):
// no cause the replay could re-create gives an open watch a 410. So the replay must not answer the
// watch 410 at its open (where the log shows events for seconds after it); it keeps the watch open
// until the log's 410, and says it cannot reproduce the 410, and why, never "agrees".
import * as assert from 'assert';
import * as path from 'path';
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

/** A LIST at 48100, `writes` updates, a WATCH from 48100 at 2 s, its 410 at `endS`. */
function story(writes: number, endS: number): ImportedRequest[] {
  log.restart();
  const out = [
    req('list', '/api/v1/namespaces/default/pods?limit=500', 0, {
      response: { items: 3, resourceVersion: '48100' },
    }),
    req('watch', '/api/v1/namespaces/default/pods?resourceVersion=48100&watch=true', 2, {
      completedAt: t0 + endS * 1000,
      watchEnd: {
        message: 'watch of *v1.Pod closed with: too old resource version: 48160 (48170)',
        at: t0 + endS * 1000,
        source: { file: 'client-go.log', line: 40, format: 'client-go' },
      },
    }),
  ];
  for (let i = 0; i < writes; i++)
    out.push(
      req('update', `/api/v1/namespaces/default/pods/web-${i % 3}`, 1 + i / 10, {
        userAgent: writer,
        objectRef: { resource: 'pods', namespace: 'default', name: `web-${i % 3}` },
      }),
    );
  return out;
}

const base: ReplayOptions = { profile: '1.36', seed: 3, files: ['audit.log'] };

describe('replay: a 410 the log shows inside a watch stream', () => {
  const cases = [
    { name: "after writes since the watch's resourceVersion", writes: 5, endS: 60 },
    { name: 'with no write since it', writes: 0, endS: 60 },
  ];
  for (const c of cases)
    it(`${c.name}: the watch opens, stays open until the log's 410, and the replay says it cannot reproduce it`, async () => {
      const { model, summary } = await replayToModel(story(c.writes, c.endS), base);
      const watch = model.watchRequests?.find((w) => w.client === controller);
      assert.strictEqual(
        watch?.outcome,
        'started',
        `not answered 410 at its open: ${JSON.stringify(watch)}`,
      );
      assert.strictEqual(watch.closedAt, (c.endS - 0) * 1000, 'closed where the log shows the 410');
      assert.strictEqual(
        model.faults?.find((f) => f.name === 'expire-history'),
        undefined,
        'no history dropped before the watch: it would answer 410 at its open',
      );
      assert.deepStrictEqual(watch.disagrees ?? [], [], 'not blamed on the apiserver');
      const row = replayPanel(model)!.rows.find((r) => r.kind === 'watch');
      assert.match(row?.notReproduced ?? '', /^cannot reproduce the log's 410 on the watch/);
      for (const text of [replaySummaryText(summary), replayCountText(replayPanel(model)!.count)]) {
        assert.doesNotMatch(text, /agrees with every one/, text);
        assert.match(
          text,
          /cannot reproduce the log's 410 on the watch at audit\.log:2: it came 58(?:\.\d+)? s into the stream \(client-go\.log:40\), and the watch cache sends its 410 \(too old resource version\) only as a watch's first event/,
          text,
        );
      }
    });

  it('the client-go 1.27 -v=6 log: the watch from 1200 lived 100 s before its 410', async () => {
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
    const { model, summary } = await replayToModel(requests, { ...base, files: ['client-go.log'] });
    const first = model.watchRequests?.[0];
    assert.strictEqual(first?.outcome, 'started');
    assert.strictEqual(first?.logged?.status, 410);
    assert.deepStrictEqual(first?.disagrees ?? [], []);
    assert.match(
      replaySummaryText(summary),
      /cannot reproduce the log's 410 on the watch at client-go\.log:\d+: it came 100\.\d+ s into the stream \(client-go\.log:11\).*its message names resourceVersion 1243, the watch asked from 1200/,
    );
  });

  it("a real kubectl 1.35 wait -v=6 log and the server's audit log: its 410 came at the re-watch's answer, so the replay re-creates it there", async () => {
    // Recorded against `listwatch serve --audit-log`: `kubectl wait --for=delete pod/p1 -v=6`
    // (KUBE_FEATURE_WatchListClient=false), pods written by another kubectl, then the faults
    // expire-history and terminate-watcher: the reflector watched again from rv 6 and its client
    // logged `too old resource version: 6 (10)` 78 ms after that watch was answered.
    const dir = path.join(__dirname, '../../../../test/fixtures/import/kubectl-1.35-wait-expired');
    const requests: ImportedRequest[] = [];
    await importFiles(
      ['wait.log', 'audit.log'].map((name) => ({ path: path.join(dir, name), name })),
      {},
      { request: (r) => requests.push(r), reject: () => undefined },
    );
    const { model, summary } = await replayToModel(requests, {
      ...base,
      files: ['wait.log', 'audit.log'],
    });
    const rewatch = model.watchRequests?.find((w) => w.logged?.status === 410);
    assert.strictEqual(rewatch?.error?.code, 410, JSON.stringify(model.watchRequests));
    assert.match(rewatch.error.message, /^too old resource version: \d+ \(\d+\)$/);
    assert.ok(model.faults?.some((f) => f.name === 'expire-history'));
    assert.doesNotMatch(replaySummaryText(summary), /cannot reproduce|into the stream/);
  });
});
