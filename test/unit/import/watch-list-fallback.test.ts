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
import { ImportReportBuilder, explainShapes } from '../../../src/import/import-report';
import { explainRequest } from '../../../src/explain/explain-request';
import { renderImportReport } from '../../../src/cli/import-report-text';
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

// The same log proves the server's etcd lacked RequestWatchProgress: the report's "Served as"
// explains each request shape under that (consistent LISTs from etcd, WatchList refused), not
// under the profile's default etcd, and says where the log proves it.
describe('import: "Served as" is explained under what the log proves of etcd', () => {
  const cases: Array<{ name: string; files: string[]; proven: boolean }> = [
    { name: 'the client log that logged the refusal', files: [clientLog], proven: true },
    { name: 'the audit log alone (it proves nothing of etcd)', files: [auditLog], proven: false },
  ];
  for (const c of cases)
    it(c.name, async () => {
      const { rep } = await imported(c.files);
      assert.strictEqual(rep.etcdProven !== undefined, c.proven, JSON.stringify(rep.etcdProven));
      if (c.proven) assert.match(rep.etcdProven?.at ?? '', new RegExp(`^${clientLog}:\\d+$`));
      await explainShapes(rep, (url, options) =>
        explainRequest(url, { ...options, possibleErrors: false }),
      );
      // The WatchList watch with no resourceVersion: a consistent read from the cache, or the
      // cacher's 500 when etcd lacks RequestWatchProgress.
      const watchList = rep.servedAs.find(
        (s) => /sendInitialEvents=true/.test(s.example) && !/resourceVersion=/.test(s.example),
      );
      assert.ok(watchList?.explained, JSON.stringify(rep.servedAs));
      const e = watchList.explained;
      assert.deepStrictEqual(
        { servedBy: e.servedBy, code: e.errorCode, consistentRead: e.consistentRead },
        c.proven
          ? { servedBy: 'error', code: 500, consistentRead: false }
          : { servedBy: 'cache', code: undefined, consistentRead: true },
        e.rule,
      );
      const text = renderImportReport(rep);
      assert.strictEqual(text.includes('with etcd lacking RequestWatchProgress'), c.proven, text);
    });
});
