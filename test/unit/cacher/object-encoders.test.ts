// Tests for src/engine/cacher/object-encoders.ts: identifiers (serializer/json, protobuf, versioning),
// the JSON wire bytes, the "k8s\0" + runtime.Unknown envelope, and encoding through CachingObject.
import * as assert from 'assert';
import type { KubeObject } from '../../../src/engine/storage/objects';
import {
  newCachingObject,
  setCachingObjects,
  type CachingObject,
} from '../../../src/engine/cacher/caching-object';
import {
  encodeObject,
  encodeUnknown,
  jsonSerializerIdentifier,
  newJSONEncoder,
  newProtobufEncoder,
  protobufSerializerIdentifier,
  versioningCodecIdentifier,
} from '../../../src/engine/cacher/object-encoders';
import type { WatchCacheEvent } from '../../../src/engine/cacher/watch-cache-event';

const str = (b: Uint8Array) => new TextDecoder().decode(b);
const bytes = (...parts: Array<number[] | string>) =>
  Uint8Array.from(
    parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p)),
  );

describe('object encoders (apimachinery serializers)', () => {
  it('identifiers are the ones upstream computes', () => {
    const cases: Array<[string, string, string]> = [
      [
        'json serializer',
        jsonSerializerIdentifier,
        '{"name":"json","pretty":"false","strict":"false","yaml":"false"}',
      ],
      ['protobuf serializer', protobufSerializerIdentifier, 'protobuf'],
      [
        'versioning codec over json, v1',
        newJSONEncoder('v1').identifier,
        '{"encodeGV":"v1","encoder":"{\\"name\\":\\"json\\",\\"pretty\\":\\"false\\",\\"strict\\":\\"false\\",\\"yaml\\":\\"false\\"}","name":"versioning"}',
      ],
      [
        'versioning codec over protobuf, apps/v1',
        newProtobufEncoder('apps/v1').identifier,
        '{"encodeGV":"apps/v1","encoder":"protobuf","name":"versioning"}',
      ],
      [
        'versioning codec without group-version (omitempty)',
        versioningCodecIdentifier('', 'protobuf'),
        '{"encoder":"protobuf","name":"versioning"}',
      ],
    ];
    for (const [name, got, want] of cases) assert.strictEqual(got, want, name);
    assert.notStrictEqual(
      newJSONEncoder('v1').identifier,
      newJSONEncoder('apps/v1').identifier,
      'the group-version is part of the identifier',
    );
  });

  it('application/json: Go escaping, omitted empty metadata maps, and the encoder newline', () => {
    const enc = newJSONEncoder('v1');
    const cases: Array<{ name: string; object: KubeObject; want: string }> = [
      {
        name: 'a bookmark object (reference §8.4)',
        object: {
          kind: 'Pod',
          apiVersion: 'v1',
          metadata: { resourceVersion: '12746' },
          spec: { containers: null },
          status: {},
        } as KubeObject,
        want: '{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"12746"},"spec":{"containers":null},"status":{}}\n',
      },
      {
        name: 'HTML characters and U+2028 are escaped like Go',
        object: {
          kind: 'Pod',
          apiVersion: 'v1',
          metadata: { name: 'a', annotations: { note: '<b>&\u2028' } },
        },
        want: '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","annotations":{"note":"\\u003cb\\u003e\\u0026\\u2028"}}}\n',
      },
      {
        name: 'empty labels (set through a setter) are omitted',
        object: { kind: 'Pod', apiVersion: 'v1', metadata: { name: 'a', labels: {} } },
        want: '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a"}}\n',
      },
    ];
    for (const c of cases) assert.strictEqual(str(enc.encode(c.object)), c.want, c.name);
    assert.strictEqual(enc.contentType, 'application/json');
  });

  it('application/vnd.kubernetes.protobuf: k8s\\0 + runtime.Unknown with always-written strings', () => {
    const object: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a' } };
    const raw = '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"}}';
    const want = bytes(
      [0x6b, 0x38, 0x73, 0x00],
      [0x0a, 0x09, 0x0a, 0x02],
      'v1',
      [0x12, 0x03],
      'Pod',
      [0x12, raw.length],
      raw,
      [0x1a, 0x00],
      [0x22, 0x10],
      'application/json',
    );
    const got = newProtobufEncoder('v1').encode(object);
    assert.deepStrictEqual([...got], [...want]);
    // Lengths of 128 and more take a two-byte varint.
    const long = encodeUnknown('', '', new Uint8Array(200), '');
    assert.deepStrictEqual(
      [...long.slice(0, 12)],
      [0x6b, 0x38, 0x73, 0x00, 0x0a, 0x04, 0x0a, 0x00, 0x12, 0x00, 0x12, 0xc8],
    );
    assert.strictEqual(long[12], 0x01);
    assert.strictEqual(long.length, 4 + 6 + 3 + 200 + 2 + 2);
  });

  it('a thousand watchers, two content types: each encoded once per event', () => {
    const json = newJSONEncoder('v1');
    const proto = newProtobufEncoder('v1');
    const object = newCachingObject({
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { name: 'a', namespace: 'ns', resourceVersion: '5' },
    });
    const outputs = new Set<string>();
    for (let w = 0; w < 1000; w++) {
      const enc = w % 3 === 0 ? proto : json;
      outputs.add(`${enc.contentType} ${[...encodeObject(enc, object)].join(',')}`);
    }
    assert.strictEqual(outputs.size, 2, 'every watcher of a content type gets the same bytes');
    assert.deepStrictEqual(
      [...object.serializationCounts()],
      [
        [proto.identifier, { encodes: 1, hits: 333, errors: 0 }],
        [json.identifier, { encodes: 1, hits: 665, errors: 0 }],
      ],
    );
    assert.strictEqual(object.deepCopied, false, 'no copy while nobody changes it');
  });

  it('a DELETED event is encoded with the delete RV; a plain object is encoded directly', () => {
    const prev: KubeObject = {
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { name: 'a', resourceVersion: '7' },
    };
    const ev: WatchCacheEvent<KubeObject | CachingObject> = {
      type: 'DELETED',
      object: prev,
      prevObject: prev,
      objLabels: {},
      objFields: {},
      key: '/pods/a',
      resourceVersion: 9,
      recordTime: 0,
    };
    setCachingObjects(ev);
    const json = newJSONEncoder('v1');
    assert.strictEqual(
      str(encodeObject(json, ev.prevObject as CachingObject)),
      '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"9"}}\n',
    );
    assert.strictEqual(
      str(encodeObject(json, prev)),
      '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"7"}}\n',
    );
  });
});
