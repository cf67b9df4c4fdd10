// Tests for src/format/count-text.ts: a count with separators, and a count with its noun.
import * as assert from 'assert';
import { formatCount, plural, type PluralOptions } from '../../../src/format/count-text';

describe('counts as text', () => {
  const counts: Array<[number, string]> = [
    [0, '0'],
    [1200, '1,200'],
    [1_234_567, '1,234,567'],
    [2.6, '3'],
    [NaN, '—'],
  ];
  for (const [n, text] of counts)
    it(`formatCount(${n}) = ${text}`, () => assert.strictEqual(formatCount(n), text));

  const plurals: Array<[number, string, PluralOptions | undefined, string]> = [
    [1, 'page', undefined, '1 page'],
    [0, 'page', undefined, '0 pages'],
    [2, 'page', undefined, '2 pages'],
    [1200, 'line', undefined, '1,200 lines'],
    [1, 'watch', { many: 'watches' }, '1 watch'],
    [3, 'WATCH', { many: 'WATCHes' }, '3 WATCHes'],
    [1200, 'line', { plain: true }, '1200 lines'],
    [1, 'item', { plain: true }, '1 item'],
  ];
  for (const [n, one, o, text] of plurals)
    it(`plural(${n}, ${one}${o ? `, ${JSON.stringify(o)}` : ''}) = ${text}`, () =>
      assert.strictEqual(plural(n, one, o), text));
});
