// Tests for the year klog timestamps (`I0312 10:15:07`, no year) are read in: src/import/
// nearest-year.ts and its use in src/import/import-files.ts. Beside a file whose times carry their
// year (an audit log), a klog file takes the year nearest that file's first date, whatever the
// files' modification times say; --year still wins; alone, a klog file keeps its modification year.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { importFiles, type ImportOptions } from '../../../src/import/import-files';
import { nearestYear } from '../../../src/import/nearest-year';
import { klogTimeIn } from '../../../src/import/klog-entry';
import type { ImportedRequest } from '../../../src/run/imported-request';
import { jsonLines, withTempFiles, type TextFile } from './import-harness';

const fixtures = path.resolve(__dirname, '../../../../test/fixtures');

/** An audit event of request `id`, received and completed at `iso`. */
function auditEvent(id: string, iso: string): unknown {
  return {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'Metadata',
    auditID: id,
    stage: 'ResponseComplete',
    requestURI: '/api/v1/pods?limit=500',
    verb: 'list',
    user: { username: 'alice' },
    userAgent: 'kubectl/v1.33.1',
    objectRef: { resource: 'pods', apiVersion: 'v1' },
    responseStatus: { metadata: {}, code: 200 },
    requestReceivedTimestamp: iso,
    stageTimestamp: iso,
  };
}

/** An httplog line (klog header, no year) for audit ID `id` at `mmdd hh:mm:ss`. */
function httplog(id: string, klogTime: string): string {
  return `I${klogTime}.000000       1 httplog.go:134] "HTTP" verb="LIST" URI="/api/v1/pods?limit=500" latency="2ms" userAgent="kubectl/v1.33.1" audit-ID="${id}" srcIP="10.0.0.9:5555" resp=200\n`;
}

/** Imports the files with each one's modification time set to `mtimes[i]` (ISO). */
async function importWithMtimes(
  files: readonly TextFile[],
  mtimes: readonly string[],
  options: ImportOptions = {},
) {
  return withTempFiles(files, async (paths) => {
    paths.forEach((p, i) => {
      const t = new Date(mtimes[i]);
      fs.utimesSync(p, t, t);
    });
    const requests: ImportedRequest[] = [];
    const result = await importFiles(
      paths.map((p, i) => ({ path: p, name: files[i].name })),
      options,
      { request: (r) => requests.push(r), reject: () => undefined },
    );
    return { result, requests };
  });
}

const fixture = (name: string): TextFile => ({
  name,
  content: fs.readFileSync(path.join(fixtures, name)),
});

describe('import: the year of klog timestamps', () => {
  it('nearestYear: the year nearest a reference date, 29 February only in a leap year', () => {
    const cases: Array<{ name: string; line: string; reference: string; want: number }> = [
      { name: 'same day', line: 'I0312 10:15:07.0', reference: '2025-03-12T10:15:03Z', want: 2025 },
      { name: 'new year', line: 'I1231 23:59:58.0', reference: '2026-01-01T00:00:01Z', want: 2025 },
      { name: 'old year', line: 'I0101 00:00:01.0', reference: '2025-12-31T23:59:58Z', want: 2026 },
      { name: 'leap day', line: 'I0229 12:00:00.0', reference: '2025-03-01T00:00:00Z', want: 2024 },
    ];
    for (const c of cases) {
      const text = `${c.line}00000       1 httplog.go:134] "HTTP"`;
      assert.strictEqual(
        nearestYear((y) => klogTimeIn(text, y), Date.parse(c.reference)),
        c.want,
        c.name,
      );
    }
  });

  const cases: Array<{
    name: string;
    files: TextFile[];
    mtimes: string[];
    options?: ImportOptions;
    year: { value: number; from: string };
    /** Every request's first time is in this UTC day. */
    day: string;
    /** Requests seen in both files (joined by audit ID within the merge window). */
    joined?: number;
  }> = [
    {
      // The review's command: the audit log says 2025, the kubectl log was written (cloned) in
      // 2026. Read in its modification year it lands a year after the audit log.
      name: "the review's audit.log and kubectl -v=8 log",
      files: [fixture('audit.log'), fixture('kubectl-v8-1.33.log')],
      mtimes: ['2026-12-07T09:00:00Z', '2026-12-07T09:00:00Z'],
      year: { value: 2025, from: "audit.log's dates" },
      day: '2025-03-12',
    },
    {
      name: 'the klog file listed first',
      files: [fixture('kubectl-v8-1.33.log'), fixture('audit.log')],
      mtimes: ['2026-12-07T09:00:00Z', '2026-12-07T09:00:00Z'],
      year: { value: 2025, from: "audit.log's dates" },
      day: '2025-03-12',
    },
    {
      name: 'an httplog of 31 December beside an audit log of 1 January joins it the day before',
      files: [
        { name: 'audit.log', content: jsonLines([auditEvent('a', '2025-12-31T23:59:58.000000Z')]) },
        { name: 'kube-apiserver.log', content: httplog('a', '1231 23:59:58') },
      ],
      mtimes: ['2026-01-01T00:00:05Z', '2026-01-01T00:00:05Z'],
      year: { value: 2025, from: "audit.log's dates" },
      day: '2025-12-31',
      joined: 1,
    },
    {
      name: '--year wins over the audit log',
      files: [fixture('audit.log'), fixture('kubectl-v8-1.33.log')],
      mtimes: ['2026-12-07T09:00:00Z', '2026-12-07T09:00:00Z'],
      options: { year: 2024 },
      year: { value: 2024, from: '--year' },
      day: '2024-03-12',
    },
    {
      name: 'a klog file alone keeps its modification year',
      files: [fixture('kubectl-v8-1.33.log')],
      mtimes: ['2023-06-01T00:00:00Z'],
      year: { value: 2023, from: 'the modification time of kubectl-v8-1.33.log' },
      day: '2023-03-12',
    },
  ];
  for (const c of cases) {
    it(`reads klog times in the right year: ${c.name}`, async () => {
      const { result, requests } = await importWithMtimes(c.files, c.mtimes, c.options);
      assert.deepStrictEqual(result.assumptions.year, c.year, `${c.name}: the assumption`);
      const klogRequests = requests.filter((r) => r.sources.some((s) => s.file !== 'audit.log'));
      assert.ok(klogRequests.length > 0, `${c.name}: the klog file has requests`);
      for (const r of klogRequests)
        assert.strictEqual(
          new Date(r.receivedAt ?? r.completedAt ?? NaN).toISOString().slice(0, 10),
          c.day,
          `${c.name}: ${r.id} at ${new Date(r.receivedAt ?? r.completedAt ?? NaN).toISOString()}`,
        );
      if (c.joined !== undefined)
        assert.strictEqual(
          requests.filter((r) => new Set(r.sources.map((s) => s.file)).size === 2).length,
          c.joined,
          `${c.name}: requests joined across the files`,
        );
    });
  }
});
