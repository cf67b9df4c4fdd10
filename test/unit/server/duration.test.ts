// Tests for src/server/duration.ts: upstream's duration_test.go tables (TestHumanDuration,
// TestHumanDurationBoundaries, TestShortHumanDurationBoundaries), in milliseconds (1 ns = 1e-6 ms).
import * as assert from 'assert';
import { humanDuration, shortHumanDuration } from '../../../src/server/duration';

const ns = 1e-6;
const ms = 1;
const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;
const y = 365 * d;

const humanDurationCases: [number, string][] = [
  [s, '1s'],
  [70 * s, '70s'],
  [190 * s, '3m10s'],
  [70 * m, '70m'],
  [47 * h, '47h'],
  [49 * h, '2d1h'],
  [(8 * 24 + 2) * h, '8d'],
  [367 * 24 * h, '367d'],
  [(365 * 2 * 24 + 25) * h, '2y1d'],
  [(365 * 8 * 24 + 2) * h, '8y'],
];

const humanDurationBoundaries: [number, string][] = [
  [-2 * s, '<invalid>'],
  [-2 * s + ns, '0s'],
  [0, '0s'],
  [s - ms, '0s'],
  [2 * m - ms, '119s'],
  [2 * m, '2m'],
  [2 * m + s, '2m1s'],
  [10 * m - ms, '9m59s'],
  [10 * m, '10m'],
  [10 * m + s, '10m'],
  [3 * h - ms, '179m'],
  [3 * h, '3h'],
  [3 * h + m, '3h1m'],
  [8 * h - ms, '7h59m'],
  [8 * h, '8h'],
  [8 * h + 59 * m, '8h'],
  [2 * d - ms, '47h'],
  [2 * d, '2d'],
  [2 * d + h, '2d1h'],
  [8 * d - ms, '7d23h'],
  [8 * d, '8d'],
  [8 * d + 23 * h, '8d'],
  [2 * y - ms, '729d'],
  [2 * y, '2y'],
  [2 * y + 23 * h, '2y'],
  [2 * y + 23 * h + 59 * m, '2y'],
  [2 * y + 24 * h - ms, '2y'],
  [2 * y + 24 * h, '2y1d'],
  [3 * y, '3y'],
  [4 * y, '4y'],
  [5 * y, '5y'],
  [6 * y, '6y'],
  [7 * y, '7y'],
  [8 * y - ms, '7y364d'],
  [8 * y, '8y'],
  [8 * y + 364 * d, '8y'],
  [9 * y, '9y'],
];

const shortHumanDurationBoundaries: [number, string][] = [
  [-2 * s, '<invalid>'],
  [-2 * s + ns, '0s'],
  [0, '0s'],
  [s - ms, '0s'],
  [s, '1s'],
  [2 * s - ms, '1s'],
  [m - ms, '59s'],
  [m, '1m'],
  [2 * m - ms, '1m'],
  [h - ms, '59m'],
  [h, '1h'],
  [2 * h - ms, '1h'],
  [d - ms, '23h'],
  [d, '1d'],
  [2 * d - ms, '1d'],
  [y - ms, '364d'],
  [y, '1y'],
  [2 * y - ms, '1y'],
  [2 * y, '2y'],
];

describe('duration (apimachinery pkg/util/duration)', () => {
  for (const [table, fn, name] of [
    [humanDurationCases, humanDuration, 'HumanDuration'],
    [humanDurationBoundaries, humanDuration, 'HumanDuration boundaries'],
    [shortHumanDurationBoundaries, shortHumanDuration, 'ShortHumanDuration boundaries'],
  ] as const) {
    it(name, () => {
      for (const [input, want] of table)
        assert.strictEqual(fn(input), want, `${name}(${input} ms)`);
    });
  }
});
