// Tests for src/server/merge-patch.ts: evanphx/json-patch v4 merge_test.go (the RFC 7386 appendix A cases and the ErrBadJSONPatch ones).
import * as assert from 'assert';
import type { JsonObject } from '../../../src/server/json-patch';
import { mergePatch } from '../../../src/server/merge-patch';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('merge-patch mergePatch (RFC 7386 appendix A, evanphx rfcTests)', () => {
  // [target, patch, expected]; upstream's array targets are left out (the apiserver's document is
  // always an object).
  const cases: Array<[string, string, string]> = [
    ['{"a":"b"}', '{"a":"c"}', '{"a":"c"}'],
    ['{"a":"b"}', '{"b":"c"}', '{"a":"b","b":"c"}'],
    ['{"a":"b"}', '{"a":null}', '{}'],
    ['{"a":"b","b":"c"}', '{"a":null}', '{"b":"c"}'],
    ['{"a":["b"]}', '{"a":"c"}', '{"a":"c"}'],
    ['{"a":"c"}', '{"a":["b"]}', '{"a":["b"]}'],
    ['{"a":{"b": "c"}}', '{"a": {"b": "d","c": null}}', '{"a":{"b":"d"}}'],
    ['{"a":[{"b":"c"}]}', '{"a":[1]}', '{"a":[1]}'],
    ['{"a":"b"}', '["c"]', '["c"]'],
    ['{"e":null}', '{"a":1}', '{"e":null,"a":1}'],
    ['{}', '{"a":{"bb":{"ccc":null}}}', '{"a":{"bb":{}}}'],
    // TestMergePatchReplacesNonObjectsWholesale, TestMergePatchNilArray.
    ['{"a":1,"b":[1,2]}', '{"b":{"c":null,"d":1}}', '{"a":1,"b":{"d":1}}'],
    ['{"a":[{"b":1}]}', '{"a":[{"c":null,"d":2}, null]}', '{"a":[{"d":2},null]}'],
    ['{}', '[{"a":null,"b":1}, null]', '[{"b":1},null]'],
  ];
  for (const [target, patch, expected] of cases) {
    it(`${patch} on ${target}`, () => {
      const doc = JSON.parse(target) as JsonObject;
      const before = JSON.stringify(doc);
      assert.strictEqual(JSON.stringify(mergePatch(doc, enc(patch))), expected);
      assert.strictEqual(JSON.stringify(doc), before, 'the document is not modified');
    });
  }

  // rfcFailTests and TestMergePatchReturnsErrorOnBadJSON.
  for (const patch of ['null', '"bar"', '1', '{"a":', '<THIS IS NOT JSON>']) {
    it(`${patch}: Invalid JSON Patch`, () => {
      assert.throws(
        () => mergePatch({ a: 'foo' }, enc(patch)),
        (err: Error) => err.name === 'MergePatchError' && err.message === 'Invalid JSON Patch',
      );
    });
  }
});
