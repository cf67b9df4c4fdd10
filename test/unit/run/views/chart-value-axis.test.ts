// Tests for src/run/views/chart-value-axis.ts: a chart's value axis has distinct, true labels, flat
// series included (the Watch cache tab's "oldest event age" read 0 s, 0 s, 0 s when every age was 0).
import * as assert from 'assert';
import {
  chartValueAxis,
  secondsText,
  type ValueAxisSpec,
} from '../../../../src/run/views/chart-value-axis';
import { formatCount } from '../../../../src/format/count-text';

describe('chartValueAxis', () => {
  const ms = { minRange: 1000 };
  const cases: Array<[string, ValueAxisSpec, (v: number) => string, string[]]> = [
    // The Watch cache tab's oldest event age (ms), shown in seconds.
    ['ages all 0 ms', { values: [0, 0, 0], ...ms }, secondsText, ['0 s', '0.5 s', '1 s']],
    ['ages up to 320 ms', { values: [0, 320], ...ms }, secondsText, ['0 s', '0.5 s', '1 s']],
    [
      'ages up to 1,250 ms',
      { values: [0, 1250], ...ms },
      secondsText,
      ['0 s', '0.5 s', '1 s', '1.5 s'],
    ],
    ['ages up to 12.3 s', { values: [12_345], ...ms }, secondsText, ['0 s', '5 s', '10 s', '15 s']],
    // Without a least span, labels that would read the same take a larger step.
    ['180 ms, no least span', { values: [0, 180] }, secondsText, ['0 s', '0.1 s', '0.2 s']],
    ['all 0 ms, no least span', { values: [0] }, secondsText, ['0 s', '0.1 s']],
    // Counts: whole steps.
    ['a flat capacity of 0', { values: [0, 0], integer: true }, formatCount, ['0', '1']],
    [
      'a flat RV from its own lowest value',
      { values: [2005, 2005], yMin: 2005, integer: true },
      formatCount,
      ['2,005', '2,006'],
    ],
    ['counts 0 to 3', { values: [0, 3], integer: true }, formatCount, ['0', '1', '2', '3']],
  ];
  for (const [name, spec, format, want] of cases)
    it(name, () => {
      const labels = chartValueAxis(spec, format).ticks.map((t) => t.label);
      assert.deepStrictEqual(labels, want);
    });

  it('every label is distinct, for flat series at every scale', () => {
    for (const v of [0, 0.3, 1, 7, 999, 1000, 86_400_000])
      for (const [format, extra] of [
        [secondsText, {}],
        [secondsText, ms],
        [formatCount, { integer: true }],
      ] as const) {
        const labels = chartValueAxis({ values: [v, v], ...extra }, format).ticks.map(
          (t) => t.label,
        );
        assert.strictEqual(new Set(labels).size, labels.length, `${v}: ${labels.join(', ')}`);
      }
  });
});
