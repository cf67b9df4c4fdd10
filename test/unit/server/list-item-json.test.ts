// Tests for src/server/list-item-json.ts: a LIST item's memoised JSON is byte for byte what
// goJsonMarshal writes for it (src/engine/encoding/go-json.ts), per object and per form.
import * as assert from 'assert';
import { goJsonMarshal, type GoJsonValue } from '../../../src/engine/encoding/go-json';
import type { KubeObject } from '../../../src/engine/storage/objects';
import { ListItemJSON, withoutTypeMeta } from '../../../src/server/list-item-json';

const pod = (name: string, extra: Record<string, unknown> = {}): KubeObject =>
  ({
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name, namespace: 'default', resourceVersion: '7', labels: { app: 'x' } },
    spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10' }] },
    status: {},
    ...extra,
  }) as KubeObject;

describe('ListItemJSON', () => {
  const cases: { name: string; object: KubeObject }[] = [
    { name: 'a pod', object: pod('p') },
    { name: 'no TypeMeta', object: { metadata: { name: 'bare' } } },
    { name: 'HTML characters (escaped as Go does)', object: pod('h', { data: { x: '<a>&</a>' } }) },
    { name: 'U+2028 and U+2029', object: pod('s', { data: { x: 'a\u2028b\u2029c' } }) },
    { name: 'a lone surrogate (\\ufffd)', object: pod('u', { data: { x: 'a\ud800b' } }) },
    { name: 'control characters', object: pod('c', { data: { x: '\u0001\b\f\n\r\t\u007f' } }) },
    { name: 'numbers, -0 and a bigint', object: pod('n', { data: { a: 1.5e-7, b: -0, c: 10n } }) },
    { name: 'non-ASCII (UTF-8 bytes)', object: pod('é', { data: { x: 'ünï \u{1f600}' } }) },
    { name: 'undefined fields are omitted', object: pod('o', { data: undefined }) },
  ];

  for (const keepTypeMeta of [false, true]) {
    it(`writes goJsonMarshal's bytes, first and memoised (keepTypeMeta=${keepTypeMeta})`, () => {
      const memo = new ListItemJSON();
      for (const c of cases) {
        const want = goJsonMarshal(
          (keepTypeMeta ? c.object : withoutTypeMeta(c.object)) as unknown as GoJsonValue,
        );
        assert.deepStrictEqual(
          memo.encode(c.object, keepTypeMeta),
          Buffer.from(want),
          `${c.name}: first`,
        );
        assert.deepStrictEqual(
          memo.encode(c.object, keepTypeMeta),
          Buffer.from(want),
          `${c.name}: memoised`,
        );
      }
    });
  }

  it('keeps the two forms of one object apart', () => {
    const memo = new ListItemJSON();
    const p = pod('p');
    const typed = memo.encode(p, false).toString();
    const unstructured = memo.encode(p, true).toString();
    assert.ok(!typed.includes('"kind"'), typed);
    assert.ok(unstructured.startsWith('{"kind":"Pod","apiVersion":"v1",'), unstructured);
    assert.strictEqual(memo.encode(p, false).toString(), typed);
  });

  it('memoises by identity: another object of the same name is encoded for itself', () => {
    const memo = new ListItemJSON();
    const v7 = pod('p');
    const v8 = pod('p', { metadata: { name: 'p', namespace: 'default', resourceVersion: '8' } });
    assert.match(memo.encode(v7, false).toString(), /"resourceVersion":"7"/);
    assert.match(memo.encode(v8, false).toString(), /"resourceVersion":"8"/);
  });
});

describe('ListItemJSON.encodeItems', () => {
  const pods = Array.from({ length: 6 }, (_, i) => pod(`p${i}`));
  const joined = (items: KubeObject[], keepTypeMeta: boolean): string =>
    items
      .map((o) => goJsonMarshal((keepTypeMeta ? o : withoutTypeMeta(o)) as unknown as GoJsonValue))
      .join(',');
  const replaced = [
    ...pods.slice(0, 3),
    pod('p3', { status: { phase: 'Running' } }),
    ...pods.slice(4),
  ];
  // Each case: the lists encoded before (in order), then the list checked: its bytes are the
  // items' JSON joined by commas, and `shared` says whether they are a view of an earlier body.
  const cases: { name: string; before: KubeObject[][]; list: KubeObject[]; shared: boolean }[] = [
    { name: 'no items', before: [], list: [], shared: false },
    { name: 'a first list', before: [], list: pods, shared: false },
    { name: 'the same items again', before: [pods], list: pods, shared: true },
    { name: 'a run inside an earlier list', before: [pods], list: pods.slice(2, 5), shared: true },
    { name: 'one item', before: [pods], list: [pods[4]], shared: true },
    { name: 'one item replaced', before: [pods], list: replaced, shared: false },
    {
      name: 'after a replaced item, the new list',
      before: [pods, replaced],
      list: replaced,
      shared: true,
    },
    { name: 'the old list after the new one', before: [pods, replaced], list: pods, shared: false },
    { name: 'another order', before: [pods], list: [...pods].reverse(), shared: false },
    { name: 'a gap', before: [pods], list: [pods[0], pods[2]], shared: false },
  ];
  for (const keepTypeMeta of [false, true]) {
    for (const c of cases) {
      it(`${c.name} (keepTypeMeta=${keepTypeMeta})`, () => {
        const memo = new ListItemJSON();
        const bodies = c.before.map((l) => memo.encodeItems(l, keepTypeMeta));
        const got = memo.encodeItems(c.list, keepTypeMeta);
        assert.strictEqual(Buffer.from(got).toString(), joined(c.list, keepTypeMeta));
        const shared = bodies.some((b) => b.length > 0 && b.buffer === got.buffer);
        assert.strictEqual(shared, c.shared, 'a view of an earlier body');
        // The memo keeps each item's own JSON, whatever body it now lives in.
        for (const o of c.list) {
          const want = goJsonMarshal(
            (keepTypeMeta ? o : withoutTypeMeta(o)) as unknown as GoJsonValue,
          );
          assert.strictEqual(memo.encode(o, keepTypeMeta).toString(), want);
        }
      });
    }
  }
});
