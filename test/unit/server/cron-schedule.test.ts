// Tests for src/server/cron-schedule.ts: robfig/cron v3 ParseStandard's errors (parser.go's
// getRange, mustParseInt, normalizeFields and parseDescriptor), one case a line.
import * as assert from 'assert';
import { parseStandardError } from '../../../src/server/cron-schedule';

const cases: Array<[string, string | undefined]> = [
  ['* * * * *', undefined],
  ['*/15 0-6 1,15 JAN-mar mon-FRI', undefined],
  ['0 0 * * 0', undefined],
  ['@daily', undefined],
  ['@every 1h30m', undefined],
  ['TZ=UTC 0 3 * * *', undefined],
  ['', 'empty spec string'],
  ['foo', 'expected exactly 5 fields, found 1: [foo]'],
  ['* * * * * *', 'expected exactly 5 fields, found 6: [* * * * * *]'],
  ['61 * * * *', 'end of range (61) above maximum (59): 61'],
  ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
  ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
  ['*/0 * * * *', 'step of range should be a positive number: */0'],
  ['*/-1 * * * *', 'negative number (-1) not allowed: -1'],
  ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
  ['*/1/2 * * * *', 'too many slashes: */1/2'],
  ['x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
  ['* * * foo *', 'failed to parse int from foo: strconv.Atoi: parsing "foo": invalid syntax'],
  ['@foo', 'unrecognized descriptor: @foo'],
  ['@every 5', 'failed to parse duration @every 5: time: missing unit in duration "5"'],
  ['@every 5x', 'failed to parse duration @every 5x: time: unknown unit "x" in duration "5x"'],
  ['@every x', 'failed to parse duration @every x: time: invalid duration "x"'],
  ['TZ=Nowhere/Foo * * * * *', 'provided bad location Nowhere/Foo: unknown time zone Nowhere/Foo'],
];

describe('server/cron-schedule (robfig/cron v3 ParseStandard)', () => {
  for (const [spec, want] of cases)
    it(`${JSON.stringify(spec)} → ${want ?? 'parses'}`, () => {
      assert.strictEqual(parseStandardError(spec), want);
    });
});
