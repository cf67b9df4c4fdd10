// Tests for the faults a log proves, in the replay (issue #24 item 17): a 410 Expired on a
// continue page means etcd had compacted past the chain's RV, so the replay compacts there and the
// engine answers 410 too; the log's 429s and 504s are its own faults or overload, which the replay
// does not model: said as that, never as the apiserver disagreeing with the model. The log is the
// audit story (test/harness/audit-story.ts): a backup tool's chain broken by a 410 mid-way, a
// dashboard throttled (429 ×3) and timed out waiting for the cache (504 ×2).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { importFiles } from '../../../src/import/import-files';
import type { ImportedRequest } from '../../../src/run/imported-request';
import type { RunModel } from '../../../src/run/run-model';
import { replayToModel } from '../../../src/replay/replay-import';
import type { ReplaySummary } from '../../../src/replay/replay-options';
import { replaySummaryText } from '../../../src/replay/replay-options';
import { replayPanel } from '../../../src/extension/panel/replay-panel';
import { replayCountText } from '../../../src/run/views/replay-count';
import { auditStory } from '../../harness/audit-story';

describe('replay: the faults the log proves', () => {
  const story = auditStory();
  let model: RunModel;
  let summary: ReplaySummary;
  let dir: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-faults-'));
    const file = path.join(dir, 'audit.log');
    fs.writeFileSync(file, story.lines.join('\n') + '\n');
    const requests: ImportedRequest[] = [];
    await importFiles(
      [{ path: file, name: 'audit.log' }],
      {},
      { request: (r) => requests.push(r), reject: () => undefined },
    );
    ({ model, summary } = await replayToModel(requests, { profile: '1.36', seed: 1 }));
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("a 410 Expired on a continue page: the replay compacts there, and the engine's page is a 410 too", () => {
    const backup = model.lists.filter((l) => l.client === story.facts.backup.userAgent);
    const expired = backup.find((l) => l.logged?.status === 410);
    assert.ok(expired, "the backup's 410 page is re-issued");
    assert.strictEqual(expired.error?.code, 410, "the engine's answer");
    assert.deepStrictEqual(expired.disagrees ?? [], []);
    const fault = model.faults?.find((f) => f.name === 'compaction');
    assert.ok(fault, `the compaction is in the run: ${JSON.stringify(model.faults)}`);
    assert.match(fault.text, /the log's 410 Expired \(audit\.log:\d+\) proves etcd had compacted/);
  });

  it("the log's 429s and 504s are its own faults: not disagreements, said as what the replay does not model", () => {
    const dashboard = model.lists.filter((l) => l.client === story.facts.http429.userAgent);
    const faults = dashboard.filter((l) => l.logged?.status === 429 || l.logged?.status === 504);
    assert.strictEqual(faults.length, story.facts.http429.count + story.facts.http504.count);
    for (const l of faults) {
      assert.deepStrictEqual(l.disagrees ?? [], [], `${l.request}: not a disagreement`);
      assert.strictEqual(l.logged?.notModelled, true, l.request);
    }
    for (const text of [replaySummaryText(summary), replayCountText(replayPanel(model)!.count)]) {
      assert.match(
        text,
        /the log's 3 429s and 2 504s \(faults or overload the replay does not model\)/,
        text,
      );
      assert.doesNotMatch(text, /agrees with every one/, text);
    }
  });
});
