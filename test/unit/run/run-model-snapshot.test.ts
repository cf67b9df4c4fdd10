// Tests for RunModelBuilder.finish() as a live run uses it: a snapshot that may be taken at any
// point and as often as wanted. Taking snapshots along the way changes nothing in the final model,
// and a snapshot's own collections do not grow with what is added after it.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { RunModelBuilder } from '../../../src/run/build-run-model';
import type { TraceRecord } from '../../../src/run/trace/trace-format';
import { readTrace } from '../../../src/run/trace/trace-reader';

// A real scenario trace (slow-watcher-termination plus a LIST): watchers, lists, metrics.
const fixture = path.resolve(__dirname, '../../../../test/fixtures/hostile-names.jsonl');

async function records(): Promise<{
  header: Awaited<ReturnType<ReturnType<typeof readTrace>['header']>>;
  records: TraceRecord[];
}> {
  const reader = readTrace(fs.readFileSync(fixture, 'utf8').split('\n'));
  const header = await reader.header();
  const out: TraceRecord[] = [];
  for await (const { record } of reader) out.push(record);
  return { header, records: out };
}

describe('RunModelBuilder.finish() as a repeatable snapshot', () => {
  for (const every of [1, 7, 100]) {
    it(`a snapshot every ${every} records leaves the final model as one finish() at the end`, async () => {
      const { header, records: rs } = await records();
      const once = new RunModelBuilder(header);
      const often = new RunModelBuilder(header);
      for (const [i, r] of rs.entries()) {
        once.add(r);
        often.add(r);
        if (i % every === 0) often.finish();
      }
      assert.deepStrictEqual(often.finish(), once.finish());
      assert.deepStrictEqual(often.finish(), often.finish(), 'the same model twice');
    });
  }

  it("a snapshot's collections keep their length when more is added", async () => {
    const { header, records: rs } = await records();
    const b = new RunModelBuilder(header);
    const half = rs.length >> 1;
    for (const r of rs.slice(0, half)) b.add(r);
    const s = b.finish();
    const lengths = (m: typeof s) => ({
      watchers: m.watchers.length,
      lists: m.lists.length,
      watchRequests: m.watchRequests?.length,
      moments: m.moments?.at.length,
      capacity: m.capacity.length,
      resourceVersions: m.resourceVersions.length,
      perEvent: m.serialization.perEvent.length,
      ticks: m.bookmarkTicks?.length,
      phases: m.phases?.length,
      logs: m.watchers.map((w) => w.log.length),
      states: m.watchers.map((w) => w.states.length),
    });
    const before = JSON.stringify(lengths(s));
    const durationMs = s.durationMs;
    const writes = s.writes?.total;
    for (const r of rs.slice(half)) b.add(r);
    const end = b.finish();
    assert.notStrictEqual(JSON.stringify(lengths(end)), before, 'the run went on');
    assert.strictEqual(JSON.stringify(lengths(s)), before);
    assert.strictEqual(s.durationMs, durationMs);
    assert.strictEqual(s.writes?.total, writes);
  });
});
