// Tests for src/run/views/bookmark-bucket-text.ts: a watcher's next bookmark as a person reads it.
// A live run's buckets are whole seconds since the watch cache's creation, which comes before the
// run's start: a WatchList watch's first bucket (the current second) can begin before the run did
// and never reads as "second -0.082".
import * as assert from 'assert';
import {
  bucketPoppedText,
  bucketScheduledText,
  nextBookmarkCellText,
  nextBookmarkFactText,
} from '../../../../src/run/views/bookmark-bucket-text';

describe('bookmark bucket text', () => {
  const table: Array<{
    name: string;
    bucketMs: number;
    atMs: number;
    cell: string;
    fact: string;
    scheduled: string;
    popped: string;
  }> = [
    {
      name: "a scenario's heartbeat bucket, ahead",
      bucketMs: 61_000,
      atMs: 57_750,
      cell: '61.000 s',
      fact: 'at 61.000 s (in 3.250 s), when a bookmark tick pops its bucket',
      scheduled: 'in the bookmark bucket due at 61.000 s',
      popped: 'the bookmark bucket whose second began at 61.000 s popped: offered a bookmark',
    },
    {
      name: 'a live WatchList watch put into the current second, which began before the run',
      bucketMs: -82,
      atMs: 412,
      cell: 'due',
      fact: "due: offered at the next bookmark tick (each second); its bucket's second began 0.082 s before the run's start (buckets count whole seconds from the watch cache's creation)",
      scheduled:
        "in the bookmark bucket due now (its second began 0.082 s before the run's start): offered at the next bookmark tick",
      popped:
        "the bookmark bucket whose second began 0.082 s before the run's start popped: offered a bookmark",
    },
    {
      name: 'a bucket whose second began in the run, before the moment',
      bucketMs: 918,
      atMs: 1_400,
      cell: 'due',
      fact: "due: offered at the next bookmark tick (each second); its bucket's second began at 0.918 s",
      scheduled:
        'in the bookmark bucket due now (its second began at 0.918 s): offered at the next bookmark tick',
      popped: 'the bookmark bucket whose second began at 0.918 s popped: offered a bookmark',
    },
  ];
  for (const c of table)
    it(c.name, () => {
      assert.strictEqual(nextBookmarkCellText(c.bucketMs / 1000, c.atMs), c.cell, 'cell');
      assert.strictEqual(nextBookmarkFactText(c.bucketMs / 1000, c.atMs), c.fact, 'fact');
      assert.strictEqual(bucketScheduledText(c.bucketMs, c.atMs), c.scheduled, 'scheduled');
      assert.strictEqual(bucketPoppedText(c.bucketMs), c.popped, 'popped');
      for (const text of [c.cell, c.fact, c.scheduled, c.popped])
        assert.doesNotMatch(text, /-\d/, 'never a negative time');
    });

  it('no bucket: a dash in the table, and why in the detail', () => {
    assert.strictEqual(nextBookmarkCellText(undefined, 0), '—');
    assert.strictEqual(nextBookmarkFactText(undefined, 0), '— (in no bookmark bucket)');
  });
});
