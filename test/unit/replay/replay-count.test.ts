// Tests for src/run/views/replay-count.ts: a replayed import says one count everywhere (the
// import's status text from its ReplaySummary, the phase text, the Replay tab from the run model),
// and a disagreement its own seeding explains is said as that, not blamed on the apiserver.
import * as assert from 'assert';
import * as path from 'path';
import { importFiles } from '../../../src/import/import-files';
import type { ImportedRequest } from '../../../src/run/imported-request';
import { replayToModel } from '../../../src/replay/replay-import';
import { replaySummaryText, type ReplayOptions } from '../../../src/replay/replay-options';
import { replayPanel } from '../../../src/extension/panel/replay-panel';
import { replaySummaryLines } from '../../../src/cli/import-replay-options';
import {
  replayCountOf,
  replayCountText,
  type ReplayCount,
} from '../../../src/run/views/replay-count';

const fixtures = path.resolve(__dirname, '../../../../test/fixtures/import');

async function imported(files: string[]): Promise<ImportedRequest[]> {
  const requests: ImportedRequest[] = [];
  await importFiles(
    files.map((f) => ({ path: path.join(fixtures, f), name: f })),
    { signal: new AbortController().signal, onProgress: () => undefined },
    { request: (r) => requests.push(r), reject: () => undefined },
  );
  return requests;
}

describe('replay count', () => {
  // `seeding`: what the text says of a LIST the replay seeded too few objects for.
  const cases: Array<{
    name: string;
    files: string[];
    whatIf?: Partial<ReplayOptions>;
    seeding?: RegExp;
  }> = [
    { name: 'kubectl chunked audit log', files: ['kubectl-chunked-audit.log'] },
    {
      name: 'kubectl -v=6 joined to its audit log',
      files: ['session-kubectl-1.27-v6.log', 'session-v6-audit.log'],
    },
    { name: 'client-go 1.27 -v=6 with a 410', files: ['client-go-1.27-v6-expired.log'] },
    {
      name: 'what-if WatchList and a small watch cache',
      files: ['client-go-1.27-v6-expired.log'],
      whatIf: { watchList: true, watchCacheSize: 10 },
    },
    {
      // Table bodies (no items): a full page with a token proves its limit and its
      // remainingItemCount more (pods?limit=2: remainingItemCount 3, so at least 5): the replay
      // seeds that many, and re-creates the 410 Expired of the chain the log shows broken.
      name: 'kubectl 1.33 -v=8',
      files: ['kubectl-1.33-v8.log'],
      seeding:
        /^11 requests re-issued and compared with the log: the engine agrees with every one$/,
    },
  ];
  for (const c of cases) {
    it(`one count on every face: ${c.name}`, async () => {
      const requests = await imported(c.files);
      const { model, summary } = await replayToModel(requests, {
        profile: '1.36',
        seed: 1,
        files: c.files,
        ...c.whatIf,
      });
      const tab = replayPanel(model);
      assert.ok(tab, `${c.name}: a replayed import has a Replay tab`);
      const count = replayCountOf(model);
      assert.deepStrictEqual(tab.count, count, `${c.name}: the tab's count is the model's`);
      assert.deepStrictEqual(
        [summary.replayed, summary.compared, summary.disagreements],
        [count.reissued, count.compared, count.disagreements],
        `${c.name}: the summary's count is the model's`,
      );
      assert.ok(count.reissued > 0, `${c.name}: something was re-issued`);
      assert.ok(
        replaySummaryText(summary).startsWith(replayCountText(count)),
        `${c.name}: the status text says the tab's count: ${replaySummaryText(summary)}`,
      );
      assert.strictEqual(
        replaySummaryLines('1.36', summary)[0],
        `Replay (1.36): ${replaySummaryText(summary)}`,
        `${c.name}: the CLI's replay line says the same count in the same words`,
      );
      if (c.seeding) assert.match(replaySummaryText(summary), c.seeding, c.name);
      if (c.whatIf)
        for (const text of [replaySummaryText(summary), replayCountText(count)])
          assert.doesNotMatch(
            text,
            /apiserver|worth a look/,
            `${c.name}: a what-if blames no apiserver: ${text}`,
          );
      for (const p of model.phases ?? [])
        assert.ok(
          !/re-issued/.test(p.text),
          `${c.name}: the phase text names no other re-issued count: ${p.text}`,
        );
    });
  }

  it('a LIST whose log answer had more objects than seeded names the seeding, not the apiserver', async () => {
    const t0 = Date.UTC(2025, 2, 12, 10, 15, 0);
    const request: ImportedRequest = {
      id: 'v8-1',
      sources: [{ file: 'kubectl.log', line: 1, format: 'kubectl' }],
      verb: 'list',
      requestURI: '/api/v1/pods',
      userAgent: 'kubectl/v1.33.0',
      receivedAt: t0,
      completedAt: t0 + 40,
      startInFile: true,
      endInFile: true,
      code: 200,
      response: { items: 1200, resourceVersion: '900' },
    };
    // Seeded with fewer objects than the log's answer had (the count given, as a replay is asked).
    const { model, summary } = await replayToModel([request], {
      profile: '1.36',
      seed: 1,
      objects: { pods: 9 },
    });
    const count = replayCountOf(model);
    assert.deepStrictEqual(count.seedingShort, [{ seeded: 9, logged: 1200, atLeast: false }]);
    assert.deepStrictEqual(summary.seedingShort, count.seedingShort);
    for (const text of [replaySummaryText(summary), replayCountText(replayPanel(model)!.count)]) {
      assert.match(
        text,
        /the replay seeded 9 objects; the log's answer had 1,200: the replay cannot reproduce it/,
      );
      assert.doesNotMatch(text, /apiserver|worth a look/, text);
    }
  });

  const texts: Array<{ name: string; count: ReplayCount; text: string }> = [
    {
      name: 'all compared, all agree',
      count: { reissued: 4, compared: 4, disagreements: 0, seedingShort: [] },
      text: '4 requests re-issued and compared with the log: the engine agrees with every one',
    },
    {
      name: 'writes are re-issued, not compared',
      count: { reissued: 26, compared: 18, disagreements: 1, seedingShort: [] },
      text: '26 requests re-issued, 18 of them compared with the log: 1 disagrees. A real apiserver disagreeing with the model is worth a look either way',
    },
    {
      name: 'every disagreement is the seeding',
      count: {
        reissued: 3,
        compared: 3,
        disagreements: 2,
        seedingShort: [
          { seeded: 9, logged: 500, atLeast: false },
          { seeded: 9, logged: 1200, atLeast: false },
        ],
      },
      text: "3 requests re-issued and compared with the log: 2 disagree, all because the replay seeded 9 objects; the log's answer had 1,200 (the widest gap): the replay cannot reproduce them",
    },
    {
      name: 'some disagreements are the seeding',
      count: {
        reissued: 3,
        compared: 3,
        disagreements: 2,
        seedingShort: [{ seeded: 1, logged: 3, atLeast: true }],
      },
      text: "3 requests re-issued and compared with the log: 2 disagree; 1 of them because the replay seeded 1 object; the log's answer proves at least 3: the replay cannot reproduce it. The other 1 is worth a look: a real apiserver disagreeing with the model",
    },
    {
      // A what-if replays under settings the log's cluster did not have: its differences are what
      // the what-if changed, not an apiserver disagreeing with the model.
      name: 'a what-if differs from the log',
      count: {
        reissued: 24,
        compared: 18,
        disagreements: 1,
        seedingShort: [],
        whatIf: 'watchCacheSize=1000, watchList=true',
      },
      text: "24 requests re-issued, 18 of them compared with the log: 1 differs from it, as a what-if's answers may: the replay ran with watchCacheSize=1000, watchList=true, not as the log's cluster did",
    },
    {
      name: 'a what-if: some differences are the seeding',
      count: {
        reissued: 3,
        compared: 3,
        disagreements: 2,
        seedingShort: [{ seeded: 1, logged: 3, atLeast: true }],
        whatIf: 'profile 1.37',
      },
      text: "3 requests re-issued and compared with the log: 2 differ from it; 1 of them because the replay seeded 1 object; the log's answer proves at least 3: the replay cannot reproduce it. The other 1, as a what-if's answers may: the replay ran with profile 1.37, not as the log's cluster did",
    },
  ];
  for (const c of texts)
    it(`in words: ${c.name}`, () => assert.strictEqual(replayCountText(c.count), c.text, c.name));
});
