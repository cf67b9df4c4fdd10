// Tests for src/format/byte-size-text.ts: each form prints what its callers printed before it
// was shared (the webview's and the CLI import's formatBytes, the probe's KiB, the run estimate's
// bytesText, the import's limit text).
import * as assert from 'assert';
import {
  formatByteLimit,
  formatBytes,
  formatBytesRoughly,
  type LargestByteUnit,
} from '../../../src/format/byte-size-text';

describe('byte sizes as text', () => {
  const measured: Array<[number, LargestByteUnit | undefined, string]> = [
    [0, undefined, '0 B'],
    [1023, undefined, '1023 B'],
    [1024, undefined, '1.0 KiB'],
    [8704, undefined, '8.5 KiB'],
    [67_213_312, undefined, '64.1 MiB'],
    [3 * 1024 ** 3, undefined, '3072.0 MiB'],
    [NaN, undefined, '—'],
    [Infinity, 'GiB', '—'],
    [512, 'KiB', '512 B'],
    [8704, 'KiB', '8.5 KiB'],
    [2 * 1024 ** 2, 'KiB', '2048.0 KiB'],
    [67_213_312, 'GiB', '64.1 MiB'],
    [1.25 * 1024 ** 3, 'GiB', '1.25 GiB'],
  ];
  for (const [n, largest, text] of measured)
    it(`formatBytes(${n}, ${largest ?? 'default'}) = ${text}`, () =>
      assert.strictEqual(formatBytes(n, largest), text));

  const rough: Array<[number, string]> = [
    [0, '1 KiB'],
    [100, '1 KiB'],
    [1536, '2 KiB'],
    [1_234_567, '1.2 MiB'],
    [3 * 1024 ** 3, '3.0 GiB'],
  ];
  for (const [n, text] of rough)
    it(`formatBytesRoughly(${n}) = ${text}`, () => assert.strictEqual(formatBytesRoughly(n), text));

  const limits: Array<[number, string]> = [
    [64 * 1024 * 1024, '64 MiB'],
    [1024 * 1024, '1 MiB'],
    [1000, '1000 bytes'],
  ];
  for (const [n, text] of limits)
    it(`formatByteLimit(${n}) = ${text}`, () => assert.strictEqual(formatByteLimit(n), text));
});
