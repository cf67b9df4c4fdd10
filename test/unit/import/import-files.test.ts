// Tests for src/import/import-files.ts (the reader, detection, the k-way merge of files) and
// src/import/request-merger.ts (folding fragments by audit ID, key and last watch, the merge
// window, the pending cap), through importFiles on temporary files.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { importFiles } from '../../../src/import/import-files';
import type { LineFormat, RequestFragment } from '../../../src/import/line-parser';
import { knownLineFormats } from '../../../src/import/line-formats';
import { importText, jsonLines, withTempFiles } from './import-harness';

const t0 = Date.parse('2026-12-01T10:00:00Z');
const micro = (ms: number): string => new Date(t0 + ms).toISOString().replace('Z', '000Z');

/** An audit event of request `id` at stage `stage`, `ms` after t0 (received at `recv`). */
function ev(id: string, stage: string, ms: number, over: Record<string, unknown> = {}): unknown {
  return {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'Metadata',
    auditID: id,
    stage,
    requestURI: '/api/v1/pods?limit=500',
    verb: 'list',
    user: { username: 'alice' },
    userAgent: 'kubectl/v1.33.1',
    objectRef: { resource: 'pods', apiVersion: 'v1' },
    responseStatus: stage === 'RequestReceived' ? undefined : { metadata: {}, code: 200 },
    requestReceivedTimestamp: micro((over.recv as number | undefined) ?? ms),
    stageTimestamp: micro(ms),
    ...over,
    recv: undefined,
  };
}

/** An httplog line for audit ID `id`, logged `ms` after t0. */
function httplog(id: string, ms: number, latency = '2ms'): string {
  const d = new Date(t0 + ms);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const klogTime = `${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}000`;
  return `I${klogTime}       1 httplog.go:134] "HTTP" verb="LIST" URI="/api/v1/pods?limit=500" latency="${latency}" userAgent="kubectl/v1.33.1" audit-ID="${id}" srcIP="10.0.0.9:5555" apf_pl="exempt" apf_fs="exempt" resp=200`;
}

describe('import: importFiles', () => {
  it('cuts lines on bytes: CRLF, blank lines, a last line without newline, UTF-8 across chunks', async () => {
    // The first line is 1 MiB + a few bytes, so a chunk (1 MiB) ends inside its é.
    const long = JSON.stringify(
      ev('long', 'ResponseComplete', 1, { userAgent: 'é'.repeat(600_000) }),
    );
    const text = `${long}\r\n\r\n${JSON.stringify(ev('b', 'ResponseComplete', 2))}\r\n   \n${JSON.stringify(ev('c', 'ResponseComplete', 3))}`;
    const { result, requests, rejects } = await importText(text);
    assert.deepStrictEqual(rejects, []);
    assert.deepStrictEqual(
      requests.map((r) => [r.id, r.sources[0].line]),
      [
        ['long', 1],
        ['b', 3],
        ['c', 5],
      ],
    );
    assert.strictEqual(requests[0].userAgent, 'é'.repeat(600_000));
    assert.deepStrictEqual([result.lines, result.skipped, result.rejected], [5, 2, 0]);
    assert.strictEqual(result.bytes, Buffer.byteLength(text));
  });

  it('rejects a line that is not UTF-8 and a line over the cap, with their positions, and reads on', async () => {
    const good = (id: string, ms: number) =>
      Buffer.from(JSON.stringify(ev(id, 'ResponseComplete', ms)) + '\n');
    const bad = Buffer.concat([
      Buffer.from('{"kind":"Event","x":"ab'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}\n'),
    ]);
    // 3 MiB without a newline: spans chunks, and is never held whole (the cap is 4 KiB).
    const huge = Buffer.from('{"kind":"Event",' + 'x'.repeat(3 * 1024 * 1024) + '\n');
    const content = Buffer.concat([
      good('a', 1),
      bad,
      huge,
      good('b', 2),
      Buffer.from('y'.repeat(5000)),
    ]);
    const { result, requests, rejects } = await importText([{ name: 'mixed.log', content }], {
      maxLineBytes: 4096,
    });
    assert.deepStrictEqual(
      requests.map((r) => r.id),
      ['a', 'b'],
    );
    assert.deepStrictEqual(
      rejects.map((r) => [r.file, r.line, r.reason]),
      [
        ['mixed.log', 2, 'line is not valid UTF-8 (byte 24 of the line)'],
        ['mixed.log', 3, `line is longer than 4096 bytes (${huge.length - 1} bytes); not read`],
        ['mixed.log', 5, 'line is longer than 4096 bytes (5000 bytes); not read'],
      ],
    );
    assert.strictEqual(rejects[1].text.length, 200);
    assert.ok(rejects[0].text.startsWith('{"kind":"Event","x":"ab\ufffd('));
    assert.deepStrictEqual([result.lines, result.rejected, result.files[0].rejected], [5, 3, 3]);
  });

  it('names an unreadable file and its OS error, and reads the others', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-import-'));
    try {
      const ok = path.join(dir, 'ok.log');
      fs.writeFileSync(ok, jsonLines([ev('a', 'ResponseComplete', 1)]));
      const rejects: string[] = [];
      const result = await importFiles(
        [
          { path: path.join(dir, 'missing.log'), name: 'missing.log' },
          { path: dir, name: 'a-directory' },
          { path: ok, name: 'ok.log' },
        ],
        {},
        {
          request: () => undefined,
          reject: (r) => rejects.push(`${r.file}:${r.line}: ${r.reason}`),
        },
      );
      assert.strictEqual(result.records, 1);
      assert.strictEqual(rejects.length, 2);
      assert.match(
        rejects[0],
        /^missing\.log:0: cannot read missing\.log: ENOENT: no such file or directory/,
      );
      assert.match(
        rejects[1],
        /^a-directory:0: cannot read a-directory: EISDIR: illegal operation on a directory/,
      );
      assert.deepStrictEqual(
        result.files.map((f) => [f.file, f.format, f.records, f.rejected]),
        [
          ['missing.log', undefined, 0, 1],
          ['a-directory', undefined, 0, 1],
          ['ok.log', 'audit', 1, 0],
        ],
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('detects each file format, rejects every line of a file no format reads, and obeys format', async () => {
    const files = [
      { name: 'audit.log', content: jsonLines([ev('a', 'ResponseComplete', 1)]) },
      { name: 'apiserver.log', content: httplog('h', 2) + '\n' },
      { name: 'notes.txt', content: 'hello\nworld\n\n' },
    ];
    const { result, rejects } = await importText(files, { year: 2026 });
    assert.deepStrictEqual(
      result.files.map((f) => f.format),
      ['audit', 'httplog', undefined],
    );
    assert.deepStrictEqual(
      rejects.map((r) => [r.file, r.line, r.format]),
      [
        ['notes.txt', 1, undefined],
        ['notes.txt', 2, undefined],
      ],
    );
    assert.match(
      rejects[0].reason,
      /^not a log format the import reads \(expected audit\.k8s\.io\/v1 Event JSON lines, /,
    );
    assert.deepStrictEqual(result.assumptions.year, {
      value: 2026,
      from: '--year',
    });
    const forced = await importText(files.slice(0, 2), { format: 'audit' });
    assert.deepStrictEqual(
      forced.result.files.map((f) => [f.format, f.rejected]),
      [
        ['audit', 0],
        ['audit', 1],
      ],
    );
    await assert.rejects(
      importText(files, {
        format: 'kubectl',
        formats: knownLineFormats.filter((f) => f.format !== 'kubectl'),
      }),
      /no importer for format kubectl/,
    );
  });

  it('merges two files into one timeline by audit ID within the merge window', async () => {
    const audit = jsonLines([
      ev('a', 'RequestReceived', 0),
      ev('a', 'ResponseComplete', 5),
      ev('b', 'RequestReceived', 10),
      ev('b', 'ResponseComplete', 12),
      // c completes at 100 ms; its httplog line comes 30 s later (past a 10 s window).
      ev('c', 'ResponseComplete', 100, { recv: 90 }),
      ev('d', 'ResponseComplete', 40_000),
    ]);
    const apiserver = [httplog('a', 6), httplog('b', 9_000, '8.988s'), httplog('c', 30_100)].join(
      '\n',
    );
    const { result, requests } = await importText(
      [
        { name: 'audit.log', content: audit },
        { name: 'kube-apiserver.log', content: apiserver },
      ],
      { year: 2026, mergeWindowMs: 10_000 },
    );
    const got = requests.map((r) => [r.id, r.sources.map((s) => `${s.file}:${s.line}`).join(' ')]);
    assert.deepStrictEqual(got, [
      ['a', 'audit.log:1 audit.log:2 kube-apiserver.log:1'],
      ['b', 'audit.log:3 audit.log:4 kube-apiserver.log:2'],
      ['c', 'audit.log:5'],
      ['c@kube-apiserver.log:3', 'kube-apiserver.log:3'],
      ['d', 'audit.log:6'],
    ]);
    assert.strictEqual(result.merge.late, 1);
    const b = requests[1];
    // The first value of each field: the audit event's, then what only httplog says (srcIP, latency).
    assert.deepStrictEqual([b.sourceIP, b.latencyMs, b.code], ['10.0.0.9', 8988, 200]);
    assert.deepStrictEqual(
      result.files.map((f) => [f.file, f.records, f.joined]),
      [
        // Each file counts the requests it has records of: a and b are in both (joined).
        ['audit.log', 4, 2],
        ['kube-apiserver.log', 3, 2],
      ],
    );
  });

  it('joins fragments by key and attaches a line to the latest watch of its stream (the LineFormat contract)', async () => {
    // A format as the client parsers use it: `REQ key verb uri`, `RESP key code`, `END message`.
    const clientFormat: LineFormat = {
      format: 'kubectl',
      sniff: (l) => /^(REQ|RESP|END) /.test(l),
      create: () => ({
        format: 'kubectl',
        end: () => [],
        push(text, ctx) {
          const [kind, a, b, c] = text.split(' ');
          const source = { file: ctx.file, line: ctx.line, format: 'kubectl' as const };
          const pods = { resource: 'pods' };
          const f: RequestFragment =
            kind === 'REQ'
              ? {
                  source,
                  key: a,
                  stream: 'pid 1',
                  complete: false,
                  fields: { verb: b, requestURI: c, objectRef: pods },
                }
              : kind === 'RESP'
                ? { source, key: a, complete: true, fields: { code: Number(b) } }
                : {
                    source,
                    stream: 'pid 1',
                    attach: 'last-watch',
                    complete: false,
                    fields: { objectRef: pods, watchEnd: { message: text.slice(4), source } },
                  };
          return [f];
        },
      }),
    };
    const text = [
      'REQ 1 list /api/v1/pods',
      'RESP 1 200',
      'REQ 2 watch /api/v1/pods?watch=1',
      'RESP 2 200',
      'REQ 3 watch /api/v1/pods?watch=2',
      'RESP 3 200',
      'END too old resource version: 5 (7)',
    ].join('\n');
    const { requests } = await importText(text, { formats: [clientFormat] });
    assert.deepStrictEqual(
      requests.map((r) => [
        r.id,
        r.verb,
        r.code,
        r.sources.map((s) => s.line),
        r.watchEnd?.message,
      ]),
      [
        ['test.log:1', 'list', 200, [1, 2], undefined],
        ['test.log:3', 'watch', 200, [3, 4], undefined],
        ['test.log:5', 'watch', 200, [5, 6, 7], 'too old resource version: 5 (7)'],
      ],
    );
    // An end without its watch: a watch that began before the file.
    const orphan = await importText('END watch closed', { formats: [clientFormat] });
    assert.deepStrictEqual(
      orphan.requests.map((r) => [r.verb, r.startInFile, r.endInFile, r.watchEnd?.message]),
      [['watch', false, false, 'watch closed']],
    );
  });

  it('emits requests still open at the end as open, after the completed ones', async () => {
    const { requests } = await importText(
      jsonLines([
        ev('w', 'RequestReceived', 0, { verb: 'watch' }),
        ev('w', 'ResponseStarted', 1, { verb: 'watch', recv: 0 }),
        ev('g', 'RequestReceived', 2),
        ev('x', 'ResponseComplete', 3, { recv: 2 }),
      ]),
    );
    assert.deepStrictEqual(
      requests.map((r) => [r.id, r.startInFile, r.endInFile]),
      [
        ['x', true, true],
        ['w', true, false],
        ['g', true, false],
      ],
    );
  });

  it('holds no more requests than are open or inside the window, over a long input', async () => {
    // 60,000 requests 1 ms apart, each open for 40 ms (about 40 in flight), and 30 watches open
    // throughout: at most ~40 + 30 are held at once, and ~100 more inside a 100 ms window.
    const lines: string[] = [];
    for (let w = 0; w < 30; w++)
      lines.push(JSON.stringify(ev(`w${w}`, 'RequestReceived', w / 100, { verb: 'watch' })));
    const n = 60_000;
    const open: Array<[number, string]> = [];
    for (let i = 0; i < n; i++) {
      const id = `r${i}`;
      lines.push(JSON.stringify(ev(id, 'RequestReceived', i + 1)));
      open.push([i + 41, id]);
      while (open.length && open[0][0] <= i + 1) {
        const [at, done] = open.shift()!;
        lines.push(JSON.stringify(ev(done, 'ResponseComplete', at, { recv: at - 40 })));
      }
    }
    for (const [at, id] of open)
      lines.push(JSON.stringify(ev(id, 'ResponseComplete', at, { recv: at - 40 })));
    let records = 0;
    let openAtEnd = 0;
    const other = { name: 'other.log', content: JSON.stringify(ev('o', 'ResponseComplete', 1)) };
    await withTempFiles(
      [{ name: 'long.log', content: lines.join('\n') }, other],
      async ([p, q]) => {
        // One audit log: nothing can follow ResponseComplete, so only the open ones are held.
        const result = await importFiles(
          [{ path: p }],
          { mergeWindowMs: 100 },
          {
            request: (r) => {
              records++;
              if (!r.endInFile) openAtEnd++;
            },
            reject: () => assert.fail('no rejects'),
          },
        );
        assert.strictEqual(result.records, n + 30);
        const held = result.merge.maxPending;
        assert.ok(held >= 40 + 30 && held <= 41 + 30, `held ${held}`);
        assert.deepStrictEqual([result.merge.evicted, result.merge.closedEarly], [0, 0]);

        // With a second file the completed ones wait out the window as well.
        const two = await importFiles(
          [{ path: p }, { path: q }],
          { mergeWindowMs: 100 },
          {
            request: () => undefined,
            reject: () => undefined,
          },
        );
        assert.strictEqual(two.records, n + 31);
        const heldTwo = two.merge.maxPending;
        assert.ok(heldTwo >= 100 + 30 && heldTwo <= 41 + 100 + 30 + 2, `held ${heldTwo}`);

        // With a cap of 50, the oldest (the watches) are emitted early, open, and counted.
        const capped = await importFiles(
          [{ path: p }],
          { maxPending: 50 },
          {
            request: () => undefined,
            reject: () => undefined,
          },
        );
        assert.strictEqual(capped.merge.maxPending, 50);
        assert.ok(
          capped.merge.evicted >= 20 && capped.merge.evicted <= 30,
          `${capped.merge.evicted}`,
        );
        assert.strictEqual(capped.records, n + 30);
      },
    );
    assert.strictEqual(records, n + 30);
    assert.strictEqual(openAtEnd, 30);
  });

  it('reports progress in bytes against the total, and stops when cancelled', async () => {
    const content = jsonLines(
      Array.from({ length: 20_000 }, (_, i) => ev(`p${i}`, 'ResponseComplete', i)),
    );
    const size = Buffer.byteLength(content);
    const calls: Array<[number, number | undefined]> = [];
    await importText([{ name: 'p.log', content }], {
      onProgress: (read, total) => calls.push([read, total]),
    });
    assert.deepStrictEqual(calls[0], [0, size]);
    assert.deepStrictEqual(calls[calls.length - 1], [size, size]);
    assert.ok(calls.length > 2, 'one call per chunk');
    const ctl = new AbortController();
    let emitted = 0;
    await assert.rejects(
      importText([{ name: 'p.log', content }], {
        signal: ctl.signal,
        onProgress: (read) => {
          if (read > 0) ctl.abort(new Error('cancelled by the test'));
        },
      }).then(() => (emitted = -1)),
      /cancelled by the test/,
    );
    assert.strictEqual(emitted, 0);
  });
});
