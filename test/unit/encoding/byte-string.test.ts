// Tests for src/engine/encoding/byte-string.ts, and the etcd3 store writing UTF-8 bytes to etcd.
import * as assert from 'assert';
import {
  byteStringToBytes,
  bytesToByteString,
  encodeStoredObject,
  fromUtf8ByteString,
  utf8ByteString,
} from '../../../src/engine/encoding/byte-string';
import { memoryEtcd } from '../../harness/etcd-under-test';
import { memoryOf, testSetup, pod } from '../etcd3/etcd3-testing';

describe('byte strings (the KV boundary)', () => {
  it('encodes text as its UTF-8 bytes, one char per byte, and back', () => {
    const cases: [string, string][] = [
      ['/registry/pods/default/a', '/registry/pods/default/a'],
      ['ü', '\xc3\xbc'],
      ['✓', '\xe2\x9c\x93'],
      ['𝄞', '\xf0\x9d\x84\x9e'],
      ['', ''],
    ];
    for (const [text, bytes] of cases) {
      assert.strictEqual(utf8ByteString(text), bytes, JSON.stringify(text));
      assert.strictEqual(fromUtf8ByteString(bytes), text, JSON.stringify(bytes));
    }
  });

  it('decodes invalid UTF-8 as U+FFFD, as encoding/json reads a string', () => {
    assert.strictEqual(fromUtf8ByteString('a\xffb'), 'a\ufffdb');
  });

  it('carries every byte value unchanged', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const s = bytesToByteString(all);
    assert.strictEqual(s.length, 256);
    assert.deepStrictEqual(byteStringToBytes(s), all);
    assert.throws(() => byteStringToBytes('ü✓'), /not a byte string: char 1 is U\+2713/);
  });

  it('the etcd3 store writes UTF-8 bytes and reads the same object back', async () => {
    const t = await testSetup(memoryEtcd);
    const { store } = t;
    const etcd = memoryOf(t);
    const p = pod('default', 'unicode');
    p.metadata.annotations = { note: 'grüße ✓ 𝄞' };
    const created = await store.create('/pods/default/unicode', p);
    const stored = etcd.get('/registry/pods/default/unicode');
    assert.ok(stored);
    assert.ok(stored.value.includes('gr\xc3\xbc\xc3\x9fe \xe2\x9c\x93 \xf0\x9d\x84\x9e'));
    assert.strictEqual(
      stored.value,
      encodeStoredObject(JSON.parse(fromUtf8ByteString(stored.value))),
    );
    assert.strictEqual(created.metadata.annotations?.note, 'grüße ✓ 𝄞');
    const got = await store.get('/pods/default/unicode');
    assert.strictEqual(got?.metadata.annotations?.note, 'grüße ✓ 𝄞');
  });
});
