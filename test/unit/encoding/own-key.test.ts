// Tests for src/engine/encoding/own-key.ts and the engine's copies of metadata that use it: a key
// `__proto__` (JSON.parse makes it an own property) stays a key, and no object's prototype changes.
import * as assert from 'assert';
import { setOwn } from '../../../src/engine/encoding/own-key';
import { marshalObjectJSON } from '../../../src/engine/cacher/object-encoders';
import {
  setMetaFieldInOrder,
  sortedMap,
  type KubeObject,
} from '../../../src/engine/storage/objects';

const parse = (text: string): Record<string, unknown> =>
  JSON.parse(text) as Record<string, unknown>;

describe('own-key setOwn and the engine copies that use it', () => {
  it('setOwn: __proto__, constructor and plain keys become own keys; the prototype stays', () => {
    const out: Record<string, unknown> = {};
    for (const k of ['__proto__', 'constructor', 'toString', 'a']) setOwn(out, k, { polluted: k });
    assert.deepStrictEqual(Object.keys(out), ['__proto__', 'constructor', 'toString', 'a']);
    assert.strictEqual(Object.getPrototypeOf(out), Object.prototype);
    assert.strictEqual((out as { polluted?: unknown }).polluted, undefined);
    setOwn(out, '__proto__', 'again');
    assert.strictEqual(Object.getOwnPropertyDescriptor(out, '__proto__')?.value, 'again');
  });

  const cases: { name: string; run: () => string }[] = [
    {
      name: 'sortedMap',
      run: () =>
        JSON.stringify(sortedMap(parse('{"b":"2","__proto__":"1"}') as Record<string, string>)),
    },
    {
      name: 'setMetaFieldInOrder re-appends the later keys',
      run: () => {
        const meta = parse('{"name":"x","__proto__":{"labels":{"a":"b"}}}');
        setMetaFieldInOrder(meta, 'uid', 'u');
        return JSON.stringify(meta) + ' ' + String((meta as { labels?: unknown }).labels);
      },
    },
    {
      name: 'marshalObjectJSON with an empty map dropped from metadata',
      run: () =>
        new TextDecoder().decode(
          marshalObjectJSON(
            parse('{"metadata":{"name":"x","labels":{},"__proto__":"p"}}') as unknown as KubeObject,
          ),
        ),
    },
  ];
  const want: Record<string, string> = {
    sortedMap: '{"__proto__":"1","b":"2"}',
    'setMetaFieldInOrder re-appends the later keys':
      '{"name":"x","uid":"u","__proto__":{"labels":{"a":"b"}}} undefined',
    'marshalObjectJSON with an empty map dropped from metadata':
      '{"metadata":{"name":"x","__proto__":"p"}}',
  };
  for (const c of cases) it(c.name, () => assert.strictEqual(c.run(), want[c.name]));
});
