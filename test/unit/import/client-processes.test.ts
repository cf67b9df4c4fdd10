// The import of client logs alone, no audit log (test/fixtures/import/client-only: real kubectl
// `wait --for=delete pod/… --timeout` runs against `listwatch serve`, one process per file):
// 1.35 -v=6 and -v=8 list-watch reflectors, a 1.33 WatchList (KUBE_FEATURE_WatchListClient=true)
// and a 1.30 -v=6 (printf). Each process (klog's pid in its file) is a client of its own; a watch
// its reflector stopped (`Stopping reflector`, when kubectl wait timed out) ended there.
import * as assert from 'assert';
import { readFileSync } from 'fs';
import { join } from 'path';
import { ImportReportBuilder } from '../../../src/import/import-report';
import { importFiles } from '../../../src/import/import-files';
import { renderImportReport } from '../../../src/cli/import-report-text';
import type { ImportReport } from '../../../src/run/import-report';
import { importedClientName } from '../../../src/run/views/client-name';

const dir = join(__dirname, '../../../../test/fixtures/import/client-only');

const v6 = 'wait-1.35-v6.log';
const v8 = 'wait-1.35-v8.log';
const wl = 'wait-watchlist-1.33-v6.log';
const printf = 'wait-1.30-v6.log';
const ua35 = 'kubectl/v1.35.2 (linux/amd64) kubernetes/fdc9d74';

async function importClientLogs(names: readonly string[]): Promise<ImportReport> {
  const builder = new ImportReportBuilder();
  const result = await importFiles(
    names.map((name) => ({ path: join(dir, name), name })),
    { year: 2026 },
    {
      request: (r) => builder.request(r),
      reject: (r) => builder.reject(r),
      watchOpened: (f) => builder.watchOpened(f),
    },
  );
  return builder.finish(result);
}

describe('import: client logs alone, one client per process', () => {
  // [name, mode, LISTs, WATCHes, WatchList WATCHes, requests]
  type ClientRow = [string, string, number, number, number, number];
  const cases: { name: string; files: string[]; clients: ClientRow[] }[] = [
    {
      name: 'four kubectl processes are four clients',
      files: [v6, wl, v8, printf],
      clients: [
        [`${ua35} · ${v8} pid 10425`, 'list-watch', 1, 1, 0, 4],
        [`${printf} pid 11085`, 'list-watch', 1, 1, 0, 6],
        [`${v6} pid 10326`, 'list-watch', 1, 1, 0, 4],
        [`${wl} pid 10392`, 'watch-list', 0, 1, 1, 3],
      ],
    },
    {
      name: 'a -v=6 reflector and a WatchList are not one "watch-list+list" client',
      files: [v6, wl],
      clients: [
        [`${v6} pid 10326`, 'list-watch', 1, 1, 0, 4],
        [`${wl} pid 10392`, 'watch-list', 0, 1, 1, 3],
      ],
    },
  ];
  for (const tc of cases)
    it(tc.name, async () => {
      const report = await importClientLogs(tc.files);
      const got: ClientRow[] = report.clients
        .map((c): ClientRow => [
          importedClientName(c),
          c.mode,
          c.lists,
          c.watches,
          c.watchLists,
          c.requests,
        ])
        .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      assert.deepStrictEqual(got, tc.clients);
      const text = renderImportReport(report);
      assert.match(text, new RegExp(`^Clients \\(${tc.clients.length}\\):$`, 'm'));
      assert.doesNotMatch(text, /\(none\)/, 'no client goes unnamed');
      for (const c of report.clients)
        assert.ok(c.process && text.includes(c.process), `${c.process} is in the text`);
    });
});

describe('import: a watch its reflector stopped ended at the stop line', () => {
  const cases: {
    file: string;
    how: string;
    /** The line the watch ended on. */
    endLine: number;
    text: RegExp;
  }[] = [
    // Structured (0.33+) "Stopping reflector" after the client's context deadline.
    { file: v6, how: 'client-closed', endLine: 9, text: /^Stopping reflector \(.+:9\)/ },
    { file: v8, how: 'client-closed', endLine: 39, text: /^Stopping reflector \(.+:39\)/ },
    // printf (0.30): `Stopping reflector *unstructured.Unstructured (0s) from …`.
    { file: printf, how: 'client-closed', endLine: 10, text: /^Stopping reflector \(.+:10\)/ },
    // The WatchList watch had ended already (`Watch close`, `Failed to watch`) before the stop.
    { file: wl, how: 'early', endLine: 9, text: /^Watch close/ },
  ];
  for (const tc of cases)
    it(`${tc.file}: ${tc.how}`, async () => {
      const report = await importClientLogs([tc.file]);
      assert.strictEqual(report.watches.openAtEnd, 0, 'no watch is open at the end');
      const [w] = report.clients.flatMap((c) => c.watchSamples);
      assert.ok(w, 'the watch is kept');
      assert.strictEqual(w.how, tc.how);
      assert.match(w.text ?? '', tc.text);
      assert.notStrictEqual(w.endedAt, null);
      assert.notStrictEqual(w.durationSeconds, null);
      const endLine = readFileSync(join(dir, tc.file), 'utf8').split('\n')[tc.endLine - 1];
      assert.ok(
        endLine.includes(new Date(w.endedAt ?? 0).toISOString().slice(11, 23)),
        `ended at line ${tc.endLine}: ${endLine}`,
      );
    });
});
