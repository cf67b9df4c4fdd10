// The import of one recorded session (test/fixtures/import/wait-then-chunk: the audit log of
// `listwatch serve` and two kubectl -v=6/-v=8 logs of it): `kubectl wait --for=delete pod/x-a`
// (klog pid 2996) watched x-a and ended when x-a was deleted; 2.3 s later a separate
// `kubectl get pods --chunk-size=2` (pid 3054) listed pods. Same user agent, same user, same
// namespace: only the pids tell the two processes apart, and the LIST is no relist.
import * as assert from 'assert';
import { join } from 'path';
import { ImportReportBuilder } from '../../../src/import/import-report';
import { importFiles } from '../../../src/import/import-files';
import type { ImportReport } from '../../../src/run/import-report';
import type { ImportedRequest } from '../../../src/run/imported-request';
import { relistClientText } from '../../../src/run/relist-rule';

const dir = join(__dirname, '../../../../test/fixtures/import/wait-then-chunk');

async function importSession(
  names: readonly string[],
): Promise<{ report: ImportReport; requests: ImportedRequest[] }> {
  const builder = new ImportReportBuilder();
  const requests: ImportedRequest[] = [];
  const result = await importFiles(
    names.map((name) => ({ path: join(dir, name), name })),
    { year: 2026 },
    {
      request: (r) => {
        requests.push(r);
        builder.request(r);
      },
      reject: (r) => builder.reject(r),
      watchOpened: (f) => builder.watchOpened(f),
    },
  );
  return { report: builder.finish(result), requests };
}

const relists = (report: ImportReport) => report.clients.flatMap((c) => c.relistDetails);

describe('import: one session of several kubectl processes (wait-then-chunk)', () => {
  it('a LIST by another process (klog pid) than the watch that ended is no relist', async () => {
    const { report, requests } = await importSession(['audit.log', 'chunk.log', 'w-refl.log']);
    const list = requests.find((r) =>
      r.sources.some((s) => s.file === 'chunk.log' && s.line === 8),
    );
    assert.ok(list, 'the chunked LIST is imported');
    assert.strictEqual(list.clientProcess, 'chunk.log pid 3054');
    const watch = requests.find((r) =>
      r.sources.some((s) => s.file === 'audit.log' && s.line === 41),
    );
    assert.ok(watch, 'the wait watch is imported');
    assert.strictEqual(
      watch.clientProcess,
      'w-refl.log pid 2996',
      'the watch joined its client log',
    );
    assert.deepStrictEqual(
      relists(report).filter((r) => r.line === 'chunk.log:8'),
      [],
      "the chunked LIST of pid 3054 is not a relist of pid 2996's watch",
    );
    assert.match(report.rules.relist, /the same process: klog's pid/);
  });

  it('a relist whose watch and request one process logged says it rests on that process', async () => {
    const { report } = await importSession(['audit.log', 'chunk.log', 'w-refl.log', 'w-wl33.log']);
    const found = relists(report);
    assert.deepStrictEqual(
      found.map((r) => [r.via, r.watchLine, r.line, r.process]),
      [['watch-list', 'audit.log:87', 'audit.log:90', 'w-wl33.log pid 2997']],
    );
    assert.strictEqual(relistClientText(found[0]), 'same process (w-wl33.log pid 2997)');
  });

  it('with the audit log alone (no process known) the rule is the user agent and user, as it says', async () => {
    const { report } = await importSession(['audit.log']);
    const lists = relists(report).filter((r) => r.via === 'list');
    assert.strictEqual(lists.length, 1, JSON.stringify(relists(report)));
    assert.strictEqual(lists[0].watchLine, 'audit.log:41');
    assert.strictEqual(lists[0].process, undefined);
    assert.match(relistClientText(lists[0]), /^same user agent and user \(no client log/);
  });

  it("joined client logs leave the latency figures the server's stage timestamps, as the heading says", async () => {
    const alone = await importSession(['audit.log']);
    const joined = await importSession(['audit.log', 'chunk.log', 'w-refl.log']);
    // The same requests (every client record joined its audit event): the same figures.
    assert.strictEqual(joined.report.requests.total, alone.report.requests.total);
    assert.deepStrictEqual(joined.report.latencyMs, alone.report.latencyMs);
    const list = joined.requests.find((r) =>
      r.sources.some((s) => s.file === 'chunk.log' && s.line === 8),
    );
    assert.ok(list?.stageLatencyMs !== undefined, 'the chunked LIST keeps its audit latency');
  });
});
