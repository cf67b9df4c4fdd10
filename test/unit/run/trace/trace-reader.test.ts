// Tests for src/run/trace (trace-format.ts, trace-writer.ts, trace-reader.ts): the writer's lines, the
// header checks, line-numbered rejections that are counted (never silently dropped), the line length
// limit, progress and cancellation.
import * as assert from 'assert';
import { TraceFormatError } from '../../../../src/run/trace/trace-format';
import { readTrace, traceLines } from '../../../../src/run/trace/trace-reader';
import { TraceWriter } from '../../../../src/run/trace/trace-writer';

const header =
  '{"format":"listwatch-trace","version":2,"scenario":"read-your-writes","profile":"1.36","seed":1,"params":{"cacheLagMs":500}}';
const event =
  '{"kind":"event","event":{"type":"cacher/progress-request","at":5,"groupResource":{"group":"","resource":"pods"},"waiting":1}}';
const input = '{"kind":"input","at":0,"action":"phase","name":"start","text":"go"}';
const metrics = '{"kind":"metrics","scope":"resource","at":9,"samples":{"x":1},"text":"x 1\\n"}';

async function* asAsync(lines: string[]): AsyncIterable<string> {
  for (const l of lines) yield l;
}

async function readAll(lines: string[], opts = {}) {
  const reader = readTrace(asAsync(lines), opts);
  const h = await reader.header();
  const records = [];
  for await (const r of reader) records.push(r);
  return { h, records, stats: reader.stats };
}

describe('trace writer and reader', () => {
  it('the writer writes the header first, then one JSON object per record; the reader gives them back', async () => {
    const lines: string[] = [];
    const w = new TraceWriter((l) => lines.push(l));
    assert.throws(
      () => w.input(0, { action: 'phase', name: 'a', text: 'b' }),
      /write the header first/,
    );
    w.header({ scenario: 'read-your-writes', profile: '1.36', seed: 3, params: { readers: 2 } });
    w.input(0, { action: 'phase', name: 'start', text: 'go' });
    w.event({
      type: 'cacher/progress-request',
      at: 5,
      groupResource: { group: '', resource: 'pods' },
      waiting: 1,
    });
    w.resourceMetrics(9, { x: 1 }, 'x 1\n');
    assert.throws(
      () => w.header({ scenario: 'x', profile: '1.36', seed: 1, params: {} }),
      /already written/,
    );
    assert.strictEqual(w.lines, 4);
    assert.deepStrictEqual(JSON.parse(lines[0]), {
      format: 'listwatch-trace',
      version: 2,
      scenario: 'read-your-writes',
      profile: '1.36',
      seed: 3,
      params: { readers: 2 },
    });
    const { h, records, stats } = await readAll(lines);
    assert.strictEqual(h.seed, 3);
    assert.deepStrictEqual(
      records.map((r) => [r.line, r.record.kind]),
      [
        [2, 'input'],
        [3, 'event'],
        [4, 'metrics'],
      ],
    );
    assert.deepStrictEqual([stats.linesRead, stats.rejected], [4, 0]);
  });

  const badHeaders: Array<[string, string[], RegExp]> = [
    ['an empty file', [], /^line 1: empty trace: expected a header line/],
    ['only blank lines', ['', '  '], /^line 2: empty trace/],
    [
      'a header that is not JSON',
      ['{"format":'],
      /^line 1: expected the trace header \(a JSON object\), got invalid JSON/,
    ],
    [
      'another format',
      ['{"format":"har","version":1}'],
      /^line 1: not a listwatch trace: expected "format":"listwatch-trace" in the header, got "har"/,
    ],
    [
      'another version',
      [
        '{"format":"listwatch-trace","version":3,"scenario":"x","profile":"1.36","seed":1,"params":{}}',
      ],
      /^line 1: unsupported trace version 3: this listwatch reads version 2$/,
    ],
    [
      'a version-1 trace (no request ids): the message says how to record it again',
      [
        '{"format":"listwatch-trace","version":1,"scenario":"read-your-writes","profile":"1.37","seed":7,"params":{"readers":3,"profile":"1.37"}}',
      ],
      /^line 1: trace version 1 is not read any more: its events do not say which request caused them, and this listwatch \(trace version 2\) ties etcd requests, waits and pages to their request by that id\. Record it again with: listwatch scenario run read-your-writes --seed 7 --set readers=3 --set profile=1\.37 --set etcdLatency=zero --trace <file>$/,
    ],
    [
      'a version-1 trace whose header names no valid run',
      ['{"format":"listwatch-trace","version":1,"scenario":"x","seed":-4,"params":{}}'],
      /^line 1: trace version 1 is not read any more: .* Record the run again with `listwatch scenario run`\.$/,
    ],
    [
      'a record where the header belongs',
      [event],
      /^line 1: not a listwatch trace: expected "format":"listwatch-trace"/,
    ],
    [
      'a header without a scenario',
      ['{"format":"listwatch-trace","version":2,"profile":"1.36","seed":1,"params":{}}'],
      /^line 1: header: expected "scenario" to be a scenario name, got undefined/,
    ],
    [
      'a negative seed',
      [
        '{"format":"listwatch-trace","version":2,"scenario":"x","profile":"1.36","seed":-4,"params":{}}',
      ],
      /^line 1: header: expected "seed" to be a non-negative integer, got -4/,
    ],
    [
      'a parameter that is an object',
      [
        '{"format":"listwatch-trace","version":2,"scenario":"x","profile":"1.36","seed":1,"params":{"a":{}}}',
      ],
      /^line 1: header: parameter "a" must be a number, string or boolean, got \{\}/,
    ],
    [
      'a blank line, then a bad header: the line number counts the blank',
      ['', 'nope'],
      /^line 2: expected the trace header/,
    ],
  ];
  for (const [name, lines, re] of badHeaders) {
    it(`rejects ${name} with an error naming the line`, async () => {
      await assert.rejects(
        readAll(lines),
        (e: unknown) => e instanceof TraceFormatError && re.test(e.message),
      );
    });
  }

  it('rejects and counts malformed record lines, with their line numbers, and keeps the good ones', async () => {
    const lines = [
      header,
      input,
      'not json at all',
      '{"at":1}',
      '[1,2]',
      '{"kind":"gossip","at":1}',
      '{"kind":"event","event":{"at":1}}',
      '{"kind":"input","action":"phase"}',
      '{"kind":"metrics","scope":"resource","at":1,"samples":{"a":"b"},"text":""}',
      '{"kind":"input","at":0,"action":"imported","report":{"format":"listwatch-import-report","clients":"<b>"}}',
      '',
      event,
      metrics,
    ];
    const { records, stats } = await readAll(lines, { maxRejectedSamples: 10 });
    assert.deepStrictEqual(
      records.map((r) => r.line),
      [2, 12, 13],
    );
    assert.strictEqual(stats.rejected, 8);
    assert.strictEqual(stats.blankLines, 1);
    assert.strictEqual(stats.linesRead, 13);
    const expected = [
      /^line 3: not JSON \(.*\): "not json at all"$/,
      /^line 4: expected a JSON object with "kind", got \{"at":1\}$/,
      /^line 5: expected a JSON object with "kind", got \[1,2\]$/,
      /^line 6: expected "kind" to be "input", "event" or "metrics", got "gossip"$/,
      /^line 7: event: expected "event.type" to be a string, got undefined$/,
      /^line 8: input: expected "at" \(virtual ms\) to be a number, got undefined$/,
      /^line 9: metrics: sample "a" must be a number, got "b"$/,
      /^line 10: input imported: expected "report" to be a listwatch-import-report object with clients, requests and rejected, got \{"format":"listwatch-import-report","clients":"<b>"\}$/,
    ];
    assert.strictEqual(stats.rejectedSamples.length, expected.length);
    for (const [i, re] of expected.entries()) assert.match(stats.rejectedSamples[i], re);
  });

  it('keeps only maxRejectedSamples reasons but counts every rejection', async () => {
    const lines = [header, ...Array.from({ length: 20 }, () => '{}')];
    const { stats } = await readAll(lines, { maxRejectedSamples: 2 });
    assert.deepStrictEqual([stats.rejected, stats.rejectedSamples.length], [20, 2]);
    assert.match(stats.rejectedSamples[1], /^line 3: /);
  });

  it('rejects a 10 MB line without parsing it, and reads on', async () => {
    const huge = `{"kind":"input","at":0,"action":"phase","name":"x","text":"${'a'.repeat(10 * 1024 * 1024)}"}`;
    const { records, stats } = await readAll([header, huge, event]);
    assert.deepStrictEqual(
      records.map((r) => r.line),
      [3],
    );
    assert.strictEqual(stats.rejected, 1);
    assert.match(
      stats.rejectedSamples[0],
      new RegExp(
        `^line 2: ${huge.length} characters, longer than the 4194304 a trace line may have$`,
      ),
    );
  });

  it('accepts CRLF line ends and sync iterables', async () => {
    const reader = readTrace([header + '\r', event + '\r']);
    assert.strictEqual((await reader.header()).scenario, 'read-your-writes');
    const got = [];
    for await (const r of reader) got.push(r.record.kind);
    assert.deepStrictEqual(got, ['event']);
    assert.deepStrictEqual(traceLines(`${header}\n${event}\n`), [header, event]);
  });

  it('reports progress every 10,000 lines and at the end', async () => {
    const seen: number[] = [];
    const lines = [header, ...Array.from({ length: 25000 }, () => event)];
    await readAll(lines, { onProgress: (n: number) => seen.push(n) });
    assert.deepStrictEqual(seen, [10000, 20000, 25001]);
  });

  it('stops when its signal aborts', async () => {
    const ctl = new AbortController();
    const lines = [header, ...Array.from({ length: 100 }, () => event)];
    const reader = readTrace(asAsync(lines), { signal: ctl.signal });
    await reader.header();
    let n = 0;
    await assert.rejects(
      (async () => {
        for await (const r of reader) {
          n = r.line;
          if (n === 10) ctl.abort();
        }
      })(),
      (e: unknown) =>
        e instanceof Error &&
        e.name === 'AbortError' &&
        /trace reading cancelled at line 10/.test(e.message),
    );
  });
});
