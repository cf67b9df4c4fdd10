// Tests for src/run/views/timeline-scale.ts (speeds that fit a run, axis ticks),
// src/run/views/metric-order.ts (samples in the order a person reads them, buckets by `le`) and
// src/run/views/status-text.ts (a refused request's Status as one line).
import * as assert from 'assert';
import { compareSampleKeys } from '../../../../src/run/views/metric-order';
import { statusText } from '../../../../src/run/views/status-text';
import {
  chartTimeTicks,
  nearestSpeed,
  playbackSpeedsFor,
  speedLabel,
  timeTicks,
} from '../../../../src/run/views/timeline-scale';

describe('playbackSpeedsFor', () => {
  const cases: Array<[string, number, number[]]> = [
    ['a run within one instant has nothing to play', 0, []],
    ['2.1 s (serialization-fanout): real time and slower', 2100, [0.01, 0.05, 0.2, 0.5, 1]],
    ['25 s (slow-watcher-termination)', 25_000, [0.2, 0.5, 1, 2, 5]],
    ['3.5 min (bookmark-heartbeats)', 210_100, [1, 5, 20, 50]],
    ['12 min (watch-cache-resize)', 721_000, [5, 20, 50, 200]],
  ];
  for (const [name, ms, want] of cases)
    it(name, () => assert.deepStrictEqual(playbackSpeedsFor(ms), want));

  it('every offered speed plays the whole run in 2 s to 5 min of real time', () => {
    for (const ms of [500, 2100, 25_000, 210_100, 721_000, 3_600_000])
      for (const v of playbackSpeedsFor(ms).filter((x) => x !== 1)) {
        const real = ms / v / 1000;
        assert.ok(real >= 2 && real <= 300, `${ms} ms at ${v}×: ${real} s`);
      }
  });

  it('takes the nearest offered speed for one kept from another run', () => {
    assert.strictEqual(nearestSpeed([1, 2, 5, 20, 50], 10), 5);
    assert.strictEqual(nearestSpeed([], 10), undefined);
    assert.strictEqual(speedLabel(0.07), '0.07×');
    assert.strictEqual(speedLabel(200), '200×');
  });
});

describe('timeTicks', () => {
  const cases: Array<[number, number, string[]]> = [
    [0, 9, ['0']],
    [2100, 9, ['0', '500 ms', '1 s', '1.5 s', '2 s']],
    [210_100, 9, ['0', '30 s', '1:00', '1:30', '2:00', '2:30', '3:00', '3:30']],
    [721_000, 9, ['0', '2 min', '4 min', '6 min', '8 min', '10 min', '12 min']],
    [721_000, 4, ['0', '5 min', '10 min']],
  ];
  for (const [ms, max, want] of cases)
    it(`${ms} ms, at most ${max} ticks`, () =>
      assert.deepStrictEqual(
        timeTicks(ms, max).map((t) => t.label),
        want,
      ));
});

describe('chartTimeTicks', () => {
  // A chart's time axis spans the run and says where it ends: its last label is the run's length
  // (the imported audit.log's 908.903 s was labelled 0 s, 500 s and nothing after), and a round
  // tick too near the end to be read beside it is left out.
  const cases: Array<[string, number, number, string[]]> = [
    ['an imported run of 15 min 8.9 s', 908_903, 4, ['0', '10 min', '908.903 s']],
    ['a 60 s live run, the end on a round tick', 60_000, 4, ['0', '30 s', '60.000 s']],
    ['a tick too near the end is left out', 35_000, 4, ['0', '15 s', '35.000 s']],
    ['a run of no length', 0, 4, ['0']],
  ];
  for (const [name, ms, max, want] of cases)
    it(name, () => {
      const ticks = chartTimeTicks(ms, max);
      assert.deepStrictEqual(
        ticks.map((t) => t.label),
        want,
      );
      const last = ticks[ticks.length - 1];
      assert.strictEqual(last.at, ms, "the last tick is the run's end");
      assert.strictEqual(last.end, ms > 0 ? true : undefined);
    });
});

describe('compareSampleKeys', () => {
  it('orders histogram buckets by le, +Inf last, then sum and count', () => {
    const keys = [
      'h_bucket{group="",le="10",resource="pods"}',
      'h_bucket{group="",le="+Inf",resource="pods"}',
      'h_bucket{group="",le="1.5",resource="pods"}',
      'h_bucket{group="",le="2",resource="pods"}',
      'h_bucket{group="",le="0.005",resource="pods"}',
      'h_count{group="",resource="pods"}',
      'a_total',
    ];
    assert.deepStrictEqual([...keys].sort(compareSampleKeys), [
      'a_total',
      'h_bucket{group="",le="0.005",resource="pods"}',
      'h_bucket{group="",le="1.5",resource="pods"}',
      'h_bucket{group="",le="2",resource="pods"}',
      'h_bucket{group="",le="10",resource="pods"}',
      'h_bucket{group="",le="+Inf",resource="pods"}',
      'h_count{group="",resource="pods"}',
    ]);
  });

  it('keeps the series of one label set together', () => {
    const keys = [
      'h_bucket{le="2",operation="list"}',
      'h_bucket{le="1",operation="range"}',
      'h_bucket{le="1",operation="list"}',
    ];
    assert.deepStrictEqual([...keys].sort(compareSampleKeys), [
      'h_bucket{le="1",operation="list"}',
      'h_bucket{le="2",operation="list"}',
      'h_bucket{le="1",operation="range"}',
    ]);
  });
});

describe('statusText', () => {
  const cases: Array<[string, { code: number; reason: string; message: string }, string]> = [
    [
      '410: the reason, then the message',
      { code: 410, reason: 'Expired', message: 'too old resource version: 101 (8901)' },
      '410 Expired: too old resource version: 101 (8901)',
    ],
    [
      '504: the message already starts with the reason',
      {
        code: 504,
        reason: 'Timeout',
        message: 'Timeout: Too large resource version: 22, current: 21',
      },
      '504 Timeout: Too large resource version: 22, current: 21',
    ],
    [
      'no reason',
      { code: 429, reason: '', message: 'storage is (re)initializing' },
      '429 storage is (re)initializing',
    ],
  ];
  for (const [name, status, want] of cases)
    it(name, () => assert.strictEqual(statusText(status), want));
});
