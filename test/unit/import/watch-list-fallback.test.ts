// A WatchList watch that ended with an error before its initial events did (client-go's
// reflector.go `The watchlist request ended with an error, falling back to the standard LIST/WATCH
// semantics …`, dynamic/simple.go's `The watchlist request for R ended with an error, falling back
// to the standard LIST semantics, err = …`) was the client's list: the LIST that follows, in the
// same ListAndWatch, is its first list, not a relist (as the live run counts it). Recorded: kubectl
// 1.33 -v=8 wait with WatchListClient on, against a server on etcd 3.4.23 (no
// RequestWatchProgress), with and without the server's audit log.
import type { ImportReport } from '../../../src/run/import-report';
import type { ImportedRequest } from '../../../src/run/imported-request';
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { importFiles } from '../../../src/import/import-files';
import { ImportReportBuilder } from '../../../src/import/import-report';
import { withTempFiles } from './import-harness';

const fixtures = path.resolve(__dirname, '../../../../test/fixtures/import');
const clientLog = 'kubectl-1.33-v8-wait-watchlist-etcd-3.4.log';
const auditLog = 'etcd-3.4-wait-watchlist-audit.log';

async function imported(names: string[]): Promise<{ rep: ImportReport; reqs: ImportedRequest[] }> {
  const files = names.map((name) => ({
    name,
    content: fs.readFileSync(path.join(fixtures, name), 'utf8'),
  }));
  return withTempFiles(files, async (paths) => {
    const builder = new ImportReportBuilder();
    const reqs: ImportedRequest[] = [];
    const totals = await importFiles(
      paths.map((p, i) => ({ path: p, name: names[i] })),
      {},
      {
        request: (r) => {
          reqs.push(r);
          builder.request(r);
        },
        reject: (r) => builder.reject(r),
      },
    );
    return { rep: builder.finish(totals), reqs };
  });
}

describe('import: a WatchList watch that fell back to LIST was the list, not a watch relisted after', () => {
  const cases: Array<{ name: string; files: string[] }> = [
    { name: 'the client log alone', files: [clientLog] },
    { name: 'the client log joined to the audit log', files: [auditLog, clientLog] },
  ];
  for (const c of cases)
    it(c.name, async () => {
      const { rep, reqs } = await imported(c.files);
      const kubectl = rep.clients.find((x) => x.userAgent.startsWith('kubectl.1.33'));
      assert.strictEqual(kubectl?.relists, 0, JSON.stringify(kubectl?.relistDetails));
      const fellBack = reqs
        .filter((r) => r.watchEnd?.beforeInitialEvents)
        .map((r) => `${r.watchEnd?.source.file}:${r.watchEnd?.source.line} ${r.watchEnd?.message}`);
      const err =
        'a watch stream was requested by the client but the required storage feature RequestWatchProgress is disabled';
      assert.deepStrictEqual(fellBack, [`${clientLog}:65 ${err}`, `${clientLog}:83 ${err}`]);
    });
});
