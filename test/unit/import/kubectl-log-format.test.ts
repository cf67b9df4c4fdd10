import * as assert from 'assert';
import { readFileSync } from 'fs';
import { join } from 'path';
import { kubectlLogFormat } from '../../../src/import/kubectl-log-format';
import { decodeContinue } from '../../../src/engine/storage/continue';
import { fixtureDir, fixtureLines, fold, parseLines, summary } from './client-log-fold';

const parse = (lines: string[]) => parseLines(kubectlLogFormat, lines);
const requests = (name: string) => fold(parse(fixtureLines(name)).fragments);

// Each fixture's requests as the fold reads them (verb, path, code; ua: a User-Agent was logged,
// audit-id: an Audit-Id response header, continue: a continue token in the body).
const fixtures: Array<{ file: string; requests: string[] }> = [
  {
    file: 'kubectl-1.20-v6.log',
    requests: [
      'list /api/v1/namespaces/default/pods 200',
      'list /api/v1/namespaces/default/pods 200',
      'list /api/v1/namespaces/default/pods 200',
      'list /api/v1/namespaces/default/pods 200',
      'watch /api/v1/namespaces/default/pods 200',
      'list /api/v1/namespaces/default/pods 410 Expired',
    ],
  },
  {
    file: 'kubectl-1.20-v8.log',
    requests: [
      'list /api/v1/pods 200 ua audit-id continue',
      'list /api/v1/pods 200 ua audit-id continue',
      'list /api/v1/pods 200 ua audit-id',
      'list /api/v1/namespaces/default/pods 200 ua audit-id',
      'get /api 200 ua audit-id',
      'get /apis 200 ua audit-id',
      'get /api/v1 200 ua audit-id',
      'get /apis/stable.example.com/v1 200 ua audit-id',
      'list /api/v1/configmaps 200 ua audit-id continue',
      'list /api/v1/configmaps 200 ua audit-id continue',
      'list /api/v1/configmaps 200 ua audit-id',
      'list /apis/stable.example.com/v1/crontabs 200 ua audit-id continue',
      'list /apis/stable.example.com/v1/crontabs 200 ua audit-id',
      'watch /api/v1/namespaces/default/pods 200 ua audit-id',
    ],
  },
  {
    file: 'kubectl-1.20-v9.log',
    requests: [
      'list /api/v1/namespaces/default/pods 200 ua audit-id continue items=2',
      'list /api/v1/namespaces/default/pods 200 ua audit-id continue items=2',
      'list /api/v1/namespaces/default/pods 200 ua audit-id items=1',
    ],
  },
  {
    file: 'kubectl-1.20-v6-wait.log',
    requests: [
      'get /api/v1/namespaces/default/pods/pod-0 200',
      'list /api/v1/namespaces/default/pods 200',
      'watch /api/v1/namespaces/default/pods 200',
    ],
  },
  {
    file: 'kubectl-1.27-v8.log',
    requests: [
      'list /apis/stable.example.com/v1/namespaces/default/crontabs 200 ua audit-id continue',
      'list /apis/stable.example.com/v1/namespaces/default/crontabs 200 ua audit-id',
      'list /api/v1/namespaces/default/pods 200 ua audit-id',
      'list /api/v1/namespaces/default/pods 410 ua audit-id Expired',
      'watch /api/v1/namespaces/default/pods 200 ua audit-id',
    ],
  },
  {
    file: 'kubectl-1.28-v9.log',
    requests: [
      'list /api/v1/namespaces/default/pods 200 ua audit-id continue items=2',
      'list /api/v1/namespaces/default/pods 200 ua audit-id continue items=2',
      'list /api/v1/namespaces/default/pods 200 ua audit-id items=1',
    ],
  },
  {
    file: 'kubectl-1.29-v8.log',
    requests: [
      'list /api/v1/configmaps 200 ua audit-id continue',
      'list /api/v1/configmaps 200 ua audit-id continue',
      'list /api/v1/configmaps 200 ua audit-id',
      'list /apis/stable.example.com/v1/crontabs 200 ua audit-id continue',
      'list /apis/stable.example.com/v1/crontabs 200 ua audit-id',
    ],
  },
  {
    file: 'kubectl-1.30-v6.log',
    requests: [
      'list /api/v1/namespaces/default/pods 200',
      'list /api/v1/namespaces/default/pods 200',
      'list /api/v1/namespaces/default/pods 200',
      'list /api/v1/namespaces/default/pods 200',
      'watch /api/v1/namespaces/default/pods 200',
    ],
  },
  {
    file: 'kubectl-1.31-v8.log',
    requests: [
      'list /api/v1/pods 200 ua audit-id continue',
      'list /api/v1/pods 200 ua audit-id continue',
      'list /api/v1/pods 200 ua audit-id',
    ],
  },
  {
    file: 'kubectl-1.32-v8.log',
    requests: [
      'list /api/v1/namespaces/default/configmaps 200 ua audit-id continue',
      'list /api/v1/namespaces/default/configmaps 200 ua audit-id continue',
      'list /api/v1/namespaces/default/configmaps 200 ua audit-id',
      'list /api/v1/namespaces/default/pods 410 ua audit-id Expired',
    ],
  },
  {
    file: 'kubectl-1.32-v9.log',
    requests: [
      'list /api/v1/namespaces/default/pods 200 ua audit-id continue items=2',
      'list /api/v1/namespaces/default/pods 200 ua audit-id continue items=2',
      'list /api/v1/namespaces/default/pods 200 ua audit-id items=1',
    ],
  },
  {
    file: 'kubectl-1.33-v6.log',
    requests: [
      'list /api/v1/namespaces/default/pods 200',
      'list /api/v1/namespaces/default/pods 200',
      'list /api/v1/namespaces/default/pods 200',
      'list /api/v1/namespaces/default/pods 200',
      'watch /api/v1/namespaces/default/pods 200',
      'list /api/v1/namespaces/default/pods 410 Expired',
    ],
  },
  {
    file: 'kubectl-1.33-v8.log',
    requests: [
      'list /api/v1/pods 200 ua audit-id continue',
      'list /api/v1/pods 200 ua audit-id continue',
      'list /api/v1/pods 200 ua audit-id',
      'list /api/v1/namespaces/default/pods 200 ua audit-id',
      'watch /api/v1/namespaces/default/pods 200 ua audit-id',
      'list /api/v1/namespaces/default/pods 410 ua audit-id Expired',
      'list /api/v1/configmaps 200 ua audit-id continue',
      'list /api/v1/configmaps 200 ua audit-id continue',
      'list /api/v1/configmaps 200 ua audit-id',
      'list /apis/stable.example.com/v1/crontabs 200 ua audit-id continue',
      'list /apis/stable.example.com/v1/crontabs 200 ua audit-id',
    ],
  },
  {
    file: 'kubectl-1.33-v9.log',
    requests: [
      'list /api/v1/namespaces/default/pods 200 ua audit-id continue items=2',
      'list /api/v1/namespaces/default/pods 200 ua audit-id continue items=2',
      'list /api/v1/namespaces/default/pods 200 ua audit-id items=1',
    ],
  },
];

describe('kubectl -v=6..9 logs (kubectlLogFormat)', () => {
  for (const c of fixtures) {
    it(`${c.file}: every request, with no line rejected`, () => {
      const parsed = parse(fixtureLines(c.file));
      assert.deepStrictEqual(parsed.rejects, [], c.file);
      assert.deepStrictEqual(fold(parsed.fragments).map(summary), c.requests, c.file);
    });
  }

  it("sniffs kubectl's first lines in every version, not an audit event or a shell line", () => {
    for (const c of fixtures) {
      const first = fixtureLines(c.file).find((l) => !l.startsWith('#'))!;
      assert.ok(kubectlLogFormat.sniff(first), c.file);
    }
    assert.ok(!kubectlLogFormat.sniff('{"kind":"Event","apiVersion":"audit.k8s.io/v1"}'));
    assert.ok(!kubectlLogFormat.sniff('$ kubectl get pods -v=8'));
  });

  it("each Audit-Id names the server's audit event of the same request (serve-audit.log)", () => {
    interface AuditEvent {
      auditID: string;
      requestURI: string;
      verb: string;
      userAgent: string;
      responseStatus: { code: number };
      objectRef?: { resource?: string; namespace?: string };
    }
    const audit = new Map<string, AuditEvent>();
    for (const l of readFileSync(join(fixtureDir, 'serve-audit.log'), 'utf8').split('\n')) {
      if (l === '') continue;
      const e = JSON.parse(l) as AuditEvent;
      audit.set(e.auditID, e);
    }
    let joined = 0;
    for (const c of fixtures) {
      for (const r of requests(c.file)) {
        if (r.auditID === undefined) continue;
        const e = audit.get(r.auditID);
        assert.ok(e, `${c.file} ${r.requestURI}: ${r.auditID} not in the audit log`);
        const name = `${c.file} ${r.requestURI}`;
        assert.strictEqual(r.requestURI, e.requestURI, name);
        assert.strictEqual(r.verb, e.verb, name);
        assert.strictEqual(r.userAgent, e.userAgent, name);
        assert.strictEqual(r.code, e.responseStatus.code, name);
        assert.strictEqual(r.objectRef?.resource, e.objectRef?.resource, name);
        assert.strictEqual(r.objectRef?.namespace, e.objectRef?.namespace, name);
        joined++;
      }
    }
    assert.strictEqual(joined, audit.size);
  });

  it('a -v=6 log names no User-Agent and no Audit-Id: one line is the request and its response', () => {
    const parsed = parse(fixtureLines('kubectl-1.33-v6.log'));
    const [first] = fold(parsed.fragments);
    assert.strictEqual(first.userAgent, undefined);
    assert.strictEqual(first.auditID, undefined);
    assert.strictEqual(first.latencyMs, 6);
    assert.strictEqual(first.requestURI, '/api/v1/namespaces/default/pods?limit=2');
    // I1201 19:08:46.442016 … milliseconds=6, read in 2026 UTC.
    const at = Date.UTC(2026, 11, 1, 19, 8, 46) + 442.016;
    assert.strictEqual(first.completedAt, at);
    assert.strictEqual(first.receivedAt, at - 6);
    assert.deepStrictEqual(first.lines, [9, 9]);
  });

  // The continue token each page's body carries is the one the next page's URL sends; it decodes
  // (storage/continue.ts) to the page's resourceVersion and a key just after its last object.
  const chains: Array<{ file: string; path: string; after: string[] }> = [
    {
      file: 'kubectl-1.20-v9.log',
      path: '/api/v1/namespaces/default/pods',
      after: ['pod-1', 'pod-3'],
    },
    {
      file: 'kubectl-1.33-v8.log',
      path: '/api/v1/pods',
      after: ['default/pod-1', 'default/pod-3'],
    },
    {
      file: 'kubectl-1.33-v8.log',
      path: '/api/v1/configmaps',
      after: ['default/configmap-1', 'default/configmap-3'],
    },
    {
      file: 'kubectl-1.29-v8.log',
      path: '/apis/stable.example.com/v1/crontabs',
      after: ['default/c2'],
    },
    {
      file: 'kubectl-1.27-v8.log',
      path: '/apis/stable.example.com/v1/namespaces/default/crontabs',
      after: ['c2'],
    },
    {
      file: 'kubectl-1.32-v8.log',
      path: '/api/v1/namespaces/default/configmaps',
      after: ['configmap-1', 'configmap-3'],
    },
  ];
  for (const c of chains) {
    it(`${c.file}: the pages of ${c.path} chain by their continue tokens`, () => {
      const pages = requests(c.file).filter(
        (r) => r.verb === 'list' && r.requestURI!.replace(/\?.*$/, '') === c.path,
      );
      assert.strictEqual(pages.length, c.after.length + 1);
      pages.slice(0, -1).forEach((page, i) => {
        const token = page.response!.continue!;
        const next = new URLSearchParams(pages[i + 1].requestURI!.split('?')[1]);
        assert.strictEqual(
          next.get('continue'),
          token,
          `page ${i + 2} sends page ${i + 1}'s token`,
        );
        assert.ok(page.response!.remainingItemCount! > 0);
        const decoded = decodeContinue(token, '/registry/x/');
        assert.strictEqual(String(decoded.resourceVersion), page.response!.resourceVersion);
        assert.ok(decoded.fromKey.endsWith(`${c.after[i]}\u0000`), JSON.stringify(decoded.fromKey));
      });
      assert.strictEqual(pages[pages.length - 1].response!.continue, undefined);
    });
  }

  it('a -v=8 body cut at 1024 characters still gives the ListMeta, not the item count', () => {
    const [page] = requests('kubectl-1.33-v8.log');
    const body = fixtureLines('kubectl-1.33-v8.log').find((l) => l.includes('"Response Body"'))!;
    assert.match(body, / \[truncated \d+ chars\]"$/);
    assert.deepStrictEqual(Object.keys(page.response!).sort(), [
      'continue',
      'remainingItemCount',
      'resourceVersion',
    ]);
    assert.strictEqual(page.response!.remainingItemCount, 3);
  });

  it('a 1.33 request and response are headers=< … > blocks over several lines', () => {
    const [page] = requests('kubectl-1.33-v8.log');
    const lines = fixtureLines('kubectl-1.33-v8.log');
    assert.match(lines[page.lines[0] - 1], /"Request" verb="GET" url=".*" headers=<$/);
    assert.match(lines[page.lines[1] - 1], /^I.*"Response" status="200 OK" headers=<$/);
    assert.strictEqual(page.userAgent, 'kubectl.1.33/v1.33.1 (linux/amd64) kubernetes/8adc0f0');
    assert.strictEqual(page.latencyMs, 5);
  });

  it('the 410 of an expired continue token: code, Status reason and message', () => {
    for (const file of ['kubectl-1.20-v6.log', 'kubectl-1.27-v8.log', 'kubectl-1.33-v8.log']) {
      const expired = requests(file).find((r) => r.code === 410)!;
      assert.strictEqual(expired.verb, 'list', file);
      assert.strictEqual(expired.status?.reason, 'Expired', file);
      assert.match(expired.status!.message!, /^The provided continue parameter is too old/, file);
      assert.ok(expired.complete, file);
    }
  });

  it('a watch answered 200 has started its response and is not complete', () => {
    const watch = requests('kubectl-1.33-v8.log').find((r) => r.verb === 'watch')!;
    assert.strictEqual(
      watch.requestURI,
      '/api/v1/namespaces/default/pods?resourceVersion=19&watch=true',
    );
    assert.ok(!watch.complete);
    assert.ok(watch.responseStartedAt !== undefined && watch.completedAt === undefined);
  });

  it("skips other lines: kubectl's output, a goroutine dump, error:, a comment", () => {
    const parsed = parse([
      'I1201 19:08:05.310061    6834 loader.go:373] Config loaded from file:  /tmp/ic/kubeconfig',
      'NAME    READY   STATUS    RESTARTS   AGE',
      'goroutine 1 [running]:',
      '\t/build/go/src/k8s.io/klog/v2/klog.go:1026 +0x89',
      'error: timed out waiting for the condition on pods/pod-0',
      'F1201 19:09:59.132282    9160 helpers.go:115] error: timed out waiting for the condition',
      '# a comment',
    ]);
    assert.deepStrictEqual(parsed, { fragments: [], rejects: [], skipped: 7 });
  });

  const structuredGet =
    'I1201 19:08:47.124714    7579 round_trippers.go:527] "Request" verb="GET" url="https://127.0.0.1:38829/api/v1/pods?limit=500" headers=<';
  const malformed: Array<{ name: string; lines: string[]; rejects: Array<[number, RegExp]> }> = [
    {
      name: 'a klog header cut short',
      lines: ['I1201 19:07:58.536195    6667 round_tri'],
      rejects: [[1, /^expected a klog header .*, got "I1201 19:07:58.536195 {4}6667 round_tri"$/]],
    },
    {
      name: 'a klog time that is no date',
      lines: [
        'I1331 19:07:58.536195    6667 round_trippers.go:553] GET https://h/api/v1/pods 200 OK in 1 milliseconds',
      ],
      rejects: [[1, /^expected a valid klog time, got 1331 19:07:58 in 2026/]],
    },
    {
      name: 'a structured line cut in a quoted value',
      lines: ['I1201 19:08:47.128896    7579 round_trippers.go:632] "Response" status="200 O'],
      rejects: [[1, /status: expected a closing quote for the string at column 19/]],
    },
    {
      name: 'a bad escape in a quoted value',
      lines: [
        'I1201 19:08:47.128896    7579 round_trippers.go:632] "Response" status="200 \\q" milliseconds=1',
      ],
      rejects: [[1, /expected a Go escape sequence at column 24, got "\\\\q\\" "/]],
    },
    {
      name: 'a headers=< block left open at the end of the file',
      lines: [structuredGet, '\tAccept: application/json'],
      rejects: [
        [1, /^expected " >" closing the "key=<" block begun on line 1 before the end of the file$/],
      ],
    },
    {
      name: 'a headers=< block broken by a line that is not in it',
      lines: [
        structuredGet,
        '\tAccept: application/json',
        'I1201 19:08:47.128896    7579 loader.go:402] Config loaded',
      ],
      rejects: [
        [
          1,
          /^expected a tab-indented line or " >" to go on with the "key=<" block begun on line 1, got "I1201/,
        ],
      ],
    },
    {
      name: 'a response with no request before it',
      lines: [
        'I1201 19:08:06.079905    6874 round_trippers.go:574] Response Status: 200 OK in 25 milliseconds',
      ],
      rejects: [[1, /^expected a request line before this response \(200 OK in 25 ms\)/]],
    },
    {
      name: 'a curl line without its quoted URL',
      lines: [
        'I1201 19:08:39.950692    7416 round_trippers.go:473] curl -v -XGET  -H "Accept: x" https://h/api',
      ],
      rejects: [[1, /^expected curl -v -XMETHOD … 'URL'/]],
    },
  ];
  for (const c of malformed) {
    it(`rejects ${c.name}, saying what was expected`, () => {
      const parsed = parse(c.lines);
      assert.strictEqual(parsed.rejects.length, c.rejects.length, JSON.stringify(parsed.rejects));
      c.rejects.forEach(([line, re], i) => {
        assert.strictEqual(parsed.rejects[i].line, line);
        assert.match(parsed.rejects[i].reason, re);
      });
    });
  }

  it('keeps a hostile User-Agent as data and shows control characters made visible', () => {
    const ua = '<script>alert(1)</script>\u001b[2J';
    const parsed = parse([
      'I0312 10:15:00.848892   16890 round_trippers.go:422] GET https://h/api/v1/pods?limit=1',
      'I0312 10:15:00.848910   16890 round_trippers.go:429] Request Headers:',
      `I0312 10:15:00.848917   16890 round_trippers.go:433]     User-Agent: ${ua}`,
      'I0312 10:15:00.963053   16890 round_trippers.go:448] Response Status: 200 OK in 114 milliseconds',
      `I1201 19:08:47.124714    7579 round_trippers.go:527] "Request" verb="GET" url="https://h/api/v1/pods" headers=<`,
      `\tUser-Agent: <script>\\x1b</script>`,
      ' >',
      'I1201 19:08:47.128896    7579 round_trippers.go:632] "Response" status="200 \u001b[31mOK',
    ]);
    const [a, b] = fold(parsed.fragments);
    assert.strictEqual(a.userAgent, ua);
    assert.strictEqual(b.userAgent, '<script>\\x1b</script>');
    assert.strictEqual(parsed.rejects.length, 1);
    assert.match(parsed.rejects[0].reason, /\u241b\[31mOK/);
    assert.ok(!parsed.rejects[0].reason.includes('\u001b'));
  });

  it('a transport error (no status before "in N milliseconds") ends the request without a code', () => {
    const [r] = fold(
      parse([
        'I0312 12:00:00.010200    4303 round_trippers.go:553] GET https://h/api/v1/pods?limit=500  in 30000 milliseconds',
      ]).fragments,
    );
    assert.strictEqual(r.verb, 'list');
    assert.strictEqual(r.code, undefined);
    assert.strictEqual(r.latencyMs, 30000);
    assert.ok(r.complete);
  });

  it('kubectl -v=9 1.32: HTTP Trace and HTTP Statistics are skipped, the body=< block is read whole', () => {
    const parsed = parse(fixtureLines('kubectl-1.32-v9.log'));
    const [page] = fold(parsed.fragments);
    assert.strictEqual(page.response!.items, 2);
    assert.strictEqual(page.latencyMs, 10);
    assert.ok(fixtureLines('kubectl-1.32-v9.log').some((l) => l.includes('HTTP Statistics:')));
  });
});
