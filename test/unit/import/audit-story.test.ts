// The import end to end on an audit log with a known story (test/harness/audit-story.ts): the real
// reader and merger (importFiles) feeding the real analysis (ImportReportBuilder), and the facts
// it finds compared with the facts the story was written with.
import type { ImportReport } from '../../../src/run/import-report';
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { importFiles } from '../../../src/import/import-files';
import { ImportReportBuilder } from '../../../src/import/import-report';
import { auditStory } from '../../harness/audit-story';

describe('import: an audit log with a known story', () => {
  const story = auditStory();
  let report: ImportReport;
  let dir: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-story-'));
    const file = path.join(dir, 'audit.log');
    fs.writeFileSync(file, story.lines.join('\n') + '\n');
    const builder = new ImportReportBuilder();
    const totals = await importFiles([{ path: file, name: 'audit.log' }], {}, builder);
    report = builder.finish(totals);
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const client = (ua: string) => {
    const c = report.clients.find((x) => x.userAgent === ua);
    assert.ok(c, `no client ${ua} in ${report.clients.map((x) => x.userAgent).join(', ')}`);
    return c;
  };

  it('reads every event and rejects none', () => {
    assert.strictEqual(report.lines, story.facts.events);
    assert.strictEqual(report.rejected.count, 0, JSON.stringify(report.rejected.samples));
  });

  it('finds every client that lists or watches', () => {
    const listers = report.clients
      .filter((c) => c.lists + c.watches > 0)
      .map((c) => c.userAgent)
      .sort();
    assert.deepStrictEqual(listers, story.facts.listWatchClients);
  });

  it('finds the backup chain broken by a 410 Expired, and its restart', () => {
    const { userAgent, path: p, brokenPages, restartPages } = story.facts.backup;
    const chains = client(userAgent).paginationChains.filter((c) => c.path === p);
    assert.strictEqual(chains.length, 2, JSON.stringify(chains));
    const [broken, restart] = chains;
    assert.strictEqual(broken.pages, brokenPages);
    assert.strictEqual(broken.outcome, 'expired');
    assert.strictEqual(broken.expired?.page, brokenPages - 1, '0-based');
    assert.strictEqual(broken.codes[brokenPages - 1], 410);
    assert.strictEqual(restart.pages, restartPages);
    assert.strictEqual(restart.complete, true);
    assert.strictEqual(restart.completeKnown, true, 'the last page’s ListMeta has no continue');
    assert.strictEqual(restart.restartOf?.chain, broken.id);
    assert.strictEqual(broken.resourceVersion, '48100');
    assert.strictEqual(restart.resourceVersion, '49500');
  });

  it('counts each relist, and calls the operator’s a storm', () => {
    for (const [ua, n] of Object.entries(story.facts.relists))
      assert.strictEqual(client(ua).relists, n, ua);
    const others = report.clients.filter((c) => !(c.userAgent in story.facts.relists));
    assert.deepStrictEqual(
      others.filter((c) => c.relists > 0).map((c) => `${c.userAgent}: ${c.relists}`),
      [],
    );
    const storms = report.storms.filter((s) => s.kind === 'client');
    assert.deepStrictEqual(
      storms.map((s) => s.userAgent),
      [story.facts.stormUserAgent],
    );
    assert.strictEqual(storms[0].relists, story.facts.relists[story.facts.stormUserAgent]);
  });

  it('tells the WatchList client from the LIST+WATCH ones', () => {
    assert.strictEqual(client(story.facts.watchListUserAgent).mode, 'watch-list');
    for (const ua of story.facts.listWatchClients)
      if (ua !== story.facts.watchListUserAgent && client(ua).watches > 0)
        assert.strictEqual(client(ua).mode, 'list-watch', ua);
  });

  it('counts the 429s and 504s of the consistent LISTs', () => {
    assert.strictEqual(client(story.facts.http429.userAgent).http429, story.facts.http429.count);
    assert.strictEqual(client(story.facts.http504.userAgent).http504, story.facts.http504.count);
  });

  it('counts the watches outside the log instead of guessing their durations', () => {
    assert.strictEqual(report.watches.startedBeforeLog, story.facts.watchesStartedBeforeLog);
    assert.strictEqual(report.watches.openAtEnd, story.facts.watchesOpenAtEnd);
    const measured = report.clients.reduce((n, c) => n + c.watchDurationsSeconds.count, 0);
    assert.strictEqual(
      measured,
      report.watches.total - story.facts.watchesStartedBeforeLog - story.facts.watchesOpenAtEnd,
    );
  });
});
