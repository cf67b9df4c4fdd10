// Tests for a 410 the log shows on a watch of a resource without a watch cache (core/v1 events:
// the storage table), in the replay (issue #24): such a watch is served by the etcd3 store, so its
// 410 is etcd's compaction (etcd3/errors.go interpretWatchError: `The resourceVersion for the
// provided watch is too old.`), not the watch cache's history. The replay re-creates the compaction
// the log proves (as the apiserver's compactor does: it writes its key, then compacts) before the
// watch, and the engine answers it as the real apiserver did.
import * as assert from 'assert';
import type { ImportedRequest } from '../../../src/run/imported-request';
import { auditLogRequests } from './audit-log-requests';
import { replayToModel } from '../../../src/replay/replay-import';
import { replaySummaryText, type ReplayOptions } from '../../../src/replay/replay-options';
import { replayPanel } from '../../../src/extension/panel/replay-panel';
import { replayCountText } from '../../../src/run/views/replay-count';

const t0 = Date.UTC(2025, 2, 12, 10, 15, 0);
const watcherUa = 'event-exporter/v1.0.0 (linux/amd64)';
const writerUa = 'kubelet/v1.33.0 (linux/amd64)';
const log = auditLogRequests({ t0, userAgent: watcherUa, idPrefix: 'r' });
const req = log.req.bind(log);

const etcdExpired = 'The resourceVersion for the provided watch is too old.';

/** An events LIST at rv 900, `writes` events created, then a WATCH from 900 the log shows expired. */
function story(writes: number, expired: Partial<ImportedRequest>): ImportedRequest[] {
  log.restart();
  const out = [
    req('list', '/api/v1/namespaces/default/events?limit=500', 0, {
      response: { items: 2, resourceVersion: '900' },
    }),
  ];
  for (let i = 0; i < writes; i++)
    out.push(
      req('create', `/api/v1/namespaces/default/events`, 1 + i, {
        userAgent: writerUa,
        objectRef: { resource: 'events', namespace: 'default', name: `ev-${i}` },
      }),
    );
  out.push(
    req('watch', '/api/v1/namespaces/default/events?resourceVersion=900&watch=true', 30, expired),
  );
  return out;
}

const base: ReplayOptions = { profile: '1.36', seed: 3, files: ['audit.log'] };

describe('replay: a 410 on a watch of a resource the etcd3 store serves (events: no watch cache)', () => {
  const cases: Array<{ name: string; writes: number; expired: Partial<ImportedRequest> }> = [
    {
      name: "the log's status 410 (audit)",
      writes: 3,
      expired: { code: 410, status: { reason: 'Expired', message: etcdExpired } },
    },
    {
      name: "no write since the watch's RV: the compactor's own writes move the revision",
      writes: 0,
      expired: { code: 410, status: { reason: 'Expired', message: etcdExpired } },
    },
    {
      name: "client-go's `closed with` from the stream (a 200 whose one event is the ERROR)",
      writes: 2,
      expired: {
        code: 200,
        watchEnd: {
          message: etcdExpired,
          source: { file: 'client-go.log', line: 9, format: 'client-go' },
        },
      },
    },
  ];
  for (const c of cases)
    it(`${c.name}: the replay compacts etcd past the watch's RV and the engine answers etcd's 410`, async () => {
      const { model, summary } = await replayToModel(story(c.writes, c.expired), base);
      const watch = model.watchRequests?.find((w) => w.client === watcherUa);
      assert.ok(watch, 'the watch is re-issued');
      assert.strictEqual(watch.error?.code, 410, `the engine's answer: ${JSON.stringify(watch)}`);
      assert.strictEqual(watch.error.message, etcdExpired);
      assert.deepStrictEqual(watch.disagrees ?? [], []);
      assert.strictEqual(watch.logged?.notReproduced, undefined);
      const fault = model.faults?.find((f) => f.name === 'compaction');
      assert.ok(fault, `the compaction is in the run: ${JSON.stringify(model.faults)}`);
      assert.match(fault.text, /proves etcd had compacted past the watch's resourceVersion/);
      for (const text of [replaySummaryText(summary), replayCountText(replayPanel(model)!.count)]) {
        assert.doesNotMatch(text, /cannot reproduce/, text);
        assert.match(text, /agrees with every one/, text);
      }
    });

  it('an events watch the log shows open: the engine serves it from etcd and it stays open (not "closed at once")', async () => {
    const requests = story(2, { code: 200, completedAt: t0 + 90_000 });
    const { model, summary } = await replayToModel(requests, base);
    const watch = model.watchRequests?.find((w) => w.client === watcherUa);
    assert.strictEqual(watch?.outcome, 'started', JSON.stringify(watch));
    assert.strictEqual(watch.error, undefined);
    assert.deepStrictEqual(watch.disagrees ?? [], []);
    assert.strictEqual(watch.closedAt, 90_000, 'closed when the log says it ended');
    assert.strictEqual(
      model.faults?.find((f) => f.name === 'compaction'),
      undefined,
    );
    assert.match(replaySummaryText(summary), /agrees with every one/);
  });
});
