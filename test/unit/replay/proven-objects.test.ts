// Tests for src/replay/proven-objects.ts and replay-chains.ts: the replay seeds the fewest objects
// the log proves, says which proof it rests on, replays interleaved chains page by page, and never
// says "agrees" where it cannot reproduce the log (issue #24 item 13). The fixture is a
// Metadata-level audit log: three `kubectl get --chunk-size=500` of 1,200 pods (3 pages each, all
// at one RV) interleaved with another client's LISTs; no response bodies.
import * as assert from 'assert';
import * as path from 'path';
import { importFiles } from '../../../src/import/import-files';
import type { ImportedRequest } from '../../../src/run/imported-request';
import { replayToModel } from '../../../src/replay/replay-import';
import { replaySummaryText } from '../../../src/replay/replay-options';
import { replayPanel } from '../../../src/extension/panel/replay-panel';
import { replayCountText } from '../../../src/run/views/replay-count';

const fixtures = path.resolve(__dirname, '../../../../test/fixtures/import');

async function chunkedAudit(): Promise<ImportedRequest[]> {
  const requests: ImportedRequest[] = [];
  await importFiles(
    [{ path: path.join(fixtures, 'kubectl-chunked-audit.log'), name: 'audit.log' }],
    { signal: new AbortController().signal, onProgress: () => undefined },
    { request: (r) => requests.push(r), reject: () => undefined },
  );
  return requests;
}

const kubectl = /^kubectl\//;

describe('proven objects: three kubectl --chunk-size=500 lists of 1,200 pods (Metadata audit)', () => {
  it('seeds the fewest pods the log proves (2 full pages at limit=500 and more), and says so', async () => {
    const { summary } = await replayToModel(await chunkedAudit(), { profile: '1.36', seed: 1 });
    const pods = summary.seeded.find((s) => s.resource === 'pods');
    assert.ok(pods, 'pods are seeded');
    assert.strictEqual(pods.objects, 1001, pods.text);
    assert.strictEqual(pods.from, 'inferred');
    assert.match(pods.text, /an assumption: the fewest the log proves/, pods.text);
    assert.match(
      pods.text,
      /2 pages of a 3-page chain answered with a continue token at limit=500, so each was full and etcd held at least one more \(audit\.log:\d+\)/,
      pods.text,
    );
  });

  it("replays each of the three interleaved chains page by page with the engine's own tokens", async () => {
    const { model, summary } = await replayToModel(await chunkedAudit(), {
      profile: '1.36',
      seed: 1,
    });
    assert.deepStrictEqual(summary.skipped, {}, 'no page is skipped');
    const pages = model.lists.filter((l) => kubectl.test(l.client ?? ''));
    assert.strictEqual(pages.length, 9, 'three chains of three pages');
    // Pages 1 and 2 of each chain came back with a token (the next page proves it), page 3 without.
    assert.deepStrictEqual(
      pages.map((l) => [l.returned, Boolean(l.continue)]),
      [
        [500, true],
        [500, true],
        [500, true],
        [1, false],
        [500, true],
        [1, false],
        [500, true],
        [500, true],
        [1, false],
      ],
    );
    assert.strictEqual(summary.disagreements, 0, replaySummaryText(summary));
  });

  it('seeded fewer than the log proves: it says what it cannot reproduce and why, never "agrees"', async () => {
    const { model, summary } = await replayToModel(await chunkedAudit(), {
      profile: '1.36',
      seed: 1,
      objects: { pods: 9 },
    });
    const first = model.lists.find((l) => kubectl.test(l.client ?? ''));
    assert.strictEqual(
      first?.logged?.continue,
      true,
      "the next page's token proves page 1 had one",
    );
    assert.deepStrictEqual(first?.disagrees, ['continue']);
    for (const text of [replaySummaryText(summary), replayCountText(replayPanel(model)!.count)]) {
      assert.doesNotMatch(text, /agrees with every one/, text);
      assert.match(
        text,
        /the replay seeded 9 objects; the log's answer proves at least 501 \(the widest gap\): the replay cannot reproduce them/,
        text,
      );
    }
  });
});
