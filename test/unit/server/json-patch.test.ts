// Tests for src/server/json-patch.ts: the tables of evanphx/json-patch v4 patch_test.go (Cases, MutationTestCases, BadCases, TestCases), with the error texts v4 returns.
import * as assert from 'assert';
import {
  applyJsonPatch,
  decodePatch,
  type JsonObject,
  type JsonValue,
} from '../../../src/server/json-patch';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const apply = (doc: string, patch: string, copyLimit?: number): JsonValue =>
  applyJsonPatch(JSON.parse(doc) as JsonObject, decodePatch(enc(patch)), copyLimit);
const a48 = 'A'.repeat(48);
const a49 = 'A'.repeat(49);

describe('json-patch applyJsonPatch (evanphx Cases)', () => {
  // [doc, patch, result]; upstream runs them with AccumulatedCopySizeLimit 100.
  const cases: Array<[string, string, string]> = [
    [
      `{ "foo": "bar"}`,
      `[{ "op": "add", "path": "/baz", "value": "qux" }]`,
      `{"baz":"qux","foo":"bar"}`,
    ],
    [
      `{ "foo": [ "bar", "baz" ] }`,
      `[{ "op": "add", "path": "/foo/1", "value": "qux" }]`,
      `{"foo":["bar","qux","baz"]}`,
    ],
    [
      `{ "foo": [ "bar", "baz" ] }`,
      `[{ "op": "add", "path": "/foo/-1", "value": "qux" }]`,
      `{"foo":["bar","baz","qux"]}`,
    ],
    [`{ "baz": "qux", "foo": "bar" }`, `[ { "op": "remove", "path": "/baz" } ]`, `{"foo":"bar"}`],
    [
      `{ "foo": [ "bar", "qux", "baz" ] }`,
      `[ { "op": "remove", "path": "/foo/1" } ]`,
      `{"foo":["bar","baz"]}`,
    ],
    [
      `{ "baz": "qux", "foo": "bar" }`,
      `[ { "op": "replace", "path": "/baz", "value": "boo" } ]`,
      `{"baz":"boo","foo":"bar"}`,
    ],
    [
      `{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}`,
      `[ { "op": "move", "from": "/foo/waldo", "path": "/qux/thud" } ]`,
      `{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}`,
    ],
    [
      `{ "foo": [ "all", "grass", "cows", "eat" ] }`,
      `[ { "op": "move", "from": "/foo/1", "path": "/foo/3" } ]`,
      `{"foo":["all","cows","eat","grass"]}`,
    ],
    [
      `{ "foo": [ "all", "grass", "cows", "eat" ] }`,
      `[ { "op": "move", "from": "/foo/1", "path": "/foo/2" } ]`,
      `{"foo":["all","cows","grass","eat"]}`,
    ],
    [
      `{ "foo": "bar" }`,
      `[ { "op": "add", "path": "/child", "value": { "grandchild": { } } } ]`,
      `{"foo":"bar","child":{"grandchild":{}}}`,
    ],
    [
      `{ "foo": ["bar"] }`,
      `[ { "op": "add", "path": "/foo/-", "value": ["abc", "def"] } ]`,
      `{"foo":["bar",["abc","def"]]}`,
    ],
    [
      `{ "foo": "bar", "qux": { "baz": 1, "bar": null } }`,
      `[ { "op": "remove", "path": "/qux/bar" } ]`,
      `{"foo":"bar","qux":{"baz":1}}`,
    ],
    [
      `{ "foo": "bar" }`,
      `[ { "op": "add", "path": "/baz", "value": null } ]`,
      `{"foo":"bar","baz":null}`,
    ],
    [
      `{ "foo": ["bar"]}`,
      `[ { "op": "replace", "path": "/foo/0", "value": "baz"}]`,
      `{"foo":["baz"]}`,
    ],
    [
      `{ "foo": ["bar","qux","baz"]}`,
      `[ { "op": "replace", "path": "/foo/1", "value": "bum"}]`,
      `{"foo":["bar","bum","baz"]}`,
    ],
    [
      `[ {"foo": ["bar","qux","baz"]}]`,
      `[ { "op": "replace", "path": "/0/foo/0", "value": "bum"}]`,
      `[{"foo":["bum","qux","baz"]}]`,
    ],
    [
      `[ {"foo": ["bar","qux","baz"], "bar": ["qux","baz"]}]`,
      `[ { "op": "copy", "from": "/0/foo/0", "path": "/0/bar/0"}]`,
      `[{"foo":["bar","qux","baz"],"bar":["bar","qux","baz"]}]`,
    ],
    [
      `[ {"foo": ["bar","qux","baz"], "bar": ["qux","baz"]}]`,
      `[ { "op": "copy", "from": "/0/foo/0", "path": "/0/bar"}]`,
      `[{"foo":["bar","qux","baz"],"bar":"bar"}]`,
    ],
    [
      `[ { "foo": {"bar": ["qux","baz"]}, "baz": {"qux": "bum"}}]`,
      `[ { "op": "copy", "from": "/0/foo/bar", "path": "/0/baz/bar"}]`,
      `[{"foo":{"bar":["qux","baz"]},"baz":{"qux":"bum","bar":["qux","baz"]}}]`,
    ],
    [
      `{ "foo": ["bar"]}`,
      `[{"op": "copy", "path": "/foo/0", "from": "/foo"}]`,
      `{"foo":[["bar"],"bar"]}`,
    ],
    [
      `{ "foo": ["bar","qux","baz"]}`,
      `[ { "op": "remove", "path": "/foo/-2"}]`,
      `{"foo":["bar","baz"]}`,
    ],
    [`{ "foo": []}`, `[ { "op": "add", "path": "/foo/-1", "value": "qux"}]`, `{"foo":["qux"]}`],
    [
      `{ "bar": [{"baz": null}]}`,
      `[ { "op": "replace", "path": "/bar/0/baz", "value": 1 } ]`,
      `{"bar":[{"baz":1}]}`,
    ],
    [
      `{ "bar": [{"baz": 1}]}`,
      `[ { "op": "replace", "path": "/bar/0/baz", "value": null } ]`,
      `{"bar":[{"baz":null}]}`,
    ],
    [`{ "bar": [null]}`, `[ { "op": "replace", "path": "/bar/0", "value": 1 } ]`, `{"bar":[1]}`],
    [`{ "bar": [1]}`, `[ { "op": "replace", "path": "/bar/0", "value": null } ]`, `{"bar":[null]}`],
    [
      `{ "foo": ["A", "${a48}"] }`,
      `[ { "op": "copy", "path": "/foo/-", "from": "/foo/1" }, { "op": "copy", "path": "/foo/-", "from": "/foo/1" }]`,
      `{"foo":["A","${a48}","${a48}","${a48}"]}`,
    ],
    [
      `{"id":"00000000-0000-0000-0000-000000000000","parentID":"00000000-0000-0000-0000-000000000000"}`,
      `[{"op":"test","path":"","value":{"id":"00000000-0000-0000-0000-000000000000","parentID":"00000000-0000-0000-0000-000000000000"}},` +
        `{"op":"replace","path":"","value":{"id":"759981e8-ec68-4639-a83e-513225914ecb","originalID":"bar","parentID":"00000000-0000-0000-0000-000000000000"}}]`,
      `{"id":"759981e8-ec68-4639-a83e-513225914ecb","originalID":"bar","parentID":"00000000-0000-0000-0000-000000000000"}`,
    ],
    // v4 quirks kept because the apiserver answers with them.
    [`{ "a": 1 }`, `[ { "op": "replace", "path": "/b", "value": 2 } ]`, `{"a":1,"b":2}`],
    [`{ "a": 1 }`, `[ { "op": "copy", "from": "/missing", "path": "/b" } ]`, `{"a":1,"b":null}`],
    [`{ "a": 1 }`, `[ { "op": "add", "path": "x/b", "value": 2 } ]`, `{"a":1,"b":2}`],
    [
      `{ "a/b": 1, "c~d": 2 }`,
      `[ { "op": "remove", "path": "/a~1b" }, { "op": "remove", "path": "/c~0d" } ]`,
      `{}`,
    ],
    [
      `{}`,
      `[ { "op": "add", "path": "/__proto__", "value": {"polluted": true} } ]`,
      `{"__proto__":{"polluted":true}}`,
    ],
  ];
  for (const [doc, patch, result] of cases) {
    it(`${patch} on ${doc}`, () => {
      assert.deepStrictEqual(apply(doc, patch, 100), JSON.parse(result));
    });
  }

  it('leaves its input untouched (MutationTestCases)', () => {
    const doc = { foo: 'bar', qux: { baz: 1, bar: null } } as JsonObject;
    const before = JSON.stringify(doc);
    const out = applyJsonPatch(doc, decodePatch(enc(`[{"op":"remove","path":"/qux/bar"}]`)));
    assert.strictEqual(JSON.stringify(doc), before);
    assert.deepStrictEqual(out, { foo: 'bar', qux: { baz: 1 } });
    assert.strictEqual(({} as { polluted?: boolean }).polluted, undefined);
  });
});

describe('json-patch applyJsonPatch errors (evanphx BadCases)', () => {
  // [doc, patch, v4's error text]
  const cases: Array<[string, string, string]> = [
    [
      `{ "foo": "bar" }`,
      `[ { "op": "add", "path": "/baz/bat", "value": "qux" } ]`,
      'add operation does not apply: doc is missing path: "/baz/bat": missing value',
    ],
    [
      `{ "a": { "b": { "d": 1 } } }`,
      `[ { "op": "remove", "path": "/a/b/c" } ]`,
      "error in remove for path: '/a/b/c': Unable to remove nonexistent key: c: missing value",
    ],
    [
      `{ "a": { "b": { "d": 1 } } }`,
      `[ { "op": "move", "from": "/a/b/c", "path": "/a/b/e" } ]`,
      "error in move for path: 'c': Unable to remove nonexistent key: c: missing value",
    ],
    [
      `{ "a": { "b": [1] } }`,
      `[ { "op": "remove", "path": "/a/b/1" } ]`,
      "error in remove for path: '/a/b/1': Unable to access invalid index: 1: invalid index referenced",
    ],
    [
      `{ "a": { "b": [1] } }`,
      `[ { "op": "move", "from": "/a/b/1", "path": "/a/b/2" } ]`,
      "error in move for path: '1': Unable to access invalid index: 1: invalid index referenced",
    ],
    [
      `{ "foo": "bar" }`,
      `[ { "op": "add", "pathz": "/baz", "value": "qux" } ]`,
      'add operation failed to decode path: missing value',
    ],
    [
      `{ "foo": "bar" }`,
      `[ { "op": "add", "path": "", "value": "qux" } ]`,
      'add operation does not apply: doc is missing path: "": missing value',
    ],
    [
      `{ "foo": ["bar","baz"]}`,
      `[ { "op": "replace", "path": "/foo/2", "value": "bum"}]`,
      'replace operation does not apply: doc is missing key: /foo/2: missing value',
    ],
    [
      `{ "foo": ["bar","baz"]}`,
      `[ { "op": "add", "path": "/foo/-4", "value": "bum"}]`,
      "error in add for path: '/foo/-4': Unable to access invalid index: -4: invalid index referenced",
    ],
    [
      `{ "name":{ "foo": "bat", "qux": "bum"}}`,
      `[ { "op": "replace", "path": "/foo/bar", "value":"baz"}]`,
      'replace operation does not apply: doc is missing path: /foo/bar: missing value',
    ],
    [
      `{ "foo": ["bar"]}`,
      `[ {"op": "add", "path": "/foo/2", "value": "bum"}]`,
      "error in add for path: '/foo/2': Unable to access invalid index: 2: invalid index referenced",
    ],
    [
      `{ "foo": []}`,
      `[ {"op": "remove", "path": "/foo/-"}]`,
      `error in remove for path: '/foo/-': strconv.Atoi: parsing "-": invalid syntax`,
    ],
    [
      `{ "foo": []}`,
      `[ {"op": "remove", "path": "/foo/-1"}]`,
      "error in remove for path: '/foo/-1': Unable to access invalid index: -1: invalid index referenced",
    ],
    [
      `{ "foo": ["bar"]}`,
      `[ {"op": "remove", "path": "/foo/-2"}]`,
      "error in remove for path: '/foo/-2': Unable to access invalid index: -2: invalid index referenced",
    ],
    [`{}`, `[ {"op":null,"path":""} ]`, 'Unexpected kind: unknown'],
    [`{}`, `[ {"op":"add","path":null} ]`, 'add operation failed to decode path: missing value'],
    [
      `{}`,
      `[ { "op": "copy", "from": null }]`,
      'copy operation failed to decode from: operation, missing from field: missing value',
    ],
    [
      `{ "foo": ["bar"]}`,
      `[{"op": "copy", "path": "/foo/6666666666", "from": "/"}]`,
      'error while adding value during copy: Unable to access invalid index: 6666666666: invalid index referenced',
    ],
    [
      `{ "foo": ["bar"]}`,
      `[{"op": "copy", "path": "/foo/2", "from": "/foo/0"}]`,
      'error while adding value during copy: Unable to access invalid index: 2: invalid index referenced',
    ],
    [
      `{ "foo": ["A", "${a49}"] }`,
      `[ { "op": "copy", "path": "/foo/-", "from": "/foo/1" }, { "op": "copy", "path": "/foo/-", "from": "/foo/1" }]`,
      'Unable to complete the copy, the accumulated size increase of copy is 102, exceeding the limit 100',
    ],
    [
      `{ "foo": [ "all", "grass", "cows", "eat" ] }`,
      `[ { "op": "move", "from": "/foo/1", "path": "/foo/4" } ]`,
      "error in move for path: '/foo/4': Unable to access invalid index: 4: invalid index referenced",
    ],
    // Beyond upstream's table: the other texts a client can meet.
    [`{}`, `[ {"op":"ADD","path":"/a"} ]`, 'Unexpected kind: ADD'],
    [
      `{}`,
      `[ {"op":"replace","path":1} ]`,
      'replace operation failed to decode path: json: cannot unmarshal number into Go value of type string',
    ],
    [
      `{}`,
      `[ {"op":"replace","path":"","value":"x"} ]`,
      'replace operation value must be object or array: %!w(<nil>)',
    ],
    [
      `{"a":"s"}`,
      `[ {"op":"add","path":"/a/b","value":1} ]`,
      'add operation does not apply: doc is missing path: "/a/b": missing value',
    ],
    [
      `{"a":[1]}`,
      `[ {"op":"add","path":"/a/x","value":1} ]`,
      `error in add for path: '/a/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax`,
    ],
    [
      `{"a":1}`,
      `[ {"op":"test","path":"/b/c","value":1} ]`,
      'test operation does not apply: is missing path: /b/c: missing value',
    ],
    [
      `{"a":[1]}`,
      `[ {"op":"test","path":"/a/5","value":1} ]`,
      "error in test for path: '/a/5': Unable to access invalid index: 5: invalid index referenced",
    ],
  ];
  for (const [doc, patch, message] of cases) {
    it(`${patch} on ${doc}`, () => {
      assert.throws(
        () => apply(doc, patch, 100),
        (err: Error) => err.name === 'JsonPatchError' && err.message === message,
      );
    });
  }
});

describe('json-patch test operation (evanphx TestCases)', () => {
  // [doc, patch, passes, failed path]
  const cases: Array<[string, string, boolean, string]> = [
    [
      `{"baz":"qux","foo":["a",2,"c"]}`,
      `[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]`,
      true,
      '',
    ],
    [`{ "baz": "qux" }`, `[ { "op": "test", "path": "/baz", "value": "bar" } ]`, false, '/baz'],
    [
      `{"baz":"qux","foo":["a",2,"c"]}`,
      `[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":"c"}]`,
      false,
      '/foo/1',
    ],
    [`{ "baz": "qux" }`, `[ { "op": "test", "path": "/foo", "value": 42 } ]`, false, '/foo'],
    [`{ "baz": "qux" }`, `[ { "op": "test", "path": "/foo", "value": null } ]`, true, ''],
    [`{ "foo": null }`, `[ { "op": "test", "path": "/foo", "value": null } ]`, true, ''],
    [`{ "foo": {} }`, `[ { "op": "test", "path": "/foo", "value": null } ]`, false, '/foo'],
    [`{ "foo": [] }`, `[ { "op": "test", "path": "/foo", "value": null } ]`, false, '/foo'],
    [`{ "baz/foo": "qux" }`, `[ { "op": "test", "path": "/baz~1foo", "value": "qux"} ]`, true, ''],
    [`{ "foo": [] }`, `[ { "op": "test", "path": "/foo"} ]`, false, '/foo'],
    [`{ "baz": [] }`, `[ { "op": "test", "path": "/foo"} ]`, true, ''],
    [
      `{ "a": {"x": 1, "y": [1, {"z": null}]} }`,
      `[ { "op": "test", "path": "/a", "value": {"y": [1, {"z": null}], "x": 1}} ]`,
      true,
      '',
    ],
    [
      `{ "a": {"x": 1} }`,
      `[ { "op": "test", "path": "/a", "value": {"x": 1, "y": null}} ]`,
      false,
      '/a',
    ],
  ];
  for (const [doc, patch, passes, failedPath] of cases) {
    it(`${patch} on ${doc}`, () => {
      if (passes) {
        apply(doc, patch);
        return;
      }
      assert.throws(
        () => apply(doc, patch),
        (err: Error) => err.message === `testing value ${failedPath} failed: test failed`,
      );
    });
  }
});

describe('json-patch decodePatch (jsonpatch.DecodePatch)', () => {
  const cases: Array<[string, string]> = [
    ['', 'unexpected end of JSON input'],
    ['[{"op":"add"', 'unexpected end of JSON input'],
    ['[{"op":x}]', "invalid character 'x' looking for beginning of value"],
    ['{"op":"add"}', 'json: cannot unmarshal object into Go value of type jsonpatch.Patch'],
    ['"x"', 'json: cannot unmarshal string into Go value of type jsonpatch.Patch'],
    ['["x"]', 'json: cannot unmarshal string into Go value of type jsonpatch.Operation'],
    ['[[1]]', 'json: cannot unmarshal array into Go value of type jsonpatch.Operation'],
  ];
  for (const [body, message] of cases) {
    it(`${JSON.stringify(body)}: ${message}`, () => {
      assert.throws(
        () => decodePatch(enc(body)),
        (err: Error) => err.message === message,
      );
    });
  }

  it('null is a patch of no operations', () => {
    assert.deepStrictEqual(decodePatch(enc('null')), []);
  });
});
