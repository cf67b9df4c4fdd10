// The pure parts of `listwatch conform`: the --json report's exact shape and counts, the text
// report's rows, grouping and failures, and the readers of what a server sent (a bookmark's
// object, a continue token, a resource name). No upstream counterpart.
import * as assert from 'assert';
import {
  checkId,
  conformReport,
  resultOf,
  type CheckDefinition,
} from '../../../src/conform/conform-check';
import { conformReportText } from '../../../src/conform/conform-report-text';
import { conformReportMarkdown } from '../../../src/conform/conform-report-markdown';
import { bookmarkExtras } from '../../../src/conform/watch-checks';
import { decodeContinueToken } from '../../../src/conform/list-checks';
import { splitResourceName } from '../../../src/conform/discovery-check';

const def = (id: string): CheckDefinition => ({
  id,
  title: `title of ${id}`,
  rule: `rule of ${id}`,
  impact: `impact of ${id}`,
});

describe('listwatch conform report', () => {
  const checks = [
    resultOf(def('watch.bookmarks'), 'fail', 'a BOOKMARK', 'no BOOKMARK in 5.0 s'),
    resultOf(def('list.paging'), 'pass', 'pages', '3 pages'),
    resultOf(def('discovery.resource'), 'pass', 'listed', 'listed'),
    resultOf(def('list.expired-continue'), 'skip', '410', 'needs writes: read-only'),
  ];
  const report = conformReport('https://127.0.0.1:6443', checks);

  it('--json: exactly {server, checks:[{id,title,status,rule,expected,got,impact}], passed, failed, skipped}', () => {
    assert.deepStrictEqual(JSON.parse(JSON.stringify(report)), {
      server: 'https://127.0.0.1:6443',
      checks: checks.map((c) => ({
        id: c.id,
        title: c.title,
        status: c.status,
        rule: c.rule,
        expected: c.expected,
        got: c.got,
        impact: c.impact,
      })),
      passed: 2,
      failed: 1,
      skipped: 1,
    });
    assert.deepStrictEqual(Object.keys(report.checks[0]), [
      'id',
      'title',
      'status',
      'rule',
      'expected',
      'got',
      'impact',
    ]);
  });

  it('text: a row per check grouped by family in battery order, the counts, then the failures', () => {
    assert.deepStrictEqual(conformReportText(report), [
      'listwatch conform: https://127.0.0.1:6443',
      '',
      'DISCOVERY',
      '  pass  discovery.resource     title of discovery.resource',
      '',
      'LIST',
      '  pass  list.paging            title of list.paging',
      '  skip  list.expired-continue  title of list.expired-continue (skipped: needs writes: read-only)',
      '',
      'WATCH',
      '  fail  watch.bookmarks        title of watch.bookmarks',
      '',
      '2 passed, 1 failed, 1 skipped',
      '',
      'Failures',
      '',
      '  watch.bookmarks: title of watch.bookmarks',
      '    rule:     rule of watch.bookmarks',
      '    expected: a BOOKMARK',
      '    got:      no BOOKMARK in 5.0 s',
      '    impact:   impact of watch.bookmarks',
    ]);
  });

  it('markdown: a table row per check, pipes escaped, then the failures', () => {
    const md = conformReportMarkdown(
      conformReport('https://x', [
        ...checks,
        resultOf(def('format.table-list'), 'pass', 'a Table', 'Table | 3 rows'),
      ]),
    ).split('\n');
    assert.deepStrictEqual(md.slice(0, 11), [
      '# List/Watch conformance of https://x',
      '',
      '3 passed, 1 failed, 1 skipped',
      '',
      '| status | check | title | got |',
      '|---|---|---|---|',
      '| ❌ fail | `watch.bookmarks` | title of watch.bookmarks | no BOOKMARK in 5.0 s |',
      '| ✅ pass | `list.paging` | title of list.paging | 3 pages |',
      '| ✅ pass | `discovery.resource` | title of discovery.resource | listed |',
      '| ➖ skip | `list.expired-continue` | title of list.expired-continue | needs writes: read-only |',
      '| ✅ pass | `format.table-list` | title of format.table-list | Table \\| 3 rows |',
    ]);
    assert.deepStrictEqual(md.slice(12, 20), [
      '## Failures',
      '',
      '### `watch.bookmarks`: title of watch.bookmarks',
      '',
      '- **rule:** rule of watch.bookmarks',
      '- **expected:** a BOOKMARK',
      '- **got:** no BOOKMARK in 5.0 s',
      '- **impact:** impact of watch.bookmarks',
    ]);
  });

  it('ids carry the resource only when several are graded', () => {
    assert.strictEqual(checkId('list.paging', 'pods', false), 'list.paging');
    assert.strictEqual(checkId('list.paging', 'pods', true), 'list.paging[pods]');
  });

  const bookmarks: [string, Record<string, unknown>, string[]][] = [
    [
      'a ConfigMap bookmark',
      {
        kind: 'ConfigMap',
        apiVersion: 'v1',
        metadata: { resourceVersion: '12', creationTimestamp: null },
      },
      [],
    ],
    [
      "a Pod bookmark: Go's empty spec and status",
      {
        kind: 'Pod',
        apiVersion: 'v1',
        metadata: { resourceVersion: '12', creationTimestamp: null },
        spec: { containers: null },
        status: {},
      },
      [],
    ],
    [
      'the initial-events-end annotation',
      {
        kind: 'Pod',
        apiVersion: 'v1',
        metadata: { resourceVersion: '12', annotations: { 'k8s.io/initial-events-end': 'true' } },
      },
      [],
    ],
    [
      'a whole object',
      {
        kind: 'ConfigMap',
        apiVersion: 'v1',
        metadata: { name: 'a', resourceVersion: '12' },
        data: { a: '1' },
      },
      ['metadata.name', 'data'],
    ],
  ];
  for (const [name, obj, extras] of bookmarks)
    it(`bookmark object: ${name}`, () => assert.deepStrictEqual(bookmarkExtras(obj), extras));

  it('reads a continue token and a resource name', () => {
    const token = Buffer.from('{"v":"meta.k8s.io/v1","rv":12,"start":"a\\u0000"}').toString(
      'base64url',
    );
    assert.deepStrictEqual(decodeContinueToken(token), {
      v: 'meta.k8s.io/v1',
      rv: 12,
      start: 'a\u0000',
    });
    assert.strictEqual(decodeContinueToken('%%%'), undefined);
    assert.deepStrictEqual(splitResourceName('pods'), { group: '', plural: 'pods' });
    assert.deepStrictEqual(splitResourceName('deployments.apps'), {
      group: 'apps',
      plural: 'deployments',
    });
  });
});
