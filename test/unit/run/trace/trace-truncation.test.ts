// Tests for trace-reader.ts's truncation check: a trace cut short (its last line cut mid-JSON, or
// no final metrics record) says so and where; a complete or merely damaged trace does not.
import * as assert from 'assert';
import { readTrace } from '../../../../src/run/trace/trace-reader';

const header =
  '{"format":"listwatch-trace","version":2,"scenario":"read-your-writes","profile":"1.36","seed":1,"params":{}}';
const input = '{"kind":"input","at":0,"action":"phase","name":"start","text":"go"}';
const metrics = '{"kind":"metrics","scope":"resource","at":9,"samples":{"x":1},"text":"x 1\\n"}';
const watcherMetrics =
  '{"kind":"metrics","scope":"watcher","at":9,"watcher":{"id":"1","client":"c","received":3,"lastRv":5,"bufferFill":0,"bufferCapacity":10}}';

async function statsOf(lines: string[]) {
  const reader = readTrace(lines);
  await reader.header();
  const records: unknown[] = [];
  for await (const r of reader) records.push(r);
  return { records: records.length, stats: reader.stats };
}

describe('trace truncation', () => {
  const cases: Array<{ name: string; lines: string[]; truncated?: string; records: number }> = [
    { name: 'complete', lines: [header, input, metrics, watcherMetrics], records: 3 },
    {
      name: 'complete, a damaged line in the middle',
      lines: [header, input, '{"kind":', metrics],
      records: 2,
    },
    {
      name: 'complete, blank lines at the end',
      lines: [header, input, metrics, '', ''],
      records: 2,
    },
    {
      name: 'last line cut mid-JSON',
      lines: [header, input, metrics, watcherMetrics.slice(0, 40)],
      truncated: 'line 4, the last, is cut off mid-JSON',
      records: 2,
    },
    {
      name: 'last line cut mid-JSON, then a blank line',
      lines: [header, input, '{"kind":"inp', ''],
      truncated: 'line 3, the last, is cut off mid-JSON',
      records: 1,
    },
    {
      name: 'cut at a line boundary before the final metrics',
      lines: [header, input, input],
      truncated: 'it ends at line 3 without the final metrics record a finished run writes',
      records: 2,
    },
    {
      name: 'a probe of a real cluster that did not scrape /metrics (no engine metrics to end with)',
      lines: [header.replace('"read-your-writes"', '"probe"'), input, input],
      records: 2,
    },
    {
      name: 'a probe cut mid-JSON',
      lines: [header.replace('"read-your-writes"', '"probe"'), input, '{"kind":"inp'],
      truncated: 'line 3, the last, is cut off mid-JSON',
      records: 1,
    },
    {
      name: 'the header alone',
      lines: [header],
      truncated: 'it ends at line 1 without the final metrics record a finished run writes',
      records: 0,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const { records, stats } = await statsOf(c.lines);
      assert.strictEqual(stats.truncated, c.truncated, c.name);
      assert.strictEqual(records, c.records, `${c.name}: what was read is kept`);
    });
  }
});
