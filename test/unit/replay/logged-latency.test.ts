// Tests for the log's latency of a LIST beside the replay's (src/replay/logged-answer.ts
// latencyNotReproduced): a LIST the log shows took the 3 s consistent-read wait and then etcd, which
// the replay answered at once, is not said as a plain "agrees" on any face (the Replay tab's row,
// the count, `listwatch replay`'s lines); the lagging cache it suggests is said as an inference.
import * as assert from 'assert';
import type { ImportedRequest } from '../../../src/run/imported-request';
import { replayToModel } from '../../../src/replay/replay-import';
import { replaySummaryText, type ReplayOptions } from '../../../src/replay/replay-options';
import { replayPanel } from '../../../src/extension/panel/replay-panel';
import { replaySummaryLines } from '../../../src/cli/import-replay-options';
import { replayCountOf, replayCountText } from '../../../src/run/views/replay-count';

const t0 = Date.UTC(2026, 11, 7, 10, 0, 0);
const base: ReplayOptions = { profile: '1.36', seed: 7, files: ['audit.log'] };

/** A LIST as the audit importer makes it: `stageLatencyMs` apart from received to complete. */
function auditList(uri: string, latencyMs: number): ImportedRequest {
  return {
    id: 'a1',
    auditID: 'a1',
    sources: [{ file: 'audit.log', line: 1, format: 'audit' }],
    verb: 'list',
    requestURI: uri,
    userAgent: 'kubectl/v1.35.0 (linux/amd64) kubernetes/abc',
    receivedAt: t0,
    completedAt: t0 + latencyMs,
    stageLatencyMs: latencyMs,
    startInFile: true,
    endInFile: true,
    code: 200,
    response: { items: 3, resourceVersion: '4812' },
  };
}

/** A LIST as a client-go -v=6 line tells it (`GET … 200 OK in 3007 milliseconds`). */
function clientGoList(
  uri: string,
  latencyMs: number,
  format: 'client-go' | 'httplog' = 'client-go',
): ImportedRequest {
  return {
    id: 'client-go.log:4',
    sources: [{ file: 'client-go.log', line: 4, format }],
    verb: 'list',
    method: 'GET',
    requestURI: uri,
    userAgent: '',
    receivedAt: t0,
    completedAt: t0 + latencyMs,
    latencyMs,
    startInFile: true,
    endInFile: true,
    code: 200,
  };
}

describe("a LIST's logged latency beside the replay's", () => {
  // `row`: the Replay tab's words beside "agrees" (undefined: a plain "agrees"); `count`: what the
  // count adds after the agreement (undefined: "agrees with every one").
  const cases: Array<{
    name: string;
    request: ImportedRequest;
    row?: RegExp;
    count?: RegExp;
  }> = [
    {
      name: 'audit: a consistent LIST of 3,007 ms (the 3 s wait, then etcd), answered at once',
      request: auditList('/api/v1/namespaces/default/pods', 3007),
      row: /^agrees on status, items, continue and remainingItemCount; the log's latency \(3,007 ms, the audit event's\) is not reproduced: the engine answered in 0 ms\. An inference from that latency alone: the watch cache lagged, the consistent read waited 3 s for it \(blockTimeout\), then etcd served the LIST$/,
      count:
        /the engine agrees with 1; it does not reproduce the log's latency of 1 LIST \(3,007 ms\)$/,
    },
    {
      name: 'client-go: `in 3007 milliseconds` on a consistent LIST (no body: its status agrees)',
      request: clientGoList('/api/v1/pods?limit=500', 3007),
      row: /^agrees on status; the log's latency \(3,007 ms, as its client logged it\) is not reproduced: the engine answered in 0 ms\. An inference from that latency alone: the watch cache lagged/,
      count: /it does not reproduce the log's latency of 1 LIST \(3,007 ms\)$/,
    },
    {
      name: "httplog: the apiserver's latency=3.007s on a consistent LIST",
      request: clientGoList('/api/v1/pods', 3007, 'httplog'),
      row: /^agrees on status; the log's latency \(3,007 ms, as the apiserver's httplog logged it\) is not reproduced: the engine answered in 0 ms\. An inference from that latency alone/,
      count: /latency of 1 LIST \(3,007 ms\)$/,
    },
    {
      name: 'audit: an RV=0 LIST of 3,007 ms is no consistent read: no wait for the cache to infer',
      request: auditList('/api/v1/namespaces/default/pods?resourceVersion=0', 3007),
      row: /^agrees on status, items, continue and remainingItemCount; the log's latency \(3,007 ms, the audit event's\) is not reproduced: the engine answered in 0 ms$/,
      count: /latency of 1 LIST \(3,007 ms\)$/,
    },
    {
      name: 'audit: a consistent LIST of 2,000 ms is not the 3 s signature: no inference',
      request: auditList('/api/v1/namespaces/default/pods', 2000),
      row: /is not reproduced: the engine answered in 0 ms$/,
      count: /latency of 1 LIST \(2,000 ms\)$/,
    },
    {
      name: 'audit: a LIST of 40 ms, answered at once: agrees',
      request: auditList('/api/v1/namespaces/default/pods', 40),
    },
  ];
  for (const c of cases)
    it(c.name, async () => {
      const { model, summary } = await replayToModel([c.request], base);
      const row = replayPanel(model)?.rows[0];
      assert.ok(row, 'a Replay row');
      assert.deepStrictEqual(row.disagrees, [], 'status and items agree');
      assert.match(row.engine, /served by cache$/, 'the replay answered from the cache');
      if (c.row) assert.match(row.latencyNotReproduced ?? '(plain agrees)', c.row);
      else assert.strictEqual(row.latencyNotReproduced, undefined);
      // The same count on every face: the run model's and the replay's own summary.
      const fromModel = replayCountText(replayCountOf(model));
      assert.strictEqual(replaySummaryText(summary), fromModel);
      if (c.count) assert.match(fromModel, c.count);
      else assert.match(fromModel, /the engine agrees with every one$/);
      const lines = replaySummaryLines('audit.log', summary).join('\n');
      if (c.row) assert.ok(lines.includes(row.latencyNotReproduced ?? '?'), lines);
    });
});
