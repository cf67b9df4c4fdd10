// Tests for src/scenarios/replay-trace.ts and load-run.ts: a recorded trace replays byte for byte; a changed,
// missing or extra line is reported as the first difference; a trace that cannot be replayed
// (no header, an unknown scenario) is an error naming why.
import * as assert from 'assert';
import { runScenario } from '../../../src/scenarios/runner';
import { excerpt, firstDiffIndex, replayTrace } from '../../../src/scenarios/replay-trace';
import { loadRun } from '../../../src/run/load-run';
import { TraceFormatError } from '../../../src/run/trace/trace-format';
import { TraceWriter } from '../../../src/run/trace/trace-writer';

async function record(
  name: string,
  set: Record<string, string | number | boolean>,
  seed = 1,
): Promise<string[]> {
  const lines: string[] = [];
  await runScenario(name, set, { seed, trace: new TraceWriter((l) => lines.push(l)) });
  return lines;
}

describe('trace replay', () => {
  it('reproduces a recorded run exactly', async () => {
    const lines = await record(
      'slow-watcher-termination',
      { fastWatchers: 3, slowWatchers: 2, eventsPerSecond: 50 },
      5,
    );
    const r = await replayTrace(lines);
    assert.deepStrictEqual(
      [r.reproduced, r.matchingLines, r.recordedLines, r.replayedLines],
      [true, lines.length, lines.length, lines.length],
    );
    assert.strictEqual(r.firstDifference, undefined);
    assert.strictEqual(r.header.seed, 5);
  });

  it('reports the first line that differs', async () => {
    const lines = await record('rangestream-fallback', { lists: 3, intervalSeconds: 700 });
    const changed = lines.slice();
    changed[9] = changed[9].replace('"at":', '"at":1');
    changed[20] = '{"kind":"input","at":0,"action":"phase","name":"x","text":"y"}';
    const r = await replayTrace(changed);
    assert.strictEqual(r.reproduced, false);
    assert.strictEqual(r.matchingLines, 9);
    assert.deepStrictEqual(r.firstDifference, {
      line: 10,
      recorded: changed[9],
      replayed: lines[9],
    });
  });

  it('a recording cut short, or with a line too many, differs at its end', async () => {
    const lines = await record('read-your-writes', { cacheLagMs: 100 });
    const short = await replayTrace(lines.slice(0, -3));
    assert.deepStrictEqual(
      [short.reproduced, short.firstDifference?.line, short.firstDifference?.recorded],
      [false, lines.length - 2, ''],
    );
    const long = await replayTrace([...lines, lines[lines.length - 1]]);
    assert.deepStrictEqual(
      [long.reproduced, long.firstDifference?.line, long.firstDifference?.replayed],
      [false, lines.length + 1, ''],
    );
  });

  it('another seed in the header is another run: it differs', async () => {
    const lines = await record('bookmark-heartbeats', { watchers: 3, minutes: 1 }, 1);
    const h = JSON.parse(lines[0]);
    h.seed = 2;
    const r = await replayTrace([JSON.stringify(h), ...lines.slice(1)]);
    assert.strictEqual(r.reproduced, false);
    assert.ok((r.firstDifference?.line ?? 0) > 1, 'the header itself is the replayed one');
  });

  it('cannot replay a file without a header, or an unknown scenario', async () => {
    await assert.rejects(
      replayTrace([]),
      (e: unknown) => e instanceof TraceFormatError && /^line 1: empty trace/.test(e.message),
    );
    await assert.rejects(
      replayTrace([
        '{"format":"listwatch-trace","version":2,"scenario":"nope","profile":"1.36","seed":1,"params":{}}',
      ]),
      /unknown scenario "nope"/,
    );
    await assert.rejects(
      replayTrace([
        '{"format":"listwatch-trace","version":2,"scenario":"read-your-writes","profile":"1.36","seed":1,"params":{"readers":0}}',
      ]),
      /parameter "readers" expects a whole number from 1 to 1000, got 0/,
    );
  });

  it('loadRun folds a trace with damaged lines, counting them', async () => {
    const lines = await record('serialization-fanout', { watchers: 4, events: 3 });
    const damaged = [...lines.slice(0, 5), 'garbage', ...lines.slice(5)];
    const { model, stats } = await loadRun(damaged);
    assert.strictEqual(stats.rejected, 1);
    assert.deepStrictEqual(model.rejected.count, 1);
    assert.match(model.rejected.samples[0], /^line 6: not JSON/);
    assert.strictEqual(model.serialization.encodes, 3 * 2);
  });

  it('excerpt and firstDiffIndex', () => {
    assert.strictEqual(firstDiffIndex('abcdef', 'abcXef'), 3);
    assert.strictEqual(firstDiffIndex('abc', 'abcd'), 3);
    const long = 'x'.repeat(500) + 'DIFF' + 'y'.repeat(500);
    const e = excerpt(long, 500, 40);
    assert.ok(e.includes('DIFF') && e.startsWith('…') && e.endsWith('…') && e.length === 42, e);
  });
});
